// Resume after a stop: a run stopped at any point and then resumed ends
// with the same results as a run that was never interrupted. Each test
// makes one uninterrupted run, then stops the same run at ten points
// spread over its length, resumes it, and compares the results store's
// cases and the run directory's results with the uninterrupted run's:
// `matload support` with the real ptxas and `matload conform` on the fake
// GPU of the fault rig (fake_libcuda.cc), killed with SIGKILL after a
// share of the uninterrupted run's time (the fake's slow JIT spreads a
// conform run out); and `matload conform` interrupted with SIGINT or
// SIGTERM, or losing its GPU, at a launch of the fake GPU's, in its forms
// phase and in the re-runs of its failing cases, one of which the fake
// GPU makes a flake. What only says how long the work took (timings,
// launch and retry counts, the date) is left out of the comparison.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/substitute.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

// kKillPoints is how many points of a run ResumeTest kills it at.
constexpr int kKillPoints = 10;

// kTriesPerKillPoint bounds the runs a time-aimed kill point takes when its
// kills come after the run has ended (KillAndResumeEverywhere).
constexpr int kTriesPerKillPoint = 3;

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

// WithoutKeys is `json_text` without the keys that only say how long the
// work took; text that is not JSON (a killed run wrote none) as it is.
std::string WithoutKeys(const std::string& json_text, const std::vector<std::string>& keys) {
  nlohmann::json json = nlohmann::json::parse(json_text, nullptr, false);
  if (json.is_discarded()) return json_text;
  for (const std::string& key : keys) json.erase(key);
  return json.dump(1);
}

// ConformFiles are a conform run directory's results as the comparison
// sees them: results.tsv, the bundles and their index, and summary.json.
std::vector<std::string> ConformFiles(const std::filesystem::path& directory) {
  std::vector<std::string> bundles;
  if (std::filesystem::exists(directory / "bundles")) {
    for (const auto& entry : std::filesystem::directory_iterator(directory / "bundles")) {
      bundles.push_back(entry.path().filename().string());
    }
  }
  std::sort(bundles.begin(), bundles.end());
  return {ReadText(directory / "results.tsv"), absl::StrJoin(bundles, "\n"),
          WithoutLinesStarting(ReadText(directory / "bundles" / "index.tsv"), "#"),
          WithoutKeys(ReadText(directory / "summary.json"),
                      {"device_seconds", "phases", "worker_seconds", "infrastructure_retries", "launches"})};
}

// RunOutcome is what one run left: its cases in the store, and its files
// as the comparison sees them.
struct RunOutcome {
  std::vector<CaseRecord> cases;
  std::vector<std::string> files;
};

// Whole is the uninterrupted run: how it ended, how long it took, what it
// left, and how many launches the fake GPU counted.
struct Whole {
  int exit_code = 0;
  std::chrono::milliseconds length{0};
  RunOutcome outcome;
  long launches = 0;
};

// Files reads a run directory's files for the comparison.
using Files = std::function<std::vector<std::string>(const std::filesystem::path&)>;

class ResumeTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }

  // UseFakeGpu runs matload on the fake GPU, in `modes` (fake_libcuda.cc).
  void UseFakeGpu(const std::string& modes) {
    environment_.push_back(absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR));
    fake_modes_ = modes;
  }

  // Environment is what the next matload process runs with: on the fake
  // GPU, a state directory of its own (its launches count from 1, and a
  // GPU an earlier process lost is back), with `stop`, a mode that stops
  // it, added to the fake GPU's modes.
  std::vector<std::string> Environment(const std::string& stop) {
    std::vector<std::string> environment = environment_;
    if (fake_modes_.empty()) return environment;
    state_ = root_ / absl::StrCat("state-", ++processes_);
    std::filesystem::create_directories(state_);
    environment.push_back(absl::StrCat("MATLOAD_FAKE_CUDA=", fake_modes_, stop.empty() ? "" : ",", stop));
    environment.push_back(absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", state_.string()));
    return environment;
  }

  // Arguments is the command line of run `name`, into its own database.
  std::vector<std::string> Arguments(const std::vector<std::string>& command, const std::string& name) const {
    std::vector<std::string> arguments = {MATLOAD_BINARY};
    arguments.insert(arguments.end(), command.begin(), command.end());
    arguments.insert(arguments.end(), {"--db", (root_ / (name + ".sqlite")).string()});
    return arguments;
  }

  // Matload runs `command` into `name`'s database to its end, or until the
  // fake GPU's mode `stop` stops it, and returns what it did.
  ProcessResult Matload(const std::vector<std::string>& command, const std::string& name,
                        const std::string& stop = "") {
    absl::StatusOr<ProcessResult> ran =
        RunProcess(Arguments(command, name), std::chrono::seconds(300), Environment(stop));
    EXPECT_TRUE(ran.ok()) << ran.status();
    if (!ran.ok()) return ProcessResult{.exit_code = -1};
    EXPECT_FALSE(ran->timed_out);
    return *std::move(ran);
  }

  // Run runs `name` as Matload does, with `extra` arguments, expects it
  // not to be refused, and returns its exit code.
  int Run(std::vector<std::string> command, const std::string& name, const std::vector<std::string>& extra,
          const std::string& stop = "") {
    command.insert(command.end(), extra.begin(), extra.end());
    const ProcessResult ran = Matload(command, name, stop);
    EXPECT_NE(ran.exit_code, 2) << ran.standard_error;
    return ran.exit_code;
  }

  // KillAt starts `name`, kills it after `delay`, and says whether it was
  // still running then.
  bool KillAt(const std::vector<std::string>& command, const std::string& name, std::chrono::milliseconds delay) {
    std::vector<std::string> arguments = Arguments(command, name);
    arguments.insert(arguments.end(), {"--out", (root_ / name).string()});
    absl::StatusOr<BackgroundProcess> process =
        BackgroundProcess::Start(arguments, Environment(""), (root_ / (name + ".log")).string());
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
  RunOutcome Outcome(const std::string& name, const Files& files) const {
    ResultsStore store = *ResultsStore::Open(root_ / (name + ".sqlite"));
    RunOutcome outcome{.cases = *store.Cases(OnlyRun(name).id), .files = files(root_ / name)};
    for (CaseRecord& record : outcome.cases) record.seconds = 0;
    return outcome;
  }

  // RunWhole runs `command` once whole, as run "whole".
  Whole RunWhole(const std::vector<std::string>& command, const Files& files) {
    const auto start = std::chrono::steady_clock::now();
    Whole whole{.exit_code = Run(command, "whole", {"--out", (root_ / "whole").string()})};
    whole.length = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    whole.outcome = Outcome("whole", files);
    if (!fake_modes_.empty()) {
      EXPECT_TRUE(absl::SimpleAtoi(absl::StripAsciiWhitespace(ReadText(state_ / "launches")), &whole.launches));
    }
    return whole;
  }

  // ExpectResumesToWhole resumes run `name`, if `stopped` cut it short,
  // and expects it to end as `whole` did; `how` says how it was stopped.
  void ExpectResumesToWhole(const std::vector<std::string>& command, const std::string& name, bool stopped,
                            const Whole& whole, const Files& files, const std::string& how) {
    if (stopped) EXPECT_EQ(Run(command, name, {"--resume", OnlyRun(name).id}), whole.exit_code) << name;
    const RunOutcome resumed = Outcome(name, files);
    EXPECT_EQ(resumed.cases, whole.outcome.cases) << name << " " << how;
    EXPECT_EQ(resumed.files, whole.outcome.files) << name << " " << how;
    EXPECT_EQ(OnlyRun(name).status, OnlyRun("whole").status) << name;
  }

  // KillAndResumeEverywhere runs `command` once whole, then kills it with
  // SIGKILL at ten points of its length and resumes it, and expects the
  // same outcome each time. A kill that comes after its run has ended (a
  // loaded machine slowed the whole run more than this one) tells that the
  // run takes less than the kill's delay: the later points aim by that, and
  // the point is tried again, up to kTriesPerKillPoint times.
  void KillAndResumeEverywhere(const std::vector<std::string>& command, const Files& files) {
    const Whole whole = RunWhole(command, files);
    ASSERT_FALSE(whole.outcome.cases.empty());
    std::chrono::milliseconds length = whole.length;
    int interrupted = 0;
    for (int point = 1; point <= kKillPoints; ++point) {
      for (int attempt = 1; attempt <= kTriesPerKillPoint; ++attempt) {
        const std::string name = absl::StrCat("killed-", point, "-", attempt);
        const std::chrono::milliseconds delay = length * point / (kKillPoints + 1);
        const bool killed = KilledMidRun(command, name, delay);
        ExpectResumesToWhole(command, name, killed, whole, files,
                             absl::StrCat("killed after ", delay.count(), " ms of ", length.count()));
        if (killed) {
          ++interrupted;
          break;
        }
        length = delay;
      }
    }
    // Most kill points must land while the run works, or the test proves little.
    EXPECT_GE(interrupted, kKillPoints - 2);
  }

  std::filesystem::path root_;
  std::vector<std::string> environment_ = {absl::StrCat("MATLOAD_SOURCE_DIR=", MATLOAD_SOURCE)};
  std::string fake_modes_;       // the fake GPU's modes, or empty for no fake GPU
  int processes_ = 0;            // matload processes started
  std::filesystem::path state_;  // the fake GPU's state of the last of them
};

// FlakyConform is a conform run on the fake GPU of 12 cases, 8 of them with
// variants a registry entry predicts to fault, whose kernels store
// nothing: every case is a mismatch, re-run twice. With kFlakyKernel, the
// fake GPU faults on the re-runs of one case's first three failing
// variants (a launch of three blocks, fault-blocks in fake_libcuda.cc),
// and on nothing else, so that case is a flake whenever it runs.
std::vector<std::string> FlakyConform() {
  return {"conform",
          "--forms",
          R"(^wmma.load.a.sync.aligned.row.m8n8k32\.)",
          "--variants",
          "4",
          "--first_failures",
          "3",
          "--near_miss=false",
          "--workers",
          "2"};
}
constexpr char kFlakyModes[] = "fault-blocks:3:716";
constexpr char kFlakyKernel[] = "MATLOAD_FAKE_CUDA_KERNEL=wmma.load.a.sync.aligned.row.m8n8k32.global.s4";

// Stop is a way the fake GPU stops a run at its launch K: its mode, with
// $0 for K, and the exit status and run status it leaves.
struct Stop {
  const char* mode;
  int exit_code;
  const char* status;
};
constexpr Stop kStops[] = {{"signal-at-launch:$0:2", 128 + SIGINT, "interrupted"},
                           {"signal-at-launch:$0:15", 128 + SIGTERM, "interrupted"},
                           {"lost-from-launch:$0", 4, "infrastructure"}};

// PhaseLaunches is how many launches phase `what` of the conform run in
// `directory` made, from its summary.json.
long PhaseLaunches(const std::filesystem::path& directory, const std::string& what) {
  const nlohmann::json summary = nlohmann::json::parse(ReadText(directory / "summary.json"), nullptr, false);
  for (const nlohmann::json& phase : summary.value("phases", nlohmann::json::array())) {
    if (phase.value("what", "") == what) return phase.value("launches", 0L);
  }
  ADD_FAILURE() << "no phase '" << what << "' in " << directory;
  return 0;
}

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
  UseFakeGpu("slow-jit:20");
  KillAndResumeEverywhere(
      {"conform", "--forms", "^wmma.load.a.sync.aligned.row", "--variants", "4", "--near_miss=false", "--workers", "2"},
      ConformFiles);
}

