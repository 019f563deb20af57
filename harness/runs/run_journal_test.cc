#include "harness/runs/run_journal.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

class RunJournalTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  RunStart Start(const std::string& out, const std::string& resume = "") const {
    return {.command = "support",
            .command_line = "matload support",
            .options = "{\"ptx\":\"9.0\"}",
            .out = out,
            .resume = resume,
            .db = (root_ / "results.sqlite").string()};
  }
  std::filesystem::path root_;
};

TEST_F(RunJournalTest, NewRunGetsAnIdADirectoryAndAStoredRecord) {
  std::unique_ptr<RunJournal> journal = *RunJournal::Start(Start((root_ / "run").string()));
  EXPECT_THAT(journal->run().id, testing::StartsWith("support-"));
  EXPECT_TRUE(std::filesystem::is_directory(root_ / "run"));
  EXPECT_FALSE(journal->resumed());
  ASSERT_TRUE(journal->Record({{.id = "sm_90.a", .outcome = CaseOutcome::kPass}}, {{"k", "v"}}).ok());
  EXPECT_TRUE(journal->Recorded("sm_90.a"));
  ASSERT_TRUE(journal->Finish(1).ok());
  ResultsStore store = *ResultsStore::Open(root_ / "results.sqlite");
  const RunRecord run = *store.FindRun(journal->run().id);
  EXPECT_EQ(run.status, "findings");
  EXPECT_EQ(run.exit_status, 1);
  EXPECT_EQ(run.options, "{\"ptx\":\"9.0\"}");
  EXPECT_EQ(*store.Artifact(run.id, "k"), std::optional<std::string>("v"));
}

// A run whose -wal and -shm files were deleted while it wrote (the writes
// live in the -wal until a checkpoint) is gone for every other reader,
// though its own connection still reads it: Finish reads the run back
// afresh and says so, kDataLoss (exit 4). Before, conform exited 1 with its
// results printed and the run was silently gone (the second attack on
// issue 34, D4).
TEST_F(RunJournalTest, ARunLostFromTheStoreWhileItRanIsDataLoss) {
  std::unique_ptr<RunJournal> journal = *RunJournal::Start(Start((root_ / "run").string()));
  ASSERT_TRUE(journal->Record({{.id = "sm_90.a", .outcome = CaseOutcome::kPass}}).ok());
  std::filesystem::remove(root_ / "results.sqlite-wal");
  std::filesystem::remove(root_ / "results.sqlite-shm");
  const absl::Status finished = journal->Finish(1);
  EXPECT_EQ(finished.code(), absl::StatusCode::kDataLoss) << finished;
  EXPECT_THAT(finished.message(), HasSubstr("as it was written"));
}

TEST_F(RunJournalTest, ANonEmptyOutIsNeverWrittenOver) {
  std::filesystem::create_directories(root_ / "published");
  std::ofstream(root_ / "published" / "support.md") << "published";
  const absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(Start((root_ / "published").string()));
  EXPECT_EQ(journal.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(journal.status().message(), HasSubstr("is not empty"));
  std::ifstream kept(root_ / "published" / "support.md");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "published");
}

// Two runs asked for one new directory: the first claims it (its marker
// holds its ID), the second is refused.
TEST_F(RunJournalTest, OneDirectoryTakesOneRun) {
  std::unique_ptr<RunJournal> first = *RunJournal::Start(Start((root_ / "run").string()));
  EXPECT_EQ(RunJournal::Start(Start((root_ / "run").string())).status().code(), absl::StatusCode::kFailedPrecondition);
  std::ifstream marker(root_ / "run" / ".matload-run");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(marker), {}), first->run().id + "\n");
}

// The run directory is stored absolute, so that a run resumes from any
// working directory.
TEST_F(RunJournalTest, TheDirectoryIsStoredAbsolute) {
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(root_);
  std::unique_ptr<RunJournal> journal = *RunJournal::Start(Start("relative/"));
  std::filesystem::current_path(was);
  EXPECT_EQ(journal->directory(), (root_ / "relative").string());
}

