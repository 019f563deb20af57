// Resume after SIGKILL: a run killed at any point and then resumed ends
// with the same results as a run that was never interrupted. Each test
// makes one uninterrupted run, then kills the same run at ten points
// spread over its length, resumes it, and compares the results store's
// cases and the run directory's results with the uninterrupted run's:
// `matload support` with the real ptxas, and `matload conform` on the fake
// GPU of the fault rig (fake_libcuda.cc), whose slow JIT spreads the run
// out. What only says how long the work took (timings, launch and retry
// counts, the date) is left out of the comparison.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

constexpr int kKillPoints = 10;

// ReadText is the file at `path`, or "" if there is none.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// WithoutLinesStarting drops the lines of `text` that start with `prefix`.
std::string WithoutLinesStarting(const std::string& text, absl::string_view prefix) {
  std::string kept;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::StartsWith(line, prefix)) absl::StrAppend(&kept, line, "\n");
  }
  return kept;
}

// WithoutKeys is `json_text` without the keys that only say how long the work took.
std::string WithoutKeys(const std::string& json_text, const std::vector<std::string>& keys) {
  nlohmann::json json = nlohmann::json::parse(json_text, nullptr, false);
  for (const std::string& key : keys) json.erase(key);
  return json.dump(1);
}

// RunOutcome is what one run left: its cases in the store, and its files
// as the comparison sees them.
struct RunOutcome {
  std::vector<CaseRecord> cases;
  std::vector<std::string> files;
};

class ResumeTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "state");
  }

  // Arguments is the command line of run `name`, into its own database.
  std::vector<std::string> Arguments(const std::vector<std::string>& command, const std::string& name) const {
    std::vector<std::string> arguments = {MATLOAD_BINARY};
    arguments.insert(arguments.end(), command.begin(), command.end());
    arguments.insert(arguments.end(), {"--db", (root_ / (name + ".sqlite")).string()});
    return arguments;
  }

  // Run runs `name` to its end, with `extra` arguments, and returns its exit code.
  int Run(const std::vector<std::string>& command, const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> arguments = Arguments(command, name);
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    absl::StatusOr<ProcessResult> ran = RunProcess(arguments, std::chrono::seconds(300), environment_);
    EXPECT_TRUE(ran.ok()) << ran.status();
    if (!ran.ok()) return -1;
    EXPECT_FALSE(ran->timed_out);
    EXPECT_NE(ran->exit_code, 2) << ran->standard_error;
    return ran->exit_code;
  }

  // KillAt starts `name`, kills it after `delay`, and says whether it was
  // still running then.
  bool KillAt(const std::vector<std::string>& command, const std::string& name, std::chrono::milliseconds delay) {
    std::vector<std::string> arguments = Arguments(command, name);
    arguments.insert(arguments.end(), {"--out", (root_ / name).string()});
    absl::StatusOr<BackgroundProcess> process =
        BackgroundProcess::Start(arguments, environment_, (root_ / (name + ".log")).string());
    EXPECT_TRUE(process.ok()) << process.status();
    std::this_thread::sleep_for(delay);
    const bool running = !process->Poll().has_value();
    process->Kill();
    return running;
  }

  // KilledMidRun kills `name` after `delay` and says whether the kill cut
  // its run short: the store still says "running". A process can be alive
  // after its run has ended (removing its scratch files at exit, say); a
  // kill then cuts nothing, and there is nothing to resume.
  bool KilledMidRun(const std::vector<std::string>& command, const std::string& name, std::chrono::milliseconds delay) {
    return KillAt(command, name, delay) && OnlyRun(name).status == "running";
  }

  // OnlyRun is the one run in `name`'s database.
  RunRecord OnlyRun(const std::string& name) const {
    ResultsStore store = *ResultsStore::Open(root_ / (name + ".sqlite"));
    const std::vector<RunRecord> runs = *store.Runs();
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? RunRecord{} : runs.front();
  }

  // Outcome reads run `name`'s cases, times left out, and its files.
  RunOutcome Outcome(const std::string& name,
                     const std::function<std::vector<std::string>(const std::filesystem::path&)>& files) const {
    ResultsStore store = *ResultsStore::Open(root_ / (name + ".sqlite"));
    RunOutcome outcome{.cases = *store.Cases(OnlyRun(name).id), .files = files(root_ / name)};
    for (CaseRecord& record : outcome.cases) record.seconds = 0;
    return outcome;
  }

  // KillAndResumeEverywhere runs `command` once whole, then kills it at ten
  // points and resumes it, and expects the same outcome each time.
  void KillAndResumeEverywhere(const std::vector<std::string>& command,
                               const std::function<std::vector<std::string>(const std::filesystem::path&)>& files) {
    const auto start = std::chrono::steady_clock::now();
    const int whole_exit = Run(command, "whole", {"--out", (root_ / "whole").string()});
    const auto length = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    const RunOutcome whole = Outcome("whole", files);
    ASSERT_FALSE(whole.cases.empty());
    int interrupted = 0;
    for (int point = 1; point <= kKillPoints; ++point) {
      const std::string name = absl::StrCat("killed-", point);
      const bool killed = KilledMidRun(command, name, length * point / (kKillPoints + 1));
      interrupted += killed ? 1 : 0;
      if (killed) EXPECT_EQ(Run(command, name, {"--resume", OnlyRun(name).id}), whole_exit) << name;
      const RunOutcome resumed = Outcome(name, files);
      EXPECT_EQ(resumed.cases, whole.cases)
          << name << " killed after " << (length * point / (kKillPoints + 1)).count() << " ms of " << length.count();
      EXPECT_EQ(resumed.files, whole.files) << name;
      EXPECT_EQ(OnlyRun(name).status, OnlyRun("whole").status) << name;
    }
    // Most kill points must land while the run works, or the test proves little.
    EXPECT_GE(interrupted, kKillPoints - 2);
  }

  std::filesystem::path root_;
  std::vector<std::string> environment_ = {absl::StrCat("MATLOAD_SOURCE_DIR=", MATLOAD_SOURCE)};
};