// SIGINT, SIGTERM (Slurm's time limit) and a lost GPU at ten launches each,
// from the forms phase to the re-runs: a case is recorded only once it is
// final, so the resumed run runs every other case again, whole, and ends
// with the uninterrupted run's results, its flake included.
TEST_F(ResumeTest, ConformInterruptedOrLosingItsGpuInEveryPhaseResumesToTheSameResults) {
  UseFakeGpu(kFlakyModes);
  environment_.push_back(kFlakyKernel);
  const Whole whole = RunWhole(FlakyConform(), ConformFiles);
  ASSERT_EQ(nlohmann::json::parse(whole.outcome.files.back(), nullptr, false).value("flakes", 0), 1);
  const long forms = PhaseLaunches(root_ / "whole", "forms");
  const long reruns = PhaseLaunches(root_ / "whole", "re-runs of failing variants");
  std::vector<long> launches;
  for (int point = 0; point < kKillPoints; ++point)
    launches.push_back(1 + (whole.launches - 1) * point / (kKillPoints - 1));
  EXPECT_GE(std::count_if(launches.begin(), launches.end(), [&](long launch) { return launch <= forms; }), 3);
  EXPECT_GE(
      std::count_if(launches.begin(), launches.end(), [&](long launch) { return launch > whole.launches - reruns; }),
      3);
  for (const Stop& stop : kStops) {
    for (long launch : launches) {
      const std::string mode = absl::Substitute(stop.mode, launch);
      const std::string name = absl::StrCat("stopped-", &stop - kStops, "-at-", launch);
      EXPECT_EQ(Run(FlakyConform(), name, {"--out", (root_ / name).string()}, mode), stop.exit_code) << mode;
      EXPECT_EQ(OnlyRun(name).status, stop.status) << mode;
      ExpectResumesToWhole(FlakyConform(), name, true, whole, ConformFiles, mode);
    }
  }
}