TEST_F(RunJournalTest, AResumedRunKeepsItsCasesAndNeedsItsOptions) {
  std::string id;
  {
    std::unique_ptr<RunJournal> journal = *RunJournal::Start(Start((root_ / "run").string()));
    id = journal->run().id;
    ASSERT_TRUE(journal->Record({{.id = "sm_90.a", .outcome = CaseOutcome::kPass}}).ok());
    // No Finish: as if the process died. (The claim is this process's own,
    // which it may take again; a live other process is refused: results_store_test.)
  }
  RunStart other = Start("", id);
  other.options = "{\"ptx\":\"8.8\"}";
  EXPECT_EQ(RunJournal::Start(other).status().code(), absl::StatusCode::kFailedPrecondition);
  std::unique_ptr<RunJournal> resumed = *RunJournal::Start(Start("", id));
  EXPECT_TRUE(resumed->resumed());
  EXPECT_TRUE(resumed->Recorded("sm_90.a"));
  EXPECT_EQ(resumed->directory(), (root_ / "run").string());
  ASSERT_TRUE(resumed->Finish(0).ok());
  const absl::StatusOr<std::unique_ptr<RunJournal>> again = RunJournal::Start(Start("", id));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(again.status().message(), HasSubstr("nothing to resume"));
}

// A run's cases, whether kept by the journal (a new run) or read back (a
// resumed one), are the store's: in byte order, a case recorded again
// replaced, and a batch the store refused not among them.
TEST_F(RunJournalTest, CasesAreTheStoresInIdOrder) {
  std::string id;
  const std::vector<CaseRecord> first = {{.id = "sm_90.b", .outcome = CaseOutcome::kPass},
                                         {.id = "sm_90.é", .outcome = CaseOutcome::kPass, .detail = "x"},
                                         {.id = "sm_90.a",
                                          .outcome = CaseOutcome::kFlake,
                                          .counts = {{CaseOutcome::kPass, 2}},
                                          .attempts = {CaseOutcome::kPass, CaseOutcome::kMismatch}}};
  const std::vector<CaseRecord> second = {{.id = "sm_90.B", .outcome = CaseOutcome::kPass, .seconds = 0.25},
                                          {.id = "sm_90.b", .outcome = CaseOutcome::kLegalRejected, .finding = true}};
  const std::vector<CaseRecord> third = {{.id = "sm_90.c", .outcome = CaseOutcome::kPass},
                                         {.id = "sm_90.a", .outcome = CaseOutcome::kPass},
                                         {.id = "sm_90.c", .outcome = CaseOutcome::kIllegalAccepted}};
  const std::vector<CaseRecord> expected = {second[0], third[1], second[1], third[2], first[1]};
  {
    std::unique_ptr<RunJournal> journal = *RunJournal::Start(Start((root_ / "run").string()));
    id = journal->run().id;
    ASSERT_TRUE(journal->Record(first).ok());
    ASSERT_TRUE(journal->Record(second).ok());
    ASSERT_TRUE(journal->Record(third).ok());
    EXPECT_FALSE(journal
                     ->Record({{.id = "sm_90.e", .outcome = CaseOutcome::kPass},
                               {.id = "sm_90.d", .counts = {{CaseOutcome::kUnjudged, 1}}}})
                     .ok());
    EXPECT_EQ(*journal->Cases(), expected);
    EXPECT_EQ(*ResultsStore::Open(root_ / "results.sqlite")->Cases(id), expected);
    EXPECT_TRUE(journal->Recorded("sm_90.c"));
    EXPECT_FALSE(journal->Recorded("sm_90.e"));
    ASSERT_TRUE(journal->Record({{.id = "sm_90.f", .outcome = CaseOutcome::kPass}}).ok());
    EXPECT_TRUE(journal->Recorded("sm_90.f"));
    ASSERT_TRUE(journal->Record({{.id = "sm_90.f", .outcome = CaseOutcome::kMismatch}}).ok());
    EXPECT_EQ(journal->Cases()->at(expected.size() - 1),
              (CaseRecord{.id = "sm_90.f", .outcome = CaseOutcome::kMismatch}));
    ASSERT_TRUE(journal->Record({{.id = "sm_90.f", .outcome = CaseOutcome::kPass}}).ok());
  }
  std::unique_ptr<RunJournal> resumed = *RunJournal::Start(Start("", id));
  EXPECT_TRUE(resumed->Recorded("sm_90.f"));
  ASSERT_TRUE(resumed->Record({{.id = "sm_90.0", .outcome = CaseOutcome::kPass}}).ok());
  EXPECT_TRUE(resumed->Recorded("sm_90.0"));
  std::vector<CaseRecord> all = expected;
  all.insert(all.begin(), {.id = "sm_90.0", .outcome = CaseOutcome::kPass});
  all.insert(all.end() - 1, {.id = "sm_90.f", .outcome = CaseOutcome::kPass});  // before "sm_90.é"
  EXPECT_EQ(*resumed->Cases(), all);
}

