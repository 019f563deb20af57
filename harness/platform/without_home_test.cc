#include "harness/platform/without_home.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(WithoutHomeTest, WritesPathsUnderHomeWithATilde) {
  ASSERT_EQ(setenv("HOME", "/home/alice", 1), 0);
  EXPECT_EQ(WithoutHome("/home/alice/.cache/matload/cuda-12.9.86/ptxas"), "~/.cache/matload/cuda-12.9.86/ptxas");
  EXPECT_EQ(WithoutHome("matload support --ptxas /usr/local/cuda/bin/ptxas,/home/alice/.cache/p --out=/home/alice/r"),
            "matload support --ptxas /usr/local/cuda/bin/ptxas,~/.cache/p --out=~/r");
}

TEST(WithoutHomeTest, LeavesOtherPathsAlone) {
  ASSERT_EQ(setenv("HOME", "/home/alice/", 1), 0);
  EXPECT_EQ(WithoutHome("/usr/local/cuda/bin/ptxas"), "/usr/local/cuda/bin/ptxas");
  EXPECT_EQ(WithoutHome("/srv/home/alice/ptxas"), "/srv/home/alice/ptxas");
  EXPECT_EQ(WithoutHome("/home/alicea/ptxas"), "/home/alicea/ptxas");
  ASSERT_EQ(setenv("HOME", "/", 1), 0);
  EXPECT_EQ(WithoutHome("/usr/bin/ptxas"), "/usr/bin/ptxas");
}

}  // namespace
}  // namespace matload
