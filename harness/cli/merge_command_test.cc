// Sharded runs end to end, through the matload binary: `--shard I/N` runs
// of support (the real ptxas, a few targets' ldmatrix .x1 forms) and of fuzz
// (where the libFuzzer build is at hand), merged with `matload merge`,
// equal the run made unsharded: the same cases with the same results,
// `matload diff` unchanged, the same reports but for how they were made;
// and every bad shard and every set of runs that is not one whole run is a
// usage error that writes nothing.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// ReadText is the file at `path`.
std::string ReadText(const fs::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// WithoutHowItWasMade is a report's text without the lines that say how
// it was made ("Made by", "Machine"), which a merged run tells otherwise.
std::string WithoutHowItWasMade(const std::string& text) {
  std::istringstream lines(text);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("Made by") == std::string::npos && line.find("Machine") == std::string::npos) kept += line + "\n";
  }
  return kept;
}

// ReportData is a support.json without how it was made (command, date,
// machine, seconds), which a merged run tells otherwise.
nlohmann::json ReportData(const fs::path& directory) {
  nlohmann::json report = nlohmann::json::parse(ReadText(directory / "support.json"));
  for (const char* key : {"command", "date", "machine", "seconds"}) report.erase(key);
  return report;
}

// FilesUnder maps each file under `directory` to its contents.
std::map<std::string, std::string> FilesUnder(const fs::path& directory) {
  std::map<std::string, std::string> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file()) files[entry.path().lexically_relative(directory).string()] = ReadText(entry.path());
  }
  return files;
}

// kSupport sweeps three targets' ldmatrix .x1 forms, about 1,250 cases: by
// FNV-1a, 3 shards take sm_100a, sm_90 and sm_80 one each, and 2 shards
// take sm_80 and sm_89 one each.
const std::vector<std::string> kSupport = {"support", "--include", "*.ldmatrix.*.x1.*"};

class MergeCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }

  // Matload runs matload in this test's directory with its store, and
  // without the Slurm job array a test may be run in.
  ProcessResult Matload(std::vector<std::string> arguments, std::vector<std::string> environment = {}) const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    environment.insert(environment.end(), {"MATLOAD_DB=" + Store(), "SLURM_ARRAY_JOB_ID="});
    absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(300), environment);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Support runs kSupport on `targets` with `extra` arguments.
  ProcessResult Support(const std::string& targets, std::vector<std::string> extra,
                        std::vector<std::string> environment = {}) const {
    std::vector<std::string> arguments = kSupport;
    arguments.insert(arguments.end(), {"--target", targets});
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return Matload(arguments, environment);
  }

  // Store is this test's default results store, Path a file beside it.
  std::string Store() const { return Path("results.sqlite"); }
  std::string Path(const std::string& name) const { return (root_ / name).string(); }

  // Runs are the runs in the store at `store`.
  std::vector<RunRecord> Runs(const std::string& store) const {
    absl::StatusOr<ResultsStore> opened = ResultsStore::OpenReadOnly(store);
    EXPECT_TRUE(opened.ok()) << opened.status();
    return opened.ok() ? *opened->Runs() : std::vector<RunRecord>{};
  }

  // ExpectSameRun expects runs `a` and `b` of `store` to hold the same
  // cases, each with the same results (their times aside), and `matload
  // diff` to find every case unchanged.
  void ExpectSameRun(const std::string& store, const RunRecord& a, const RunRecord& b) const {
    ResultsStore opened = *ResultsStore::OpenReadOnly(store);
    const auto untimed = [&opened](const RunRecord& run) {
      std::vector<CaseRecord> cases = *opened.Cases(run.id);
      for (CaseRecord& record : cases) record.seconds = 0;
      return cases;
    };
    const std::vector<CaseRecord> cases_a = untimed(a);
    EXPECT_GT(cases_a.size(), 0u);
    EXPECT_EQ(cases_a, untimed(b));
    EXPECT_EQ(a.options, b.options);
    ProcessResult diff = Matload({"diff", a.id, b.id, "--db", store});
    EXPECT_EQ(diff.exit_code, kExitClean) << diff.standard_error;
    EXPECT_THAT(diff.standard_output,
                HasSubstr(absl::StrCat("changed: 0, added: 0, removed: 0, unchanged: ", cases_a.size())));
  }

  // ExpectSameReports expects the support reports in run directories `a`
  // and `b` to be the same but for how they were made.
  void ExpectSameReports(const fs::path& a, const fs::path& b) const {
    EXPECT_EQ(ReportData(a), ReportData(b));
    for (const char* report : {"support.md", "support.html"}) {
      EXPECT_EQ(WithoutHowItWasMade(ReadText(a / report)), WithoutHowItWasMade(ReadText(b / report))) << report;
    }
    EXPECT_EQ(FilesUnder(a / "reproducers"), FilesUnder(b / "reproducers"));
  }

  fs::path root_;
};