TEST_F(RunJournalTest, AShardIsStoredWithItsParentAndResumedOnlyAsThatShard) {
  RunStart shard = Start((root_ / "shard").string());
  shard.shard = Shard{.index = 1, .count = 4};
  shard.parent = "support-nightly";
  const std::string id = (*RunJournal::Start(shard))->run().id;
  ResultsStore store = *ResultsStore::Open(root_ / "results.sqlite");
  const RunRecord run = *store.FindRun(id);
  EXPECT_EQ(run.shard, "1/4");
  EXPECT_EQ(run.parent, "support-nightly");
  for (const std::optional<Shard>& other : {std::optional<Shard>(), std::optional<Shard>(Shard{2, 4})}) {
    RunStart resume = Start("", id);
    resume.shard = other;
    resume.parent = "support-nightly";
    const absl::StatusOr<std::unique_ptr<RunJournal>> refused = RunJournal::Start(resume);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(refused.status().message(), HasSubstr("is shard 1/4 of support-nightly; resume it as it was started "
                                                      "(--shard 1/4 --parent nightly)"));
  }
  RunStart resume = Start("", id);
  resume.shard = shard.shard;
  resume.parent = shard.parent;
  EXPECT_TRUE((*RunJournal::Start(resume))->resumed());
}

TEST_F(RunJournalTest, UnknownRunsAndOtherCommandsAreRefused) {
  EXPECT_EQ(RunJournal::Start(Start("", "support-19700101T000000Z-00000000")).status().code(),
            absl::StatusCode::kNotFound);
  const std::string id = (*RunJournal::Start(Start((root_ / "run").string())))->run().id;
  RunStart conform = Start("", id);
  conform.command = "conform";
  EXPECT_EQ(RunJournal::Start(conform).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(RunStatusWordTest, FollowsTheExitStatuses) {
  EXPECT_EQ(RunStatusWord(0), "clean");
  EXPECT_EQ(RunStatusWord(1), "findings");
  EXPECT_EQ(RunStatusWord(4), "infrastructure");
  EXPECT_EQ(RunStatusWord(143), "interrupted");
}

TEST(HowItEndedTest, SaysWhyARunDidNotFinish) {
  const RunRecord no_gpu{.host = "gpu-17", .status = "compile-only", .exit_status = 3};
  EXPECT_EQ(HowItEnded(no_gpu), "found no usable GPU (exit 3): matload was compile-only on gpu-17");
  const RunRecord interrupted{.status = "interrupted", .exit_status = 143};
  EXPECT_EQ(HowItEnded(interrupted), "was interrupted by signal 15 (exit 143); --resume finishes it");
  const RunRecord lost{.directory = "/runs/c", .status = "infrastructure", .exit_status = 4};
  EXPECT_THAT(HowItEnded(lost), HasSubstr("could not judge everything (exit 4): the GPU, a compiler, a worker or the "
                                          "disk failed; the summary in /runs/c says which"));
  EXPECT_THAT(HowItEnded(RunRecord{}), HasSubstr("is still running, or was killed"));
  EXPECT_EQ(HowItEnded(RunRecord{.status = "clean", .exit_status = 0}), "ended clean (exit 0)");
}

}  // namespace
}  // namespace matload
