#include "harness/runs/shard_merge.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/runs/results_store.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ShardMergeTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }

  // Store is the path of results store `name` in this test's directory.
  std::string Store(const std::string& name) const { return (root_ / name).string(); }

  // AddShard records run `id`, shard `shard` of `parent`, in store `store`,
  // with `cases` and `artifacts`, ended with `status`.
  void AddShard(const std::string& store, const std::string& id, const std::string& shard,
                const std::vector<CaseRecord>& cases, const std::map<std::string, std::string>& artifacts = {},
                const std::string& status = "clean", const std::string& parent = "support-nightly") const {
    ResultsStore opened = *ResultsStore::Open(store);
    RunRecord run{.id = id,
                  .command = "support",
                  .command_line = absl::StrCat("matload support --shard ", shard),
                  .matload_version = "0.5 Release",
                  .git_commit = "abc",
                  .toolkits = "ptxas 13.0.88",
                  .host = absl::StrCat("node-", id),
                  .options = R"({"ptx":"9.0"})",
                  .parent = parent,
                  .shard = shard,
                  .status = status,
                  .exit_status = status == "findings" ? 1 : 0};
    ASSERT_TRUE(opened.CreateRun(run).ok());
    ASSERT_TRUE(opened.Commit(id, cases, artifacts).ok());
  }

  // ExpectRefused expects merging `references` in `stores` to fail with
  // `code` and a message holding `message`.
  void ExpectRefused(const std::vector<std::string>& stores, const std::vector<std::string>& references,
                     absl::StatusCode code, const std::string& message) const {
    absl::StatusOr<std::vector<ShardRun>> shards = ReadShardRuns(stores, references);
    const absl::Status status = shards.ok() ? MergeShardRuns(*shards).status() : shards.status();
    EXPECT_EQ(status.code(), code) << status;
    EXPECT_THAT(status.message(), HasSubstr(message));
  }

  std::filesystem::path root_;
};

TEST_F(ShardMergeTest, ShardsInSeveralStoresJoinIntoTheWholeRun) {
  AddShard(Store("a.sqlite"), "s0", "0/3", {{.id = "sm_90.b", .outcome = CaseOutcome::kPass}},
           {{"support/sm_90", "90"}, {"support/compilers", "same"}});
  AddShard(Store("a.sqlite"), "s2", "2/3", {}, {{"support/compilers", "same"}, {"progress", "two"}});
  AddShard(Store("b.sqlite"), "s1", "1/3",
           {{.id = "sm_80.a", .outcome = CaseOutcome::kLegalRejected, .finding = true},
            {.id = "sm_80.c", .outcome = CaseOutcome::kPass}},
           {{"support/sm_80", "80"}, {"support/compilers", "same"}, {"progress", "one"}}, "findings");
  const std::vector<ShardRun> shards = *ReadShardRuns({Store("a.sqlite"), Store("b.sqlite")}, {"support-nightly"});
  ASSERT_EQ(shards.size(), 3u);
  const MergedRun merged = *MergeShardRuns(shards);
  EXPECT_EQ(merged.parent, "support-nightly");
  std::vector<std::string> ids;
  for (const CaseRecord& record : merged.cases) ids.push_back(record.id);
  EXPECT_THAT(ids, ElementsAre("sm_80.a", "sm_80.c", "sm_90.b"));
  EXPECT_TRUE(merged.cases[0].finding);
  EXPECT_EQ(merged.artifacts, (std::map<std::string, std::string>{
                                  {"support/compilers", "same"}, {"support/sm_80", "80"}, {"support/sm_90", "90"}}));
  EXPECT_THAT(merged.dropped_artifacts, ElementsAre("progress"));
  EXPECT_EQ(merged.exit_status, 1);
  EXPECT_EQ(merged.run.options, R"({"ptx":"9.0"})");
  EXPECT_EQ(merged.run.toolkits, "ptxas 13.0.88");
  EXPECT_EQ(merged.run.host, "node-s0, node-s2, node-s1");
  EXPECT_TRUE(merged.run.id.empty());
  EXPECT_TRUE(merged.run.shard.empty());
}

TEST_F(ShardMergeTest, RunIdsAndAStoreNamedTwiceAreOneRun) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {{.id = "sm_90.b", .outcome = CaseOutcome::kPass}});
  AddShard(Store("a.sqlite"), "s1", "1/2", {});
  const std::vector<ShardRun> shards =
      *ReadShardRuns({Store("a.sqlite"), (root_ / "." / "a.sqlite").string()}, {"s0", "support-nightly", "s1"});
  EXPECT_EQ(shards.size(), 2u);
  EXPECT_EQ(MergeShardRuns(shards)->exit_status, 0);
}