TEST_F(MergeCommandTest, SupportShardsMergeIntoTheUnshardedRun) {
  const std::string targets = "sm_80,sm_90,sm_100a";
  ASSERT_EQ(Support(targets, {"--out", Path("whole")}).exit_code, kExitClean);
  for (int index = 0; index < 3; ++index) {
    ProcessResult shard = Support(targets, {"--shard", absl::StrCat(index, "/3"), "--out", Path(absl::StrCat(index))});
    ASSERT_EQ(shard.exit_code, kExitClean) << shard.standard_error;
  }
  std::vector<RunRecord> runs = Runs(Store());
  ASSERT_EQ(runs.size(), 4u);
  // Each shard derived its parent alone, from the command and its options.
  const std::string parent = runs[1].parent;
  EXPECT_THAT(parent, testing::MatchesRegex("support-options-[0-9a-f]{8}"));
  for (int index = 0; index < 3; ++index) {
    EXPECT_EQ(runs[1 + index].parent, parent);
    EXPECT_EQ(runs[1 + index].shard, absl::StrCat(index, "/3"));
  }
  ProcessResult merged = Matload({"merge", parent, "--out", Path("merged")});
  ASSERT_EQ(merged.exit_code, kExitClean) << merged.standard_error;
  EXPECT_THAT(merged.standard_output, HasSubstr(absl::StrCat("the 3 shards of ", parent)));
  runs = Runs(Store());
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[4].status, "clean");
  EXPECT_EQ(runs[4].shard, "");
  EXPECT_EQ(runs[4].parent, parent);  // which links it to its shards (harness/runs/retention.h)
  ExpectSameRun(Store(), runs[0], runs[4]);
  ExpectSameReports(root_ / "whole", root_ / "merged");
  // The merged run, not a shard, is now the newest whole support run.
  ProcessResult latest = Matload({"diff", "support@latest~1", "support@latest"});
  EXPECT_THAT(latest.standard_output, HasSubstr(absl::StrCat("A: ", runs[0].id)));
  // Pruned to one night, the store keeps the merged run and its shards;
  // pruned after the next night, neither.
  ProcessResult pruned = Matload({"prune", "--keep", "1"});
  ASSERT_EQ(pruned.exit_code, kExitClean) << pruned.standard_error;
  EXPECT_THAT(pruned.standard_output, HasSubstr(absl::StrCat("deleted ", runs[0].id, "\ndeleted 1 of 5 runs")));
  ASSERT_EQ(Support(targets, {"--out", Path("next")}).exit_code, kExitClean);
  ASSERT_EQ(Matload({"prune", "--keep", "1"}).exit_code, kExitClean);
  runs = Runs(Store());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].directory, Path("next"));
}

