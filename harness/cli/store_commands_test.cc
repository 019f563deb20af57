#include "harness/cli/store_commands.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/cli/flags.h"
#include "harness/platform/exit_status.h"
#include "harness/runs/results_store.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// Cases of a run: one pass, one mismatch.
std::vector<CaseRecord> Tonight() {
  return {{.id = "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit", .outcome = CaseOutcome::kPass},
          {.id = "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit",
           .outcome = CaseOutcome::kMismatch,
           .finding = true}};
}

// Everything and Nothing are a run that should have every case, and one
// whose filter took none of the baseline's.
bool Everything(const std::string&) { return true; }
bool Nothing(const std::string&) { return false; }

// BaselineOf parses a baseline written by hand.
Baseline BaselineOf(const std::string& text) { return *ParseBaseline(text); }

TEST(BaselineExitStatusTest, ExpectedFailuresAreCleanAndRegressionsAreFindings) {
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(BaselineOf("ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n"), Tonight(),
                               Everything, false, out),
            kExitClean);
  EXPECT_THAT(out.str(), HasSubstr("baseline: 1 expected failures, 0 regressions, 0 fixed"));
  out.str("");
  EXPECT_EQ(BaselineExitStatus(BaselineOf("# none expected\n"), Tonight(), Everything, false, out), kExitFindings);
  EXPECT_THAT(out.str(), HasSubstr("regression: ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit"));
}

TEST(BaselineExitStatusTest, AFixedLineIsAnErrorOnlyWhenStrict) {
  const Baseline baseline = BaselineOf(
      "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit,mismatch\n"
      "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n");
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), Everything, false, out), kExitClean);
  EXPECT_THAT(out.str(), HasSubstr("fixed: ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), Everything, true, out), kExitFindings);
}

TEST(BaselineExitStatusTest, ALineNamingACaseTheRunShouldHaveIsAUsageError) {
  const Baseline baseline = BaselineOf(
      "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n"
      "ldmatrix.sync.aligned.m8n8.x9.b16.addr64.driver_jit,mismatch\n");
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), Everything, false, out), kExitUsage);
  EXPECT_THAT(out.str(),
              HasSubstr("names 1 cases this run should have and does not, first ldmatrix.sync.aligned.m8n8.x9"));
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), Nothing, false, out), kExitClean);
}

TEST(BaselineExitStatusTest, ListsFiftyCasesAndCountsTheRest) {
  std::vector<CaseRecord> cases;
  for (int i = 0; i < 60; ++i)
    cases.push_back({.id = absl::StrCat("case.", i), .outcome = CaseOutcome::kMismatch, .finding = true});
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(BaselineOf("# none expected\n"), cases, Nothing, false, out), kExitFindings);
  const std::string said = out.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 52);
  EXPECT_THAT(said, HasSubstr("  ... and 10 more (matload export or diff lists every case)\n"));
}

