#include "harness/runs/night_runs.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

std::vector<std::string> Ids(const std::vector<RunRecord>& runs) {
  std::vector<std::string> ids;
  for (const RunRecord& run : runs) ids.push_back(run.id);
  return ids;
}

TEST(NightRunsTest, AMergedNightIsItsMergedRunAndAnUnmergedOneItsShards) {
  const std::vector<RunRecord> runs = {
      {.id = "monday"},
      {.id = "tuesday-1", .parent = "tuesday", .shard = "1/2"},
      {.id = "tuesday-2", .parent = "tuesday", .shard = "2/2"},
      {.id = "tuesday", .parent = "tuesday"},  // matload merge joined them
      {.id = "wednesday-1", .parent = "wednesday", .shard = "1/2"},
  };
  EXPECT_THAT(Ids(NightRuns(runs)), ::testing::ElementsAre("monday", "tuesday", "wednesday-1"));
}

}  // namespace
}  // namespace matload
