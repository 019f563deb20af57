#include "harness/families/thread_window.h"

#include <thread>

#include "gtest/gtest.h"

namespace matload {
namespace {

// A thread gets back the bytes it left, unallocated anew; another thread
// has a window of its own.
TEST(ThreadWindowTest, AThreadKeepsItsWindowAndOthersHaveTheirOwn) {
  const std::uint8_t* first = nullptr;
  {
    std::vector<std::uint8_t> space;
    const ThreadWindow window(space, 4096);
    ASSERT_EQ(space.size(), 4096u);
    space[100] = 7;
    first = space.data();
  }
  std::vector<std::uint8_t> space;
  {
    const ThreadWindow window(space, 4096);
    EXPECT_EQ(space.data(), first);
    EXPECT_EQ(space[100], 7);
  }
  std::thread([] {
    std::vector<std::uint8_t> theirs;
    const ThreadWindow window(theirs, 4096);
    EXPECT_EQ(theirs[100], 0);
  }).join();
}

}  // namespace
}  // namespace matload
