#include "harness/conform/in_order_judging.h"

#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;

ItemResult Done(std::string output) { return {.kind = ItemResult::Kind::kDone, .output = std::move(output)}; }

TEST(InOrderJudgingTest, JudgesEachItemWhenItsTurnComes) {
  std::vector<size_t> judged;
  InOrderJudging judging(3, [&](size_t index, const ItemResult&) {
    judged.push_back(index);
    return absl::OkStatus();
  });
  judging.Arrive(1, Done("b"));
  EXPECT_TRUE(judged.empty()) << "item 0 has not arrived";
  judging.Arrive(0, Done("a"));
  EXPECT_THAT(judged, ElementsAre(0, 1)) << "judged as soon as it could be, before the wave ends";
  judging.Arrive(2, Done("c"));
  EXPECT_THAT(judged, ElementsAre(0, 1, 2));
  EXPECT_TRUE(judging.Finish().ok());
}

TEST(InOrderJudgingTest, FinishJudgesWhatArrivedBehindAnItemThatNeverRan) {
  std::vector<std::string> judged;
  InOrderJudging judging(4, [&](size_t, const ItemResult& result) {
    judged.push_back(result.output);
    return absl::OkStatus();
  });
  judging.Arrive(0, Done("a"));
  judging.Arrive(2, Done("c"));
  judging.Arrive(3, Done("d"));
  EXPECT_THAT(judged, ElementsAre("a"));
  EXPECT_TRUE(judging.Finish().ok());
  EXPECT_THAT(judged, ElementsAre("a", "c", "d"));
}

TEST(InOrderJudgingTest, AnErrorStopsTheJudging) {
  std::vector<size_t> judged;
  InOrderJudging judging(3, [&](size_t index, const ItemResult&) {
    judged.push_back(index);
    return index == 1 ? absl::DataLossError("the store failed") : absl::OkStatus();
  });
  for (size_t index : {0, 1, 2}) judging.Arrive(index, Done("x"));
  EXPECT_THAT(judged, ElementsAre(0, 1));
  EXPECT_EQ(judging.Finish().code(), absl::StatusCode::kDataLoss);
}

TEST(InOrderJudgingTest, ResultsFromManyThreadsAreJudgedInOrder) {
  constexpr size_t kThreads = 4;
  constexpr size_t kItems = 400;
  std::vector<size_t> judged;
  InOrderJudging judging(kItems, [&](size_t index, const ItemResult&) {
    judged.push_back(index);
    return absl::OkStatus();
  });
  std::vector<std::thread> threads;
  for (size_t round = 0; round < kThreads; ++round) {
    threads.emplace_back([&, round] {
      for (size_t index = round; index < kItems; index += kThreads) judging.Arrive(index, Done("x"));
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_TRUE(judging.Finish().ok());
  ASSERT_EQ(judged.size(), kItems);
  for (size_t index = 0; index < kItems; ++index) EXPECT_EQ(judged[index], index);
}

}  // namespace
}  // namespace matload