// COMMAND@latest names the newest run whatever its status, so that a
// night that was interrupted or found no GPU is never passed over for the
// night before: diff and baseline refuse it, export writes it and says
// so, each naming how it ended. COMMAND@latest-finished names the newest
// run that judged everything.
TEST(StoreCommandsTest, LatestIsTheNewestRunAndOneThatDidNotFinishIsRefused) {
  const std::string db = testing::TempDir() + "/store_commands_test_latest.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    int minute = 0;
    for (const auto& [status, exit_status] : {std::pair{"clean", 0}, std::pair{"findings", 1},
                                              std::pair{"interrupted", 143}, std::pair{"compile-only", 3}}) {
      const RunRecord run{.id = absl::StrCat("conform-", status),
                          .command = "conform",
                          .host = "gpu-17",
                          .started = absl::FromUnixSeconds(60 * ++minute),
                          .status = status,
                          .exit_status = exit_status};
      ASSERT_TRUE(store.CreateRun(run).ok());
      ASSERT_TRUE(store.AddCases(run.id, Tonight()).ok());
    }
  }
  absl::SetFlag(&FLAGS_db, db);
  const std::string csv = testing::TempDir() + "/store_commands_test_latest.csv";
  std::filesystem::remove(csv);
  absl::SetFlag(&FLAGS_out, csv);
  std::ostringstream out, err;
  EXPECT_EQ(RunBaselineCommand({"conform@latest"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("run conform-compile-only did not finish: it found no usable GPU (exit 3): matload "
                                   "was compile-only on gpu-17. No baseline is taken from it"));
  EXPECT_FALSE(std::filesystem::exists(csv));
  EXPECT_EQ(RunBaselineCommand({"conform@latest-finished"}, out, err), kExitClean) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("of run conform-findings"));
  EXPECT_EQ(RunDiffCommand({"conform@latest~1", "conform@latest-finished"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("run conform-interrupted did not finish: it was interrupted by signal 15"));
  out.str("");
  EXPECT_EQ(RunDiffCommand({"conform@latest-finished~1", "conform@latest-finished"}, out, err), kExitClean);
  EXPECT_THAT(out.str(), HasSubstr("A: conform-clean"));
  EXPECT_EQ(RunDiffCommand({"conform@latest~4", "conform@latest"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("holds 4 conform runs"));
  EXPECT_EQ(RunDiffCommand({"conform@latest-finished~2", "conform@latest"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("holds 2 finished conform runs"));
  EXPECT_EQ(RunDiffCommand({"conform@latest~+1", "conform@latest"}, out, err), kExitUsage);
  EXPECT_EQ(RunDiffCommand({"conform@newest", "conform@latest"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("give a run ID, COMMAND@latest[~N] or COMMAND@latest-finished[~N]"));
  // export writes tonight's run, then says it did not finish.
  const std::string exported = testing::TempDir() + "/store_commands_test_latest_export.csv";
  std::filesystem::remove(exported);
  absl::SetFlag(&FLAGS_csv, exported);
  EXPECT_EQ(RunExportCommand({"conform@latest"}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("run conform-compile-only did not finish"));
  EXPECT_TRUE(std::filesystem::exists(exported));
  EXPECT_EQ(RunExportCommand({"conform@latest-finished"}, out, err), kExitClean) << err.str();
  absl::SetFlag(&FLAGS_csv, "");
  absl::SetFlag(&FLAGS_db, "");
  absl::SetFlag(&FLAGS_out, "");
}

// prune keeps the newest finished runs of each command and every newer
// one, says what it deletes, deletes nothing with --dry_run, and without
// --keep is a usage error that deletes nothing either.
// prune gives the deleted runs' space back (the file shrinks: before, it
// never did), and with --remove_dirs removes each pruned run's directory,
// only where its .matload-run marker names the run: a directory that holds
// another run's marker, or none, is left as it was.
TEST(StoreCommandsTest, PruneShrinksTheFileAndRemovesOnlyThePrunedRunsOwnDirectories) {
  const std::filesystem::path root = std::filesystem::path(testing::TempDir()) / "store_commands_test_prune_space";
  std::filesystem::remove_all(root);
  const std::string db = (root / "results.sqlite").string();
  std::vector<std::filesystem::path> directories;
  {
    std::filesystem::create_directories(root);
    ResultsStore store = *ResultsStore::Open(db);
    std::vector<CaseRecord> many;
    for (int i = 0; i < 20000; ++i) {
      many.push_back(
          {.id = absl::StrCat("sm_90.case.", i), .outcome = CaseOutcome::kPass, .detail = std::string(40, 'x')});
    }
    for (int minute = 1; minute <= 4; ++minute) {
      const RunRecord run{.id = absl::StrCat("conform-", minute),
                          .command = "conform",
                          .directory = (root / absl::StrCat("run-", minute)).string(),
                          .started = absl::FromUnixSeconds(60 * minute),
                          .status = "clean"};
      ASSERT_TRUE(store.CreateRun(run).ok());
      ASSERT_TRUE(store.AddCases(run.id, many).ok());
      directories.push_back(run.directory);
      std::filesystem::create_directories(directories.back());
      std::ofstream(directories.back() / "results.tsv") << "results\n";
    }
  }
  // conform-1's directory is its own; conform-2's marker names another run;
  // conform-3's directory has no marker (someone's reused --out).
  std::ofstream(directories[0] / ".matload-run") << "conform-1\n";
  std::ofstream(directories[1] / ".matload-run") << "conform-9\n";
  const auto file_size = [&db] { return std::filesystem::file_size(db); };
  const std::uintmax_t before = file_size();
  absl::SetFlag(&FLAGS_db, db);
  absl::SetFlag(&FLAGS_keep, 1);
  absl::SetFlag(&FLAGS_remove_dirs, true);
  std::ostringstream out, err;
  EXPECT_EQ(RunPruneCommand({}, out, err), kExitClean) << err.str();
  absl::SetFlag(&FLAGS_remove_dirs, false);
  absl::SetFlag(&FLAGS_keep, 0);
  absl::SetFlag(&FLAGS_db, "");
  EXPECT_THAT(out.str(), HasSubstr("deleted 3 of 4 runs"));
  EXPECT_LT(file_size(), before / 2) << out.str();
  EXPECT_FALSE(std::filesystem::exists(directories[0])) << out.str();
  EXPECT_THAT(out.str(), HasSubstr(absl::StrCat("  removed ", directories[0].string(), "\n")));
  EXPECT_TRUE(std::filesystem::exists(directories[1] / "results.tsv"));
  EXPECT_THAT(out.str(), HasSubstr("its .matload-run does not name run conform-2"));
  EXPECT_TRUE(std::filesystem::exists(directories[2] / "results.tsv"));
  EXPECT_THAT(out.str(), HasSubstr("does not name run conform-3"));
  EXPECT_TRUE(std::filesystem::exists(directories[3] / "results.tsv"));  // kept
}

TEST(StoreCommandsTest, PruneKeepsTheNewestFinishedRunsAndSaysWhatItDeletes) {
  const std::string db = testing::TempDir() + "/store_commands_test_prune.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    int minute = 0;
    for (const auto& [command, status] :
         {std::pair{"conform", "clean"}, std::pair{"support", "clean"}, std::pair{"conform", "findings"},
          std::pair{"conform", "interrupted"}, std::pair{"conform", "clean"}, std::pair{"conform", "running"}}) {
      const RunRecord run{.id = absl::StrCat(command, "-", ++minute),
                          .command = command,
                          .started = absl::FromUnixSeconds(60 * minute),
                          .status = status};
      ASSERT_TRUE(store.CreateRun(run).ok());
      ASSERT_TRUE(store.AddCases(run.id, Tonight()).ok());
    }
  }
  absl::SetFlag(&FLAGS_db, db);
  const auto left = [&db] {
    std::vector<std::string> ids;
    absl::StatusOr<ResultsStore> store = ResultsStore::OpenReadOnly(db);
    const absl::StatusOr<std::vector<RunRecord>> runs = store->Runs();
    for (const RunRecord& run : *runs) ids.push_back(run.id);
    return ids;
  };
  const std::vector<std::string> all = left();
  std::ostringstream out, err;
  EXPECT_EQ(RunPruneCommand({}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("prune needs --keep N"));
  absl::SetFlag(&FLAGS_keep, 1);
  absl::SetFlag(&FLAGS_dry_run, true);
  EXPECT_EQ(RunPruneCommand({}, out, err), kExitClean) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("would delete conform-1\nwould delete conform-3\nwould delete conform-4\n"
                                   "would delete 3 of 6 runs"));
  EXPECT_EQ(left(), all);
  absl::SetFlag(&FLAGS_dry_run, false);
  out.str("");
  EXPECT_EQ(RunPruneCommand({}, out, err), kExitClean) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("deleted conform-1\ndeleted conform-3\ndeleted conform-4\ndeleted 3 of 6 runs"));
  EXPECT_EQ(left(), (std::vector<std::string>{"support-2", "conform-5", "conform-6"}));
  EXPECT_EQ(RunPruneCommand({}, out, err), kExitClean) << err.str();  // nothing more to delete
  EXPECT_EQ(left().size(), 3u);
  absl::SetFlag(&FLAGS_keep, 0);
  absl::SetFlag(&FLAGS_db, "");
}

// `runs` tells a run whose process was killed from one a live process is
// writing: both are marked running in the store. Before, both read
// "running".
TEST(StoreCommandsTest, RunsTellsADeadRunFromALiveOne) {
  const std::string db = testing::TempDir() + "/store_commands_test_dead_or_live.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    for (const char* id : {"conform-dead", "conform-live"})
      ASSERT_TRUE(store.CreateRun({.id = id, .command = "conform"}).ok());
  }
  // ClaimAndThen forks a child that claims run `id`, then stops (alive) or exits (dead).
  const auto claim_and_then = [&db](const char* id, bool stay) {
    const pid_t child = fork();
    if (child == 0) {
      const bool claimed = ResultsStore::Open(db)->ClaimRun(id).ok();
      if (stay) raise(SIGSTOP);
      _exit(claimed ? 0 : 1);
    }
    int status = 0;
    EXPECT_EQ(waitpid(child, &status, WUNTRACED), child);
    EXPECT_TRUE(stay ? WIFSTOPPED(status) : WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return child;
  };
  claim_and_then("conform-dead", false);
  const pid_t live = claim_and_then("conform-live", true);
  absl::SetFlag(&FLAGS_db, db);
  std::ostringstream out, err;
  EXPECT_EQ(RunRunsCommand({}, out, err), kExitClean) << err.str();
  EXPECT_THAT(out.str(), HasSubstr(absl::StrFormat("%-42s %-14s", "conform-dead", "killed")));
  EXPECT_THAT(out.str(), HasSubstr(absl::StrFormat("%-42s %-14s", "conform-live", "running")));
  absl::SetFlag(&FLAGS_db, "");
  kill(live, SIGKILL);
  waitpid(live, nullptr, 0);
}

// runs --html writes the index of the store's nights: a merged night once,
// each failing case with its first failing night. It replaces its own
// earlier index of the same store and no other file.
TEST(StoreCommandsTest, RunsWritesAnIndexAcrossNightsAndReplacesOnlyItsOwn) {
  const std::string db = testing::TempDir() + "/store_commands_test_index.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    int night = 0;
    for (const char* id : {"conform-mon", "conform-tue-1", "conform-tue"}) {
      const bool shard = absl::EndsWith(id, "-1");
      const RunRecord run{.id = id,
                          .command = "conform",
                          .gpu_name = "NVIDIA H100",
                          .parent = std::string(shard || absl::EndsWith(id, "tue") ? "conform-tue" : ""),
                          .shard = shard ? "1/2" : "",
                          .started = absl::FromUnixSeconds(86'400 * ++night),
                          .status = "findings",
                          .exit_status = 1};
      ASSERT_TRUE(store.CreateRun(run).ok());
      ASSERT_TRUE(store.AddCases(run.id, Tonight()).ok());
    }
  }
  absl::SetFlag(&FLAGS_db, db);
  const std::string page = testing::TempDir() + "/store_commands_test_index.html";
  std::filesystem::remove(page);
  absl::SetFlag(&FLAGS_html, page);
  std::ostringstream out, err;
  for (int time = 0; time < 2; ++time) {
    ASSERT_EQ(RunRunsCommand({}, out, err), kExitClean) << err.str();
  }
  std::ifstream file(page);
  const std::string html(std::istreambuf_iterator<char>(file), {});
  EXPECT_THAT(html, HasSubstr("<dt>Runs</dt><dd>2</dd>"));  // the shard is its merged run's night
  EXPECT_THAT(html, HasSubstr("<td class=\"id\">ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit</td><td><code>"
                              "conform-mon</code>"));
  const std::string other = testing::TempDir() + "/store_commands_test_index_other.html";
  std::ofstream(other) << "<!DOCTYPE html><html>someone else's page</html>";
  absl::SetFlag(&FLAGS_html, other);
  EXPECT_EQ(RunRunsCommand({}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("is not an earlier runs-index of store"));
  absl::SetFlag(&FLAGS_html, "");
  absl::SetFlag(&FLAGS_db, "");
}

// ReadText is the whole text of the file at `path`.
std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// runs and runs --html count a night's findings alike: the store's, flakes
// that need a person among them (the page counted only the finding class).
TEST(StoreCommandsTest, RunsAndItsIndexCountTheSameFindings) {
  const std::string db = testing::TempDir() + "/store_commands_test_flaky.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    const RunRecord run{.id = "conform-flaky",
                        .command = "conform",
                        .started = absl::FromUnixSeconds(86'400),
                        .status = "findings",
                        .exit_status = 1};
    ASSERT_TRUE(store.CreateRun(run).ok());
    std::vector<CaseRecord> cases = Tonight();
    cases.push_back(
        {.id = "ldmatrix.sync.aligned.m8n8.x4.b16.addr64.driver_jit", .outcome = CaseOutcome::kFlake, .finding = true});
    ASSERT_TRUE(store.AddCases(run.id, cases).ok());
  }
  absl::SetFlag(&FLAGS_db, db);
  const std::string page = testing::TempDir() + "/store_commands_test_flaky.html";
  std::filesystem::remove(page);
  absl::SetFlag(&FLAGS_html, page);
  std::ostringstream out, err;
  ASSERT_EQ(RunRunsCommand({}, out, err), kExitClean) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("3 cases     2 findings"));
  // cases, agree, known, findings, flakes
  EXPECT_THAT(ReadText(page), HasSubstr("<td class=\"n\">3</td><td class=\"n\">1</td><td class=\"n\">0</td>"
                                        "<td class=\"n\">2</td><td class=\"n\">1</td>"));
  absl::SetFlag(&FLAGS_html, "");
  absl::SetFlag(&FLAGS_db, "");
}

// export --html of a fuzz run whose directory's coverage.tsv is no file
// writes the page and says why it has no chart: a directory threw out of
// the export (exit 134), and a FIFO hung it.
TEST(StoreCommandsTest, ExportHtmlOfAFuzzRunWhoseCoverageTsvIsNoFileSaysSo) {
  const std::filesystem::path root = std::filesystem::path(testing::TempDir()) / "store_commands_test_coverage";
  std::filesystem::remove_all(root);
  const std::string db = (root / "store.sqlite").string();
  const std::vector<std::pair<std::string, std::string>> kinds = {{"directory", "is a directory, not a regular file"},
                                                                  {"fifo", "is a FIFO, not a regular file"}};
  {
    std::filesystem::create_directories(root);
    ResultsStore store = *ResultsStore::Open(db);
    for (const auto& [kind, said] : kinds) {
      const std::filesystem::path directory = root / kind;
      std::filesystem::create_directories(directory);
      if (kind == "directory") {
        std::filesystem::create_directories(directory / "coverage.tsv");
      } else {
        ASSERT_EQ(mkfifo((directory / "coverage.tsv").c_str(), 0600), 0);
      }
      const RunRecord run{.id = "fuzz-" + kind,
                          .command = "fuzz",
                          .directory = directory.string(),
                          .started = absl::FromUnixSeconds(60),
                          .status = "clean"};
      ASSERT_TRUE(store.CreateRun(run).ok());
      ASSERT_TRUE(
          store
              .AddCases(run.id,
                        {{.id = "fuzz.text", .outcome = CaseOutcome::kPass, .campaign = CampaignFigures{.runs = 10}}})
              .ok());
    }
  }
  absl::SetFlag(&FLAGS_db, db);
  for (const auto& [kind, said] : kinds) {
    const std::string page = (root / (kind + ".html")).string();
    absl::SetFlag(&FLAGS_html, page);
    std::ostringstream out, err;
    EXPECT_EQ(RunExportCommand({"fuzz-" + kind}, out, err), kExitClean) << err.str();
    EXPECT_THAT(ReadText(page), HasSubstr(absl::StrCat("coverage.tsv ", said, ".</p>"))) << kind;
  }
  absl::SetFlag(&FLAGS_html, "");
  absl::SetFlag(&FLAGS_db, "");
}

// A stored outcome damaged on disk ("pass" -> "pxss") is exit status 4 for
// every reader, never a passing JUnit testcase.
TEST(StoreCommandsTest, AFlippedByteInAStoredOutcomeIsExit4) {
  const std::string db = testing::TempDir() + "/store_commands_test_flipped.sqlite";
  std::filesystem::remove(db);
  {
    ResultsStore store = *ResultsStore::Open(db);
    ASSERT_TRUE(store.CreateRun({.id = "conform-1", .command = "conform", .status = "clean", .exit_status = 0}).ok());
    ASSERT_TRUE(store
                    .AddCases("conform-1", {{.id = "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit",
                                             .outcome = CaseOutcome::kPass}})
                    .ok());
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE cases SET outcome = 'pxss'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  absl::SetFlag(&FLAGS_db, db);
  const std::string junit = testing::TempDir() + "/store_commands_test_flipped.xml";
  std::filesystem::remove(junit);
  absl::SetFlag(&FLAGS_junit, junit);
  std::ostringstream out, err;
  EXPECT_EQ(RunExportCommand({"conform-1"}, out, err), kExitInfrastructure);
  EXPECT_THAT(err.str(), HasSubstr("has outcome 'pxss', which no matload writes"));
  EXPECT_FALSE(std::filesystem::exists(junit));
  EXPECT_EQ(RunRunsCommand({}, out, err), kExitInfrastructure);
  absl::SetFlag(&FLAGS_junit, "");
  absl::SetFlag(&FLAGS_db, "");
}

// A file that is not a results store is refused and left as it was, dry
// run or not: prune reads before it writes.
TEST(StoreCommandsTest, PruneLeavesAFileThatIsNotAStoreAlone) {
  const std::string db = testing::TempDir() + "/store_commands_test_prune_empty.sqlite";
  std::ofstream(db).close();
  absl::SetFlag(&FLAGS_db, db);
  absl::SetFlag(&FLAGS_keep, 1);
  for (const bool dry_run : {true, false}) {
    absl::SetFlag(&FLAGS_dry_run, dry_run);
    std::ostringstream out, err;
    EXPECT_EQ(RunPruneCommand({}, out, err), kExitUsage);
    EXPECT_THAT(err.str(), HasSubstr("is not a matload results database"));
    EXPECT_EQ(std::filesystem::file_size(db), 0u);
  }
  absl::SetFlag(&FLAGS_dry_run, false);
  absl::SetFlag(&FLAGS_keep, 0);
  absl::SetFlag(&FLAGS_db, "");
}

TEST(LoadBaselineTest, NoPathIsNoBaselineAndBadFilesAreUsageErrors) {
  EXPECT_FALSE(LoadBaseline("")->has_value());
  EXPECT_EQ(LoadBaseline("/nonexistent/baseline.csv").status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string path = testing::TempDir() + "/store_commands_test_baseline.csv";
  std::ofstream(path) << "a.b,mismatch\na.b,pass\n";
  const absl::StatusOr<std::optional<Baseline>> twice = LoadBaseline(path);
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(twice.status().message(), HasSubstr(path));
  // A FIFO is refused at once: it was opened, waiting for a writer.
  const std::string fifo = testing::TempDir() + "/store_commands_test_baseline_fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(LoadBaseline(fifo).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace matload
