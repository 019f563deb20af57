#include "reference/ptx_version.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(PtxVersionTest, ParsesReleasedVersions) {
  EXPECT_EQ(*ParsePtxVersion("6.0"), (PtxVersion{6, 0}));
  EXPECT_EQ(*ParsePtxVersion("7.8"), (PtxVersion{7, 8}));
  EXPECT_EQ(*ParsePtxVersion("9.0"), (PtxVersion{9, 0}));
  EXPECT_EQ(*ParsePtxVersion("9.4"), (PtxVersion{9, 4}));
  EXPECT_EQ(*ParsePtxVersion("9.5"), (PtxVersion{9, 5}));
}

TEST(PtxVersionTest, RejectsMalformedText) {
  auto version = ParsePtxVersion("nine");
  ASSERT_EQ(version.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(version.status().message(), HasSubstr("malformed PTX ISA version"));
  EXPECT_EQ(ParsePtxVersionNumbers("9.-1").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(PtxVersionTest, RejectsUnreleasedVersionsNamingTheNewestAndHowToAddOne) {
  // 6.6 through 6.9 were never released: 6.5 was followed by 7.0.
  auto version = ParsePtxVersion("6.9");
  ASSERT_EQ(version.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(version.status().message(), HasSubstr("unknown PTX ISA version '6.9'"));
  auto future = ParsePtxVersion("9.6");
  ASSERT_EQ(future.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(future.status().message(), HasSubstr("to 9.5"));
  EXPECT_THAT(future.status().message(), HasSubstr("docs/adding-a-ptx-version.md"));
  // What a compiler says it speaks may be newer than the table.
  EXPECT_EQ(*ParsePtxVersionNumbers("9.6"), (PtxVersion{9, 6}));
}

TEST(PtxVersionTest, OrdersByRelease) {
  EXPECT_LT((PtxVersion{6, 5}), (PtxVersion{7, 0}));
  EXPECT_LT((PtxVersion{8, 8}), (PtxVersion{9, 0}));
  EXPECT_EQ(NewestPtxVersion(), (PtxVersion{9, 5}));
  // Copied by hand from the PTX release history: 6.0-6.5, 7.0-7.8, 8.0-8.8, 9.0-9.5.
  EXPECT_EQ(AllPtxVersions().size(), 6u + 9u + 9u + 6u);
  EXPECT_TRUE(std::is_sorted(AllPtxVersions().begin(), AllPtxVersions().end()));
}

TEST(PtxVersionTest, NamesTheNewestVersionACudaReleaseSpeaks) {
  // Measured: each ptxas's "current version is 'X.Y'" (11.8.89 to 13.5.37).
  EXPECT_EQ(NewestPtxVersionOf({11, 8}), (PtxVersion{7, 8}));
  EXPECT_EQ(NewestPtxVersionOf({12, 6}), (PtxVersion{8, 5}));
  EXPECT_EQ(NewestPtxVersionOf({12, 8}), (PtxVersion{8, 7}));
  EXPECT_EQ(NewestPtxVersionOf({13, 0}), (PtxVersion{9, 0}));
  EXPECT_EQ(NewestPtxVersionOf({13, 4}), (PtxVersion{9, 4}));
  EXPECT_EQ(NewestPtxVersionOf({13, 5}), (PtxVersion{9, 5}));
  // A release newer than the table speaks at least the newest version.
  EXPECT_EQ(NewestPtxVersionOf({13, 6}), (PtxVersion{9, 5}));
  EXPECT_EQ(NewestPtxVersionOf({8, 0}), std::nullopt);
}

}  // namespace
}  // namespace matload