// A shard may take no case, but a run merged from shards that took none
// between them judged nothing, and is refused: it is never clean.
TEST_F(MergeCommandTest, ShardsThatTookNoCaseBetweenThemMergeIntoNoRun) {
  for (int index = 0; index < 2; ++index) {
    ProcessResult shard = Support("sm_80,sm_89", {"--exclude", "*", "--shard", absl::StrCat(index, "/2"), "--parent",
                                                  "nothing", "--out", Path(absl::StrCat(index))});
    ASSERT_EQ(shard.exit_code, kExitClean) << shard.standard_error;
  }
  ProcessResult merged = Matload({"merge", "support-nothing", "--out", Path("merged")});
  EXPECT_EQ(merged.exit_code, kExitUsage) << merged.standard_error;
  EXPECT_THAT(merged.standard_error, HasSubstr("take no case of this support run"));
  EXPECT_EQ(Runs(Store()).size(), 2u);
  EXPECT_FALSE(fs::exists(root_ / "merged"));
}

// Shards on hosts of their own each keep a store of their own; the merge
// reads them all. With a ptxas that rejects every ldmatrix form, the run
// has findings: the merged run exits 1, as the unsharded one does.
TEST_F(MergeCommandTest, ShardsInStoresOfTheirOwnMergeWithTheirFindings) {
  const std::vector<std::string> broken = {"--ptxas", SourceTreePath("harness/testing/fake_ptxas.sh")};
  const std::vector<std::string> environment = {"MATLOAD_FAKE_PTXAS=reject-ldmatrix"};
  std::vector<std::string> whole = broken;
  whole.insert(whole.end(), {"--out", Path("whole"), "--db", Path("merged.sqlite")});
  ASSERT_EQ(Support("sm_80,sm_89", whole, environment).exit_code, kExitFindings);
  for (int index = 0; index < 2; ++index) {
    std::vector<std::string> shard = broken;
    shard.insert(shard.end(), {"--shard", absl::StrCat(index, "/2"), "--parent", "nightly", "--out",
                               Path(absl::StrCat(index)), "--db", Path(absl::StrCat("shard", index, ".sqlite"))});
    EXPECT_EQ(Support("sm_80,sm_89", shard, environment).exit_code, kExitFindings);
  }
  ProcessResult merged =
      Matload({"merge", "support-nightly", "--from", absl::StrCat(Path("shard0.sqlite"), ",", Path("shard1.sqlite")),
               "--db", Path("merged.sqlite"), "--out", Path("merged")});
  EXPECT_EQ(merged.exit_code, kExitFindings) << merged.standard_error;
  const std::vector<RunRecord> runs = Runs(Path("merged.sqlite"));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].status, "findings");
  ProcessResult diff = Matload({"diff", runs[0].id, runs[1].id, "--db", Path("merged.sqlite")});
  EXPECT_THAT(diff.standard_output, HasSubstr("new failures: 0, fixed: 0"));
  ExpectSameRun(Path("merged.sqlite"), runs[0], runs[1]);
  ExpectSameReports(root_ / "whole", root_ / "merged");
}

TEST_F(MergeCommandTest, ABadShardIsAUsageError) {
  const std::vector<std::pair<std::string, std::string>> bad = {{"3/2", "shard 3 of 2 does not exist"},
                                                                {"-1/4", "is not a shard: write I/N"},
                                                                {"1/0", "the shard count must be from 1"},
                                                                {"junk", "is not a shard"}};
  for (const std::string command : {"support", "conform", "fuzz"}) {
    for (const auto& [shard, message] : bad) {
      ProcessResult refused = Matload({command, "--shard", shard, "--out", Path("never")});
      EXPECT_EQ(refused.exit_code, kExitUsage) << command << " --shard " << shard;
      EXPECT_THAT(refused.standard_error, HasSubstr(message)) << command << " --shard " << shard;
    }
    ProcessResult parent = Matload({command, "--parent", "nightly", "--out", Path("never")});
    EXPECT_EQ(parent.exit_code, kExitUsage) << command;
    EXPECT_THAT(parent.standard_error, HasSubstr("give --shard I/N too"));
  }
  ProcessResult named = Support("sm_90", {"--shard", "0/2", "--parent", "a/b", "--out", Path("never")});
  EXPECT_EQ(named.exit_code, kExitUsage);
  EXPECT_THAT(named.standard_error, HasSubstr("a parent's name holds only"));
  EXPECT_FALSE(fs::exists(Path("never")));
  EXPECT_FALSE(fs::exists(Store()));
}