TEST_F(ShardMergeTest, MissingShardsAreNamed) {
  AddShard(Store("a.sqlite"), "s1", "1/4", {});
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kInvalidArgument,
                "shards 0, 2, 3 of the 4 of support-nightly are missing");
}

TEST_F(ShardMergeTest, ADuplicateShardIsRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "s1", "1/2", {});
  AddShard(Store("a.sqlite"), "s1-again", "1/2", {});
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kInvalidArgument,
                "shard 1/2 of support-nightly is given twice: run s1 (in");
}

TEST_F(ShardMergeTest, AnUnfinishedShardIsRefusedWithHowToResumeIt) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "s1", "1/2", {}, {}, "interrupted");
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kFailedPrecondition,
                "has not finished (interrupted): resume it (matload support --resume s1 --shard 1/2 --parent nightly)");
}

// A shard killed before it knew its toolchain is unfinished, not one of
// another build: before, its empty toolkits made the merge say the shards
// "differ in their toolkits".
TEST_F(ShardMergeTest, AShardKilledEarlyIsRefusedAsUnfinished) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "s1", "1/2", {}, {}, "running");
  ResultsStore store = *ResultsStore::Open(Store("a.sqlite"));
  RunRecord killed = *store.FindRun("s1");
  killed.toolkits = "";
  killed.exit_status = -1;
  ASSERT_TRUE(store.UpdateRun(killed).ok());
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kFailedPrecondition,
                "shard 1/2 of support-nightly, run s1 (in");
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kFailedPrecondition,
                "has not finished (running): resume it (matload support --resume s1 --shard 1/2 --parent nightly)");
}

TEST_F(ShardMergeTest, ShardsOfDifferentParentsAreRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "t1", "1/2", {}, {}, "clean", "support-other");
  ExpectRefused({Store("a.sqlite")}, {"s0", "t1"}, absl::StatusCode::kInvalidArgument,
                "is a shard of support-nightly and run t1 (in");
}

TEST_F(ShardMergeTest, WholeRunsSplitsAndOtherBuildsAreRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "whole", "", {});
  ExpectRefused({Store("a.sqlite")}, {"s0", "whole"}, absl::StatusCode::kInvalidArgument, "is not a shard");
  AddShard(Store("a.sqlite"), "s1-of-3", "1/3", {});
  ExpectRefused({Store("a.sqlite")}, {"s0", "s1-of-3"}, absl::StatusCode::kInvalidArgument, "were split 2 and 3 ways");
  AddShard(Store("b.sqlite"), "s1", "1/2", {});
  ResultsStore b = *ResultsStore::Open(Store("b.sqlite"));
  RunRecord other = *b.FindRun("s1");
  other.toolkits = "ptxas 12.9.86";
  ASSERT_TRUE(b.UpdateRun(other).ok());
  ExpectRefused({Store("a.sqlite"), Store("b.sqlite")}, {"s0", "s1"}, absl::StatusCode::kInvalidArgument,
                "differ in their toolkits");
}

// Shards judged by two discrepancy registries (--registry on one node, the
// built-in one on another) are not one run.
TEST_F(ShardMergeTest, ShardsJudgedByDifferentRegistriesAreRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {});
  AddShard(Store("a.sqlite"), "s1", "1/2", {});
  ResultsStore store = *ResultsStore::Open(Store("a.sqlite"));
  RunRecord other = *store.FindRun("s1");
  other.registry_digest = std::string(64, 'b');
  ASSERT_TRUE(store.UpdateRun(other).ok());
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kInvalidArgument,
                "differ in their discrepancy registry (SHA-256)");
}

TEST_F(ShardMergeTest, ACaseInTwoShardsIsRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/2", {{.id = "sm_90.b", .outcome = CaseOutcome::kPass}});
  AddShard(Store("a.sqlite"), "s1", "1/2", {{.id = "sm_90.b", .outcome = CaseOutcome::kPass}});
  ExpectRefused({Store("a.sqlite")}, {"support-nightly"}, absl::StatusCode::kInvalidArgument,
                "case sm_90.b is in two shards");
}

TEST_F(ShardMergeTest, UnknownNamesAndARunInTwoStoresAreRefused) {
  AddShard(Store("a.sqlite"), "s0", "0/1", {});
  ExpectRefused({Store("a.sqlite")}, {"support-nightly", "support-typo"}, absl::StatusCode::kNotFound,
                "no run and no parent of shards named 'support-typo'");
  std::filesystem::copy_file(Store("a.sqlite"), Store("copy.sqlite"));
  ExpectRefused({Store("a.sqlite"), Store("copy.sqlite")}, {"s0"}, absl::StatusCode::kInvalidArgument, "is in both");
  ExpectRefused({Store("missing.sqlite")}, {"s0"}, absl::StatusCode::kFailedPrecondition, "no results database");
}

}  // namespace
}  // namespace matload
