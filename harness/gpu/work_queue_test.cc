#include "harness/gpu/work_queue.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(WorkQueueTest, HandsOutEveryItemInOrderThenNothing) {
  WorkQueue queue(3);
  EXPECT_FALSE(queue.Drained());
  EXPECT_EQ(queue.Take(), 0);
  EXPECT_EQ(queue.Take(), 1);
  EXPECT_EQ(queue.Take(), 2);
  EXPECT_TRUE(queue.Drained());
  EXPECT_EQ(queue.Take(), std::nullopt);
  EXPECT_TRUE(queue.stopped().ok());
}

// Workers on threads of their own take each item exactly once between them.
TEST(WorkQueueTest, TakersOnSeveralThreadsTakeEachItemOnce) {
  constexpr int kItems = 10000;
  WorkQueue queue(kItems);
  std::vector<std::vector<int>> taken(4);
  std::vector<std::thread> takers;
  for (std::vector<int>& mine : taken) {
    takers.emplace_back([&queue, &mine] {
      while (std::optional<int> item = queue.Take()) mine.push_back(*item);
    });
  }
  for (std::thread& taker : takers) taker.join();
  std::vector<int> all;
  for (const std::vector<int>& mine : taken) {
    EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end())) << "a taker's items come in the queue's order";
    all.insert(all.end(), mine.begin(), mine.end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), size_t{kItems});
  for (int item = 0; item < kItems; ++item) EXPECT_EQ(all[item], item);
}

// A stopped queue hands out nothing more and keeps the first reason.
TEST(WorkQueueTest, AStoppedQueueHandsOutNothingAndKeepsWhy) {
  WorkQueue queue(3);
  EXPECT_EQ(queue.Take(), 0);
  queue.Stop(absl::CancelledError("interrupted by SIGTERM"));
  queue.Stop(absl::CancelledError("interrupted by SIGINT"));
  EXPECT_TRUE(queue.Drained());
  EXPECT_EQ(queue.Take(), std::nullopt);
  EXPECT_EQ(queue.stopped().message(), "interrupted by SIGTERM");
}

}  // namespace
}  // namespace matload
