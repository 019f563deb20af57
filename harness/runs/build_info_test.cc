#include "harness/runs/build_info.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(BuildInfoTest, AShortCommitKeepsItsDirtyMark) {
  EXPECT_EQ(ShortCommit("8ff58aafddbf2ad004114e2984378bcae1dee8e6"), "8ff58aafddbf");
  EXPECT_EQ(ShortCommit("8ff58aafddbf2ad004114e2984378bcae1dee8e6-dirty"), "8ff58aafddbf-dirty");
  EXPECT_EQ(ShortCommit("unknown"), "unknown");
}

TEST(BuildInfoTest, TheVersionNamesThisBinarysShortCommit) {
  EXPECT_TRUE(absl::StrContains(MatloadVersion(), ShortCommit(GitCommit()))) << MatloadVersion();
}

}  // namespace
}  // namespace matload
