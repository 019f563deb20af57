#include "harness/runs/retention.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// StoreRun is a run of `command` started on night `night` with `status`.
RunRecord StoreRun(std::string id, std::string command, int night, std::string status) {
  return {.id = std::move(id),
          .command = std::move(command),
          .started = absl::FromUnixSeconds(1'800'000'000 + 86'400 * night),
          .status = std::move(status)};
}

// Shard is shard `shard` of the run `parent`, started on night `night`.
RunRecord Shard(std::string id, std::string parent, std::string shard, int night) {
  RunRecord run = StoreRun(std::move(id), "conform", night, "clean");
  run.parent = std::move(parent);
  run.shard = std::move(shard);
  return run;
}

TEST(RetentionTest, KeepsTheNewestFinishedRunsOfEachCommand) {
  const std::vector<RunRecord> runs = {
      StoreRun("conform-1", "conform", 1, "clean"),    StoreRun("support-1", "support", 1, "clean"),
      StoreRun("conform-2", "conform", 2, "findings"), StoreRun("conform-3", "conform", 3, "clean"),
      StoreRun("support-2", "support", 2, "clean"),    StoreRun("conform-4", "conform", 4, "findings"),
  };
  EXPECT_THAT(RunsToPrune(runs, 2), ElementsAre("conform-1", "conform-2"));
  EXPECT_THAT(RunsToPrune(runs, 1), ElementsAre("conform-1", "support-1", "conform-2", "conform-3"));
  EXPECT_THAT(RunsToPrune(runs, 4), IsEmpty());
}

// A run that did not finish counts for nothing: it stays while it is newer
// than the oldest finished run kept (it may be resumed), and goes with the
// older ones. One still marked running is never pruned.
TEST(RetentionTest, UnfinishedRunsStayWhileTheyAreNewerAndRunningOnesAlways) {
  const std::vector<RunRecord> runs = {
      StoreRun("conform-1", "conform", 1, "interrupted"), StoreRun("conform-2", "conform", 2, "running"),
      StoreRun("conform-3", "conform", 3, "clean"),       StoreRun("conform-4", "conform", 4, "infrastructure"),
      StoreRun("conform-5", "conform", 5, "clean"),       StoreRun("conform-6", "conform", 6, "interrupted"),
  };
  EXPECT_THAT(RunsToPrune(runs, 1), ElementsAre("conform-1", "conform-3", "conform-4"));
  // Two finished runs, two kept: a command short of `keep` nights loses nothing.
  EXPECT_THAT(RunsToPrune(runs, 2), IsEmpty());
}

// Merged is a run matload merge joined from the shards of `parent`.
RunRecord Merged(std::string id, std::string parent, int night) {
  RunRecord run = StoreRun(std::move(id), "conform", night, "clean");
  run.parent = std::move(parent);
  return run;
}

// Shards go with their merged run, which has an ID of its own and their
// parent's name; shards with no merged run in the store (not merged yet,
// or into another store) stay. Shards do not count as finished runs.
TEST(RetentionTest, ShardsGoWithTheirMergedRun) {
  const std::vector<RunRecord> runs = {
      Shard("conform-a-0", "conform-a", "0/2", 1), Shard("conform-a-1", "conform-a", "1/2", 1),
      Merged("conform-m1", "conform-a", 1),        Shard("conform-b-0", "conform-b", "0/2", 2),
      Shard("conform-c-0", "conform-c", "0/2", 0), Merged("conform-m3", "conform-d", 3),
      Shard("conform-d-0", "conform-d", "0/1", 3),
  };
  EXPECT_THAT(RunsToPrune(runs, 1), ElementsAre("conform-a-0", "conform-a-1", "conform-m1"));
  EXPECT_THAT(RunsToPrune(runs, 2), IsEmpty());
}

// A sharded run merged twice (once more after a failed merge, say) keeps
// its shards while either merged run stays.
TEST(RetentionTest, ShardsStayWhileAnyOfTheirMergedRunsDoes) {
  const std::vector<RunRecord> runs = {
      Shard("conform-a-0", "conform-a", "0/1", 1),
      Merged("conform-m1", "conform-a", 1),
      StoreRun("conform-2", "conform", 2, "clean"),
      Merged("conform-m3", "conform-a", 3),
  };
  EXPECT_THAT(RunsToPrune(runs, 2), ElementsAre("conform-m1"));
  EXPECT_THAT(RunsToPrune(runs, 1), ElementsAre("conform-m1", "conform-2"));
}

}  // namespace
}  // namespace matload