// Without re-runs, a case that no registry entry predicts a fault for is
// final once its forms launch is judged: a SIGKILL at the next phase's
// first launch leaves those cases stored as the uninterrupted run stores
// them, and the resumed run runs the rest.
TEST_F(ResumeTest, ConformKilledAfterItsFirstCasesFinishedKeepsThem) {
  UseFakeGpu("normal");
  std::vector<std::string> command = FlakyConform();
  command.insert(command.end(), {"--retries", "0"});
  const Whole whole = RunWhole(command, ConformFiles);
  const std::string kill = absl::StrCat("signal-at-launch:", PhaseLaunches(root_ / "whole", "forms") + 1, ":9");
  EXPECT_EQ(Run(command, "killed", {"--out", (root_ / "killed").string()}, kill), 128 + SIGKILL);
  EXPECT_EQ(OnlyRun("killed").status, "running");
  const std::vector<CaseRecord> kept = Outcome("killed", ConformFiles).cases;
  EXPECT_FALSE(kept.empty());
  EXPECT_LT(kept.size(), whole.outcome.cases.size());
  EXPECT_THAT(whole.outcome.cases, IsSupersetOf(kept));
  ExpectResumesToWhole(command, "killed", true, whole, ConformFiles, kill);
}

// Items are judged, and the cases they make final stored, as their worker
// returns them, not when their wave ends (D3 of
// reports/robustness/attack-2026-11-27-second): a SIGKILL halfway through
// the forms phase, which one wave runs, leaves the cases judged before it
// stored, and the resumed run ends as the uninterrupted one did. One
// worker, so that items finish in item order (with two, one may run ahead
// while the other's first item, which must be judged first, is still
// running), and 200 ms of JIT per form, so that each item is judged and
// stored before the next one launches, however loaded the machine.
TEST_F(ResumeTest, ConformKilledHalfwayThroughAWaveKeepsWhatItJudged) {
  UseFakeGpu("normal");
  std::vector<std::string> command = FlakyConform();
  *(std::find(command.begin(), command.end(), "--workers") + 1) = "1";
  command.insert(command.end(), {"--retries", "0"});
  const Whole whole = RunWhole(command, ConformFiles);
  const std::string kill =
      absl::StrCat("slow-jit:200,signal-at-launch:", PhaseLaunches(root_ / "whole", "forms") / 2, ":9");
  EXPECT_EQ(Run(command, "killed", {"--out", (root_ / "killed").string()}, kill), 128 + SIGKILL);
  const std::vector<CaseRecord> kept = Outcome("killed", ConformFiles).cases;
  EXPECT_FALSE(kept.empty());
  EXPECT_THAT(whole.outcome.cases, IsSupersetOf(kept));
  ExpectResumesToWhole(command, "killed", true, whole, ConformFiles, kill);
}

// `conform --resume RUN` takes the run back with the options it was
// started with, from the store (D9 of
// reports/robustness/attack-2026-11-27-second): a run started with --forms,
// --variants, --first_failures and --near_miss=false, stopped by SIGTERM
// halfway and resumed by its ID alone, ends as the uninterrupted run did;
// given another --variants, the resume is refused, naming it.
TEST_F(ResumeTest, ConformResumedByItsIdAloneTakesTheOptionsItWasStartedWith) {
  UseFakeGpu("normal");
  const Whole whole = RunWhole(FlakyConform(), ConformFiles);
  const std::string stop = absl::StrCat("signal-at-launch:", whole.launches / 2, ":15");
  EXPECT_EQ(Run(FlakyConform(), "stopped", {"--out", (root_ / "stopped").string()}, stop), 128 + SIGTERM);
  const ProcessResult other = Matload({"conform", "--resume", OnlyRun("stopped").id, "--variants", "8"}, "stopped");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.standard_error, HasSubstr("variants was 4 and is 8 now"));
  ExpectResumesToWhole({"conform"}, "stopped", true, whole, ConformFiles, stop);
}