// Runs that are not every finished shard of one run once are refused,
// each saying why, and the store and --out are left as they were.
TEST_F(MergeCommandTest, MergeRefusesWhatIsNotOneWholeRun) {
  // By FNV-1a, 3 shards of sm_90 put it in shard 1; the others are empty.
  auto shard = [&](const std::string& which, const std::string& parent) {
    ProcessResult run = Support("sm_90", {"--shard", which, "--parent", parent});
    EXPECT_EQ(run.exit_code, kExitClean) << run.standard_error;
    return Runs(Store()).back().id;
  };
  const std::string first = shard("0/3", "night");
  shard("2/3", "night");
  const std::string other = shard("1/3", "other");
  auto expect_refused = [&](const std::vector<std::string>& references, const std::string& message) {
    std::vector<std::string> arguments = {"merge", "--out", Path("merged")};
    arguments.insert(arguments.end(), references.begin(), references.end());
    const size_t stored = Runs(Store()).size();
    ProcessResult refused = Matload(arguments);
    EXPECT_EQ(refused.exit_code, kExitUsage) << message;
    EXPECT_THAT(refused.standard_error, HasSubstr(message));
    EXPECT_EQ(Runs(Store()).size(), stored) << message;
    EXPECT_FALSE(fs::exists(Path("merged"))) << message;
  };
  expect_refused({"support-night"}, "shard 1 of the 3 of support-night is missing");
  expect_refused({"support-night", other}, "is a shard of support-night and run " + other);
  expect_refused({"support-nothing"}, "no run and no parent of shards named 'support-nothing'");
  expect_refused({}, "merge takes the shard runs");
  const std::string again = shard("2/3", "night");
  shard("1/3", "night");
  expect_refused({"support-night"}, "shard 2/3 of support-night is given twice");
  {
    ResultsStore store = *ResultsStore::Open(Store());
    RunRecord interrupted = *store.FindRun(first);
    interrupted.status = "interrupted";
    ASSERT_TRUE(store.UpdateRun(interrupted).ok());
  }
  std::vector<std::string> once;
  for (const RunRecord& run : Runs(Store())) {
    if (run.parent == "support-night" && run.id != again) once.push_back(run.id);
  }
  expect_refused(once, absl::StrCat("has not finished (interrupted): resume it (matload support --resume ", first));
  expect_refused({Runs(Store()).front().id, "--from", Path("missing.sqlite")}, "no results database");
}

