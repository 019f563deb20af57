#include "harness/runs/stable_hash.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(StableHashTest, IsFnv1a) {
  // Published FNV-1a 32-bit test vectors.
  EXPECT_EQ(StableHash(""), 0x811c9dc5u);
  EXPECT_EQ(StableHash("a"), 0xe40c292cu);
  EXPECT_EQ(StableHash("foobar"), 0xbf9cf968u);
}

}  // namespace
}  // namespace matload
