#include "harness/support/toolkit_comparison.h"

#include <cstdlib>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The comparison prints the command that made it, with a ptxas fetched
// under the home directory written from "~".
TEST(ToolkitComparisonTest, PrintsTheCommandWithoutTheHomeDirectory) {
  ASSERT_EQ(setenv("HOME", "/home/alice", 1), 0);
  const SupportSweep sweep{
      .compiler = "ptxas 13.0.88", .ptx = {8, 8}, .targets = {"sm_90"}, .summaries = {{.target = "sm_90", .agree = 3}}};
  SupportSweep other = sweep;
  other.compiler = "ptxas 12.9.86";
  const std::string md = ToolkitComparisonMarkdown(
      {sweep, other}, "matload support --ptx 8.8 --ptxas /usr/local/cuda/bin/ptxas,/home/alice/.cache/matload/p",
      "2026-11-26");
  EXPECT_THAT(md, HasSubstr("`matload support --ptx 8.8 --ptxas /usr/local/cuda/bin/ptxas,~/.cache/matload/p`"));
  EXPECT_THAT(md, Not(HasSubstr("/home/alice")));
}

}  // namespace
}  // namespace matload
