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
}

TEST(PtxVersionTest, RejectsMalformedText) {
  auto version = ParsePtxVersion("nine");
  ASSERT_EQ(version.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(version.status().message(), HasSubstr("malformed PTX ISA version"));
}

TEST(PtxVersionTest, RejectsUnreleasedVersions) {
  // 6.6 through 6.9 were never released: 6.5 was followed by 7.0.
  auto version = ParsePtxVersion("6.9");
  ASSERT_EQ(version.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(version.status().message(), HasSubstr("unknown PTX ISA version '6.9'"));
}

TEST(PtxVersionTest, OrdersByRelease) {
  EXPECT_LT((PtxVersion{6, 5}), (PtxVersion{7, 0}));
  EXPECT_LT((PtxVersion{8, 8}), (PtxVersion{9, 0}));
  EXPECT_EQ(NewestPtxVersion(), (PtxVersion{9, 0}));
  // Copied by hand from the PTX release table: 6.0-6.5, 7.0-7.8, 8.0-8.8, 9.0.
  EXPECT_EQ(AllPtxVersions().size(), 6u + 9u + 9u + 1u);
}

}  // namespace
}  // namespace matload