// The resume command `matload merge` names for an unfinished conform shard
// works as printed (into the shards' store): it finishes the shard, and the
// shards then merge into the run made unsharded.
TEST_F(ResumeTest, TheResumeMergeNamesForAnUnfinishedConformShardFinishesIt) {
  UseFakeGpu("normal");
  const Whole whole = RunWhole(FlakyConform(), ConformFiles);
  auto shard = [&](const std::string& which, const std::string& stop) {
    std::vector<std::string> command = FlakyConform();
    command.insert(command.end(), {"--shard", which, "--parent", "P1", "--out", (root_ / which).string()});
    return Matload(command, "sharded", stop).exit_code;
  };
  EXPECT_NE(shard("0/2", ""), 2);
  EXPECT_EQ(shard("1/2", "signal-at-launch:2:15"), 128 + SIGTERM);
  const std::vector<std::string> merge = {"merge", "conform-P1", "--out", (root_ / "merged").string()};
  const ProcessResult unfinished = Matload(merge, "sharded");
  EXPECT_EQ(unfinished.exit_code, 2);
  const std::string hint = unfinished.standard_error;
  const size_t start = hint.find("resume it (matload ");
  const size_t end = hint.find(") before merging");
  ASSERT_TRUE(start != std::string::npos && end != std::string::npos) << hint;
  const std::string resume = hint.substr(start + 19, end - start - 19);
  EXPECT_NE(Run(absl::StrSplit(resume, ' '), "sharded", {}), 2) << resume;
  EXPECT_EQ(Matload(merge, "sharded").exit_code, whole.exit_code);
  ResultsStore store = *ResultsStore::Open(root_ / "sharded.sqlite");
  std::vector<CaseRecord> merged = *store.Cases(store.Runs()->back().id);
  for (CaseRecord& record : merged) record.seconds = 0;
  EXPECT_EQ(merged, whole.outcome.cases);
}

// A fuzz campaign killed with SIGKILL and resumed with SIGKILL and resumed fuzzes again, on the
// corpus it had, every target whose campaign was not recorded, and ends
// with each target recorded. A campaign's results depend on time, so unlike
// support and conform they are not compared with an uninterrupted run's.
// Each campaign gets 10 s: with 4, a loaded CI machine once spent them all
// starting libFuzzer's fork mode, and a campaign that ran no input is
// infrastructure (exit 4), never clean.
TEST_F(ResumeTest, FuzzKilledAndResumedRecordsEveryTarget) {
  if (!std::filesystem::exists(std::filesystem::path(MATLOAD_FUZZERS) / "text_fuzzer")) {
    GTEST_SKIP() << "no libFuzzer build of text_fuzzer in " << MATLOAD_FUZZERS
                 << " (cmake --preset fuzz && cmake --build --preset fuzz --target text_fuzzer cli_fuzzer)";
  }
  const std::vector<std::string> command = {"fuzz", "--targets", "text,cli",     "--seconds",
                                            "10",   "--fuzzers", MATLOAD_FUZZERS};
  ASSERT_TRUE(KillAt(command, "fuzz", std::chrono::milliseconds(1500)));
  const RunRecord killed = OnlyRun("fuzz");
  EXPECT_EQ(killed.status, "running");
  std::vector<std::string> resume = command;
  resume.insert(resume.end(), {"--resume", killed.id});
  const ProcessResult resumed = Matload(resume, "fuzz");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.standard_error;
  ResultsStore store = *ResultsStore::Open(root_ / "fuzz.sqlite");
  std::vector<std::string> ids;
  const std::vector<CaseRecord> cases = *store.Cases(killed.id);
  for (const CaseRecord& record : cases) ids.push_back(record.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"fuzz.cli", "fuzz.text"}));
  EXPECT_EQ(OnlyRun("fuzz").status, "clean");
}

}  // namespace
}  // namespace matload