// The resume command merge names for an unfinished support shard works as
// printed: `--resume` takes the shard's --target and --include from the
// store (D9 of reports/robustness/attack-2026-11-27-second), and the
// shards then merge into the run made unsharded. Given another --target,
// the resume is refused, naming it.
TEST_F(MergeCommandTest, TheResumeMergeNamesForAnUnfinishedSupportShardFinishesIt) {
  ProcessResult whole = Support("sm_90", {"--out", Path("whole")});
  ASSERT_EQ(whole.exit_code, kExitClean) << whole.standard_error;
  // By FNV-1a, 3 shards of sm_90 put it in shard 1.
  for (const char* which : {"0/3", "1/3", "2/3"}) {
    ProcessResult run = Support("sm_90", {"--shard", which, "--parent", "night", "--out", Path(which)});
    EXPECT_EQ(run.exit_code, kExitClean) << run.standard_error;
  }
  RunRecord stopped = Runs(Store())[2];
  ASSERT_EQ(stopped.shard, "1/3");
  {
    ResultsStore store = *ResultsStore::Open(Store());
    stopped.status = "interrupted";
    ASSERT_TRUE(store.UpdateRun(stopped).ok());
  }
  const std::vector<std::string> merge = {"merge", "support-night", "--out", Path("merged")};
  ProcessResult unfinished = Matload(merge);
  EXPECT_EQ(unfinished.exit_code, kExitUsage);
  const std::string& hint = unfinished.standard_error;
  const size_t start = hint.find("resume it (matload ");
  const size_t end = hint.find(") before merging");
  ASSERT_TRUE(start != std::string::npos && end != std::string::npos) << hint;
  std::vector<std::string> resume = absl::StrSplit(hint.substr(start + 19, end - start - 19), ' ');
  std::vector<std::string> other = resume;
  other.insert(other.end(), {"--target", "sm_80"});
  ProcessResult refused = Matload(other);
  EXPECT_EQ(refused.exit_code, kExitUsage);
  EXPECT_THAT(refused.standard_error, HasSubstr(R"(targets was ["sm_90"] and is ["sm_80"] now)"));
  ProcessResult resumed = Matload(resume);
  EXPECT_EQ(resumed.exit_code, kExitClean) << resumed.standard_error;
  ProcessResult merged = Matload(merge);
  ASSERT_EQ(merged.exit_code, kExitClean) << merged.standard_error;
  ExpectSameRun(Store(), Runs(Store()).front(), Runs(Store()).back());
}

TEST_F(MergeCommandTest, FuzzShardsMergeIntoTheUnshardedRun) {
  const std::string fuzzers = MATLOAD_FUZZERS;
  if (!fs::exists(fs::path(fuzzers) / "text_fuzzer") || !fs::exists(fs::path(fuzzers) / "cli_fuzzer")) {
    GTEST_SKIP() << "no libFuzzer build of text_fuzzer and cli_fuzzer in " << fuzzers
                 << " (cmake --preset fuzz && cmake --build --preset fuzz --target text_fuzzer cli_fuzzer)";
  }
  // By FNV-1a, 2 shards of text and cli put them in shards 0 and 1. Each
  // campaign gets 8 s: in a fresh clone's CI on two busy cores, the whole
  // run at 4 s once ended with exit 4, most likely a fuzzer that had not
  // yet run an input (RanNothing in fuzz_command.cc).
  const std::vector<std::string> fuzz = {"fuzz", "--targets", "text,cli", "--seconds", "8", "--fuzzers", fuzzers};
  std::vector<std::string> whole = fuzz;
  whole.insert(whole.end(), {"--out", Path("whole")});
  const ProcessResult whole_run = Matload(whole);
  ASSERT_EQ(whole_run.exit_code, kExitClean) << whole_run.standard_error;
  for (int index = 0; index < 2; ++index) {
    std::vector<std::string> shard = fuzz;
    shard.insert(shard.end(),
                 {"--shard", absl::StrCat(index, "/2"), "--parent", "smoke", "--out", Path(absl::StrCat(index))});
    ProcessResult run = Matload(shard);
    ASSERT_EQ(run.exit_code, kExitClean) << run.standard_error;
  }
  ProcessResult merged = Matload({"merge", "fuzz-smoke", "--out", Path("merged")});
  ASSERT_EQ(merged.exit_code, kExitClean) << merged.standard_error;
  const std::vector<RunRecord> runs = Runs(Store());
  ASSERT_EQ(runs.size(), 4u);
  // Campaigns run for a time, not a count: their outcomes, not their counts, match.
  ResultsStore store = *ResultsStore::OpenReadOnly(Store());
  auto outcomes = [&store](const RunRecord& run) {
    std::vector<std::pair<std::string, CaseOutcome>> outcomes;
    const std::vector<CaseRecord> cases = *store.Cases(run.id);
    for (const CaseRecord& record : cases) outcomes.emplace_back(record.id, record.outcome);
    return outcomes;
  };
  EXPECT_EQ(outcomes(runs[3]), outcomes(runs[0]));
  EXPECT_EQ(outcomes(runs[0]).size(), 2u);
}

}  // namespace
}  // namespace matload