TEST_F(ResumeTest, SupportKilledAtTenPointsResumesToTheSameResults) {
  KillAndResumeEverywhere(
      {"support", "--target", "sm_75,sm_90,sm_100a", "--include", "*.ldmatrix.*.x1.*", "--threads", "1"},
      [](const std::filesystem::path& directory) {
        return std::vector<std::string>{
            WithoutLinesStarting(ReadText(directory / "support.md"), "- Made by:"),
            WithoutKeys(ReadText(directory / "support.json"), {"seconds", "date", "command"})};
      });
}

TEST_F(ResumeTest, ConformOnTheFakeGpuKilledAtTenPointsResumesToTheSameResults) {
  environment_.push_back(absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR));
  environment_.push_back("MATLOAD_FAKE_CUDA=slow-jit:20");
  environment_.push_back(absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (root_ / "state").string()));
  KillAndResumeEverywhere(
      {"conform", "--forms", "^wmma.load.a.sync.aligned.row", "--variants", "4", "--near_miss=false", "--workers", "2"},
      [](const std::filesystem::path& directory) {
        return std::vector<std::string>{
            ReadText(directory / "results.tsv"),
            WithoutLinesStarting(ReadText(directory / "bundles" / "index.tsv"), "#"),
            WithoutKeys(ReadText(directory / "summary.json"),
                        {"device_seconds", "phases", "worker_seconds", "infrastructure_retries", "launches"})};
      });
}

// A fuzz campaign killed with SIGKILL and resumed fuzzes again, on the
// corpus it had, every target whose campaign was not recorded, and ends
// with each target recorded. A campaign's results depend on time, so unlike
// support and conform they are not compared with an uninterrupted run's.
TEST_F(ResumeTest, FuzzKilledAndResumedRecordsEveryTarget) {
  if (!std::filesystem::exists(std::filesystem::path(MATLOAD_FUZZERS) / "text_fuzzer")) {
    GTEST_SKIP() << "no libFuzzer build of text_fuzzer in " << MATLOAD_FUZZERS
                 << " (cmake --preset fuzz && cmake --build --preset fuzz --target text_fuzzer cli_fuzzer)";
  }
  const std::vector<std::string> command = {"fuzz",      "--targets", "text,cli", "--seconds", "4",
                                            "--fuzzers", MATLOAD_FUZZERS};
  ASSERT_TRUE(KillAt(command, "fuzz", std::chrono::milliseconds(1500)));
  const RunRecord killed = OnlyRun("fuzz");
  EXPECT_EQ(killed.status, "running");
  EXPECT_EQ(Run(command, "fuzz", {"--resume", killed.id}), 0);
  ResultsStore store = *ResultsStore::Open(root_ / "fuzz.sqlite");
  std::vector<std::string> ids;
  const std::vector<CaseRecord> cases = *store.Cases(killed.id);
  for (const CaseRecord& record : cases) ids.push_back(record.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"fuzz.cli", "fuzz.text"}));
  EXPECT_EQ(OnlyRun("fuzz").status, "clean");
}

}  // namespace
}  // namespace matload
