// The fault-injection rig: `matload conform` run against the fake driver of
// fake_libcuda.cc, one injected failure per test. Each test asserts the
// outcome class (a finding, or an infrastructure failure that is never
// one), the exit status (harness/platform/exit_status.h), and that the cases judged
// before a failure are kept. The fake GPU's kernels store nothing, so every
// case it runs to completion is judged a mismatch.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/process_tree.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// ReadText is a file's bytes, or "" where it cannot be read.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// kTwoForms and kSixForms choose ldmatrix forms, which no registry entry
// predicts a fault for (corpora/known_discrepancies.json).
constexpr char kTwoForms[] = R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.(shared|trans\.shared)\.b16$)";
constexpr char kSixForms[] = R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)";
constexpr int kVariants = 2;

// ConformRun is one conform run against the fake driver, and what it left.
struct ConformRun {
  ProcessResult process;
  nlohmann::json summary;             // summary.json, or null if it was not written
  std::vector<std::string> results;   // results.tsv's case lines
  size_t bundles = 0;                 // bundle directories

  // Count is how many variants ended in `outcome` (a case class token,
  // harness/judge/case_judge.h), from each case's counts by outcome.
  size_t Count(const std::string& outcome) const {
    size_t count = 0;
    for (const std::string& line : results) {
      const std::vector<std::string> fields = absl::StrSplit(line, '\t');
      if (fields.size() < 3) continue;
      for (absl::string_view counted : absl::StrSplit(fields[2], ',', absl::SkipEmpty())) {
        const std::vector<std::string> pair = absl::StrSplit(counted, '=');
        size_t value = 0;
        if (pair.size() == 2 && pair[0] == outcome && absl::SimpleAtoi(pair[1], &value)) count += value;
      }
    }
    return count;
  }
  // Judged is how many variants the run judged.
  size_t Judged() const {
    size_t judged = 0;
    for (const char* outcome : {"pass", "mismatch", "unexpected_fault", "timeout", "legal_rejected"}) {
      judged += Count(outcome);
    }
    return judged;
  }
};

class FaultRigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::path(::testing::TempDir()) /
                 absl::StrCat("fault_rig_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_ / "state");
  }

  // Environment is what selects the fake driver and its failure.
  std::vector<std::string> Environment(const std::string& mode) const {
    return {absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR), absl::StrCat("MATLOAD_FAKE_CUDA=", mode),
            absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (directory_ / "state").string())};
  }

  // Arguments is a conform command line for `forms` and `extra` flags,
  // with the run directory `out` under this test's directory.
  std::vector<std::string> Arguments(const std::string& forms, std::vector<std::string> extra,
                                     const std::string& out = "run") const {
    std::vector<std::string> arguments = {MATLOAD_BINARY, "conform", "--forms", forms, "--variants",
                                          std::to_string(kVariants), "--near_miss=false",
                                          "--out", (directory_ / out).string(),
                                          "--db", (directory_ / "results.sqlite").string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
  }

  ConformRun Conform(const std::string& mode, const std::string& forms, std::vector<std::string> extra = {}) {
    absl::StatusOr<ProcessResult> process =
        RunProcess(Arguments(forms, std::move(extra)), std::chrono::seconds(120), Environment(mode));
    EXPECT_TRUE(process.ok()) << process.status();
    return Collect(process.ok() ? *process : ProcessResult{});
  }

  // Collect is what a conform run left in its run directory `out`.
  ConformRun Collect(ProcessResult process, const std::string& out_name = "run") const {
    ConformRun run{.process = std::move(process)};
    const std::filesystem::path out = directory_ / out_name;
    if (std::ifstream json(out / "summary.json"); json) run.summary = nlohmann::json::parse(json);
    std::ifstream results(out / "results.tsv");
    for (std::string line; std::getline(results, line);) {
      if (!line.empty() && line[0] != '#') run.results.push_back(line);
    }
    if (std::filesystem::exists(out / "bundles")) {
      for (const auto& entry : std::filesystem::directory_iterator(out / "bundles")) run.bundles += entry.is_directory();
    }
    return run;
  }

  std::filesystem::path directory_;
};

TEST_F(FaultRigTest, AHealthyFakeGpuHasEveryCaseJudged) {
  const ConformRun run = Conform("normal", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;  // its kernels store nothing
  EXPECT_EQ(run.Count("mismatch"), 2u * kVariants);
  EXPECT_EQ(run.Judged(), 2u * kVariants);
  EXPECT_EQ(run.summary["stopped"], "");
  EXPECT_EQ(run.summary["infrastructure_retries"], 0);
  EXPECT_GT(run.bundles, 0u);
  // Each case keeps the time its workers took on it, for the JUnit export.
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const std::vector<CaseRecord> cases = *store.Cases(store.Runs()->front().id);
  for (const CaseRecord& record : cases) EXPECT_GT(record.seconds, 0) << record.id;
  // Where the workers' time went: each part within the one around it.
  const nlohmann::json& seconds = run.summary["worker_seconds"];
  EXPECT_GT(seconds["launching"].get<double>(), 0);
  EXPECT_LE(seconds["launching"].get<double>(), seconds["pipeline"].get<double>());
  EXPECT_LE(seconds["judging"].get<double>() + seconds["generating"].get<double>(), seconds["pipeline"].get<double>());
  EXPECT_LE(seconds["pipeline"].get<double>(), seconds["items"].get<double>());
  EXPECT_GT(seconds["starting"].get<double>(), 0);
  EXPECT_LE(seconds["starting"].get<double>() + seconds["pipeline"].get<double>(), seconds["items"].get<double>());
  EXPECT_LE(seconds["loading"].get<double>(), seconds["launching"].get<double>());
}

// The GPU's judge (the default) and the host's record the same cases: the
// fake's device judge calls every block wrong, as a true one would of
// kernels that store nothing, so the host judges each of them again, and
// results.tsv, the counts and the bundles are the host judge's. The run
// says which judge it had.
TEST_F(FaultRigTest, TheGpusJudgeRecordsWhatTheHostsJudgeRecords) {
  absl::StatusOr<ProcessResult> host =
      RunProcess(Arguments(kSixForms, {"--judge", "host"}, "host"), std::chrono::seconds(120), Environment("normal"));
  ASSERT_TRUE(host.ok()) << host.status();
  const ConformRun on_host = Collect(*host, "host");
  const ConformRun on_gpu = Conform("normal", kSixForms);
  EXPECT_EQ(on_gpu.process.exit_code, on_host.process.exit_code) << on_gpu.process.standard_error;
  EXPECT_EQ(on_gpu.results, on_host.results);
  EXPECT_EQ(on_gpu.bundles, on_host.bundles);
  for (const char* count : {"counts", "executions", "words_compared", "findings", "failing_variants"}) {
    EXPECT_EQ(on_gpu.summary[count], on_host.summary[count]) << count;
  }
  EXPECT_EQ(on_gpu.summary["judge"], "gpu");
  EXPECT_EQ(on_host.summary["judge"], "host");
  EXPECT_EQ(on_gpu.summary["judged_on_device"], 0);
  EXPECT_GT(on_gpu.Judged(), 0u);
  // The fake's verdicts all name SM 0 of GPU 0: every block, each wrong.
  ASSERT_EQ(on_gpu.summary["per_sm"].size(), 1u) << on_gpu.summary.dump(2);
  const nlohmann::json& sm = on_gpu.summary["per_sm"][0];
  EXPECT_EQ(sm["gpu"], 0);
  EXPECT_EQ(sm["sm"], 0);
  EXPECT_EQ(sm["blocks"].get<size_t>(), on_gpu.Judged());
  EXPECT_EQ(sm["disagreed"], sm["blocks"]);
  EXPECT_TRUE(on_host.summary["per_sm"].empty());
  // The run's page says them, from the store, as its export does.
  const std::string sentence =
      absl::StrCat("GPU 0: 1 SM gave verdicts, ", on_gpu.Judged(), " to ", on_gpu.Judged(),
                   " blocks each; SMs that called blocks wrong: SM 0 (", on_gpu.Judged(), ").");
  EXPECT_THAT(ReadText(directory_ / "run" / "report.html"), HasSubstr(sentence));
  EXPECT_THAT(ReadText(directory_ / "host" / "report.html"), Not(HasSubstr("id=\"gpu-judge\"")));
  absl::StatusOr<ProcessResult> exported =
      RunProcess({MATLOAD_BINARY, "export", "conform@latest", "--html", (directory_ / "export.html").string(),
                  "--junit", (directory_ / "export.xml").string(), "--db", (directory_ / "results.sqlite").string()},
                 std::chrono::seconds(60), Environment("normal"));
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(exported->exit_code, 0) << exported->standard_error;
  EXPECT_THAT(ReadText(directory_ / "export.html"), HasSubstr(sentence));
  EXPECT_THAT(ReadText(directory_ / "export.xml"), HasSubstr("<property name=\"sms_judged\" value=\"1 (GPU 0: 1)\"/>"));
}

// A device judge that calls wrong registers right is caught by the host's
// re-judging of the sampled blocks: the run stops as an infrastructure
// failure (exit 4), never a pass or a finding. The host's judge never
// reads the device's verdicts.
TEST_F(FaultRigTest, ALyingDeviceJudgeIsInfrastructureNeverAPass) {
  const ConformRun run = Conform("lying-judge", kTwoForms, {"--retries", "0"});
  EXPECT_EQ(run.process.exit_code, 4) << run.process.standard_error;
  EXPECT_THAT(run.process.standard_error, HasSubstr("the device judge and the model disagreed"));
  EXPECT_EQ(run.Count("pass"), 0u);
  absl::StatusOr<ProcessResult> host = RunProcess(Arguments(kTwoForms, {"--judge", "host"}, "host"),
                                                  std::chrono::seconds(120), Environment("lying-judge"));
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ(host->exit_code, 1) << host->standard_error;
  absl::StatusOr<ProcessResult> unknown = RunProcess(Arguments(kTwoForms, {"--judge", "device"}, "unknown"),
                                                     std::chrono::seconds(120), Environment("normal"));
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_EQ(unknown->exit_code, 2);
  EXPECT_THAT(unknown->standard_error, HasSubstr("--judge: unknown judge 'device' (gpu or host)"));
}

TEST_F(FaultRigTest, NoDeviceAtAllIsCompileOnly) {
  const ConformRun run = Conform("init-fails", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 3);
  EXPECT_THAT(run.process.standard_error, HasSubstr("compile-only"));
  EXPECT_TRUE(run.results.empty());
}

// A run without a GPU exports as a JUnit file that says why, one error
// and valid against the schema Jenkins reads JUnit with, not as a suite of
// 0 tests; the export then exits 2, since the run did not finish.
TEST_F(FaultRigTest, ARunWithoutAGpuExportsAsAJunitErrorThatSaysWhy) {
  ASSERT_EQ(Conform("init-fails", kTwoForms).process.exit_code, 3);
  const std::filesystem::path junit = directory_ / "junit.xml";
  absl::StatusOr<ProcessResult> exported =
      RunProcess({MATLOAD_BINARY, "export", "conform@latest", "--junit", junit.string(), "--db",
                  (directory_ / "results.sqlite").string()},
                 std::chrono::seconds(60));
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(exported->exit_code, 2);
  EXPECT_THAT(exported->standard_error, HasSubstr("did not finish: it found no usable GPU (exit 3)"));
  std::ifstream file(junit);
  const std::string xml(std::istreambuf_iterator<char>(file), {});
  EXPECT_THAT(xml, HasSubstr(R"(<testsuite name="matload conform" tests="1" failures="0" errors="1" skipped="0")"));
  EXPECT_THAT(xml, HasSubstr(R"(<testcase classname="matload" name="run")"));
  EXPECT_THAT(xml, HasSubstr("found no usable GPU (exit 3): matload was compile-only on"));
  absl::StatusOr<ProcessResult> lint =
      RunProcess({"xmllint", "--noout", "--schema", SourceTreePath("harness/runs/junit-jenkins.xsd"), junit.string()},
                 std::chrono::seconds(60));
  if (!lint.ok()) GTEST_SKIP() << "xmllint is not installed (apt-get install libxml2-utils) to check the schema";
  EXPECT_EQ(lint->exit_code, 0) << lint->standard_error;
}

// The first form's launch runs; from the second on the device is gone.
// Without re-runs the first form's case is final once judged, and kept; a
// case still waiting for its re-runs would run again when the run is
// resumed (resume_test.cc).
TEST_F(FaultRigTest, AGpuLostMidRunStopsWithExit4AndKeepsTheFinishedCases) {
  const ConformRun run = Conform("lost-from-launch:2", kTwoForms, {"--workers", "1", "--retries", "0"});
  EXPECT_EQ(run.process.exit_code, 4) << run.process.standard_error;
  EXPECT_THAT(run.process.standard_error, HasSubstr("infrastructure failure (GPU lost)"));
  EXPECT_EQ(run.Count("mismatch"), static_cast<size_t>(kVariants));  // the first form, judged and kept
  EXPECT_EQ(run.Judged(), static_cast<size_t>(kVariants));     // nothing recorded for the lost form
  EXPECT_EQ(run.Count("legal_rejected"), 0u);
  EXPECT_THAT(run.summary["stopped"].get<std::string>(), HasSubstr("GPU lost"));
  EXPECT_EQ(run.summary["failing_variants"], kVariants);
  EXPECT_EQ(run.summary["findings"], run.results.size());  // every recorded case fails
}

// A conform night counted once: stdout, summary.json, the run's page and
// the listing of runs give the store's findings (cases), and say how many
// failing variants those cases hold, never one number for the other.
TEST_F(FaultRigTest, EveryOutputCountsTheStoresFindings) {
  const ConformRun run = Conform("normal", kSixForms);
  ASSERT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const std::vector<CaseRecord> cases = *store.Cases(store.Runs()->front().id);
  const size_t findings = std::count_if(cases.begin(), cases.end(), [](const CaseRecord& c) { return c.finding; });
  ASSERT_GT(findings, 1u);
  const size_t failing_variants = run.Count("mismatch");
  ASSERT_GT(failing_variants, findings);  // two variants a case
  EXPECT_EQ(run.summary["findings"], findings);
  EXPECT_EQ(run.summary["failing_variants"], failing_variants);
  EXPECT_THAT(run.process.standard_output,
              HasSubstr(absl::StrCat(failing_variants, " failing variants in ", findings, " findings (cases)")));
  std::ifstream page(directory_ / "run" / "report.html");
  EXPECT_THAT(std::string(std::istreambuf_iterator<char>(page), {}),
              HasSubstr(absl::StrCat("<span id=\"total-findings\">", findings, "</span>")));
  absl::StatusOr<ProcessResult> runs =
      RunProcess({MATLOAD_BINARY, "runs", "--db", (directory_ / "results.sqlite").string()}, std::chrono::seconds(60));
  ASSERT_TRUE(runs.ok());
  EXPECT_THAT(runs->standard_output, HasSubstr(absl::StrFormat("%7d cases %5d findings", cases.size(), findings)));
}

// SIGUSR1 and SIGUSR2 (a batch system's warning before its time limit)
// stop the run in order, as SIGTERM does: exit 128+signal, the first form's
// case kept, the run stored as interrupted and resumable. Before, their
// default action killed matload as SIGKILL would (the second attack on
// issue 34, D10).
TEST_F(FaultRigTest, SigusrStopsTheRunInOrder) {
  for (const int signal : {SIGUSR1, SIGUSR2}) {
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_ / "state");
    const ConformRun run =
        Conform(absl::StrCat("signal-at-launch:2:", signal), kTwoForms, {"--workers", "1", "--retries", "0"});
    EXPECT_EQ(run.process.exit_code, 128 + signal) << run.process.standard_error;
    EXPECT_THAT(run.process.standard_error, HasSubstr(absl::StrCat("interrupted by signal ", signal)));
    // The first form is judged and kept; the second too when its launch ended before the signal was seen.
    EXPECT_GE(run.Count("mismatch"), static_cast<size_t>(kVariants));
    ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
    EXPECT_EQ(store.Runs()->front().status, "interrupted");
  }
}

TEST_F(FaultRigTest, AnExclusiveGpuIsSharedByRetryingNeverAFinding) {
  // Six forms on two compile paths are two rounds of launches, in two
  // workers at once: while one holds the exclusive device, the other is
  // told it is unavailable (46) and its launches are tried again.
  const ConformRun run = Conform("busy", kSixForms, {"--paths", "driver-jit,ptxas-cubin", "--workers", "4"});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  EXPECT_EQ(run.Count("mismatch"), 12u * kVariants);
  EXPECT_EQ(run.Count("legal_rejected"), 0u);
  EXPECT_EQ(run.summary["stopped"], "");
  // The run says why it tried launches again, though it recovered.
  EXPECT_GT(run.summary["infrastructure_retries"], 0);
  EXPECT_THAT(run.summary["retry_causes"].dump(), HasSubstr("CUDA_ERROR_DEVICE_UNAVAILABLE (46)"));
  EXPECT_THAT(ReadText(directory_ / "run" / "summary.md"),
              HasSubstr("fresh workers. Why:\n- infrastructure failure (GPU busy)"));
}

TEST_F(FaultRigTest, AGpuThatIsAlwaysBusyIsInfrastructure) {
  const ConformRun run = Conform("busy-always", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 4);
  EXPECT_THAT(run.process.standard_error, HasSubstr("GPU busy"));
  EXPECT_TRUE(run.results.empty());
}

TEST_F(FaultRigTest, AKernelFaultIsAFindingOnEachCase) {
  const ConformRun run = Conform("fault-from-launch:1:716", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 1);
  EXPECT_EQ(run.Count("unexpected_fault"), 2u * kVariants);
  EXPECT_THAT(run.results.front(), HasSubstr("CUDA_ERROR_MISALIGNED_ADDRESS (716)"));
}

// Each failing case re-runs its failing variants twice (--retries 2), in
// fresh workers. Launches 1 and 2 are the two forms; 3 and 4 their first
// re-runs, and 5 and 6 their second. A fault in launch 3 alone makes the
// first form a flake, with every attempt kept; the second stays a mismatch.
TEST_F(FaultRigTest, AOneOffFaultOnAReRunIsAFlakeWithEveryAttempt) {
  const ConformRun run = Conform("fault-at-launch:3:716", kTwoForms, {"--workers", "1"});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  ASSERT_EQ(run.results.size(), 2u);
  EXPECT_THAT(run.results[0], HasSubstr(".shared.b16.addr64.driver_jit\tflake\tmismatch=2"));
  EXPECT_THAT(run.results[1], HasSubstr(".trans.shared.b16.addr64.driver_jit\tmismatch\tmismatch=2"));
  EXPECT_EQ(run.summary["flakes"], 1);
  ResultsStore store = *ResultsStore::Open(directory_ / "results.sqlite");
  const std::vector<CaseRecord> cases = *store.Cases(store.Runs()->front().id);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].attempts,
            (std::vector<CaseOutcome>{CaseOutcome::kMismatch, CaseOutcome::kUnexpectedFault, CaseOutcome::kMismatch}));
  EXPECT_TRUE(cases[0].finding);
  EXPECT_EQ(cases[1].attempts,
            (std::vector<CaseOutcome>{CaseOutcome::kMismatch, CaseOutcome::kMismatch, CaseOutcome::kMismatch}));
}

TEST_F(FaultRigTest, AHungKernelIsCaughtByTheCalibratedWatchdog) {
  // The probe's empty kernel calibrates the watchdog, so the first test
  // kernel to hang is caught at the floor, not at the 30 s limit. The first
  // form runs; the second form's launch hangs, is split, and each of its
  // variants hangs alone.
  const ConformRun run = Conform("hang-from-launch:2", kTwoForms, {"--workers", "1"});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  EXPECT_EQ(run.Count("mismatch"), static_cast<size_t>(kVariants));
  EXPECT_EQ(run.Count("timeout"), static_cast<size_t>(kVariants));
  for (const std::string& line : run.results) {
    if (absl::StrContains(line, "\ttimeout\t")) {
      EXPECT_THAT(line, HasSubstr("no result within 2000 ms while running the kernel"));
    }
  }
}

TEST_F(FaultRigTest, TheJitRejectingLegalFormsIsAFindingWithItsLog) {
  const ConformRun run = Conform("jit-error", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 1);
  EXPECT_EQ(run.Count("legal_rejected"), 2u * kVariants);
  EXPECT_THAT(run.results.front(), HasSubstr("Unknown modifier '.fake'"));
}

// A --forms regex that makes a backtracking matcher try 2^n ways through
// a label of n characters (std::regex took minutes a label, deaf to
// SIGINT) is matched by RE2 (harness/runs/forms_regex.h) at once: it takes
// no form, so the run is refused (exit 2) before it begins.
TEST_F(FaultRigTest, ACatastrophicFormsRegexEndsAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<ProcessResult> process =
      RunProcess(Arguments("^(.|.)*X", {}), std::chrono::seconds(30), Environment("normal"));
  ASSERT_TRUE(process.ok()) << process.status();
  EXPECT_FALSE(process->timed_out);
  EXPECT_EQ(process->exit_code, 2) << process->standard_error;
  EXPECT_THAT(process->standard_error, HasSubstr("no form matches --forms '^(.|.)*X'"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));  // a loaded machine's start-up
}

TEST_F(FaultRigTest, ASlowJitIsNotAHang) {
  const ConformRun run = Conform("slow-jit:1500", kTwoForms);
  EXPECT_EQ(run.process.exit_code, 1);
  EXPECT_EQ(run.Count("mismatch"), 2u * kVariants);
  EXPECT_EQ(run.Count("timeout"), 0u);
}

TEST_F(FaultRigTest, ADriverThatCrashesIsInfrastructureAfterRetries) {
  for (const std::string mode : {"segv-from-launch:1", "abort-from-launch:1"}) {
    std::filesystem::remove_all(directory_ / "run");
    const ConformRun run = Conform(mode, kTwoForms);
    EXPECT_EQ(run.process.exit_code, 4) << mode;
    EXPECT_THAT(run.process.standard_error, HasSubstr("infrastructure failure (worker crashed)")) << mode;
    EXPECT_THAT(run.process.standard_error, HasSubstr("in 3 attempts")) << mode;
    EXPECT_TRUE(run.results.empty()) << mode;
    EXPECT_EQ(run.bundles, 0u) << mode;
  }
}

// FakeDriverProcesses counts live processes that use this test's fake state.
int FakeDriverProcesses(const std::filesystem::path& state) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream environ(entry.path() / "environ");
    std::stringstream text;
    text << environ.rdbuf();
    pid_t pid = 0;
    if (!absl::SimpleAtoi(entry.path().filename().string(), &pid)) continue;
    if (!HasEnded(pid) && absl::StrContains(text.str(), state.string())) ++count;
  }
  return count;
}

// SIGTERM while the second form's launch hangs: the first form's case,
// final once judged without re-runs, is kept.
TEST_F(FaultRigTest, SigtermStopsTheRunKillsItsWorkersAndKeepsTheFinishedCases) {
  const std::vector<std::string> arguments = Arguments(kTwoForms, {"--workers", "1", "--retries", "0"});
  std::vector<std::string> environment = Environment("hang-from-launch:2");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    for (const std::string& variable : environment) putenv(const_cast<char*>(variable.c_str()));
    std::vector<char*> argv;
    for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  // Wait until the second form's launch hangs, then interrupt.
  for (int i = 0; i < 200 && !std::filesystem::exists(directory_ / "state" / "launches"); ++i) usleep(50000);
  usleep(500000);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  const ConformRun run = Collect({});
  EXPECT_THAT(run.summary["stopped"].get<std::string>(), HasSubstr("interrupted by signal 15"));
  EXPECT_EQ(run.Count("mismatch"), static_cast<size_t>(kVariants));
  usleep(200000);
  EXPECT_EQ(FakeDriverProcesses(directory_ / "state"), 0) << "a worker outlived matload";
}

// The near-miss sweep runs beside the forms' workers. The fake driver's JIT
// accepts the canary module that must be rejected, so the sweep cannot
// judge: once the forms are done, the run stops with exit 4, naming the
// sweep, and keeps every form it judged beside it. Nothing of the sweep
// is a finding.
TEST_F(FaultRigTest, ANearMissSweepThatCannotJudgeStopsTheRunAndKeepsTheFormsJudgedBesideIt) {
  const ConformRun run = Conform("normal", kTwoForms, {"--near_miss=true"});
  EXPECT_EQ(run.process.exit_code, 4) << run.process.standard_error;
  EXPECT_THAT(run.process.standard_error, HasSubstr("the near-miss sweep through the driver JIT"));
  EXPECT_THAT(run.summary["stopped"].get<std::string>(), HasSubstr("must be rejected"));
  EXPECT_EQ(run.Count("mismatch"), 2u * kVariants);
  EXPECT_EQ(run.Judged(), 2u * kVariants);
  EXPECT_EQ(run.summary["failing_variants"], 2 * kVariants);
  EXPECT_EQ(run.summary["findings"], run.results.size());  // every case fails
}

// A fault in a launch of many variants is pinned to its variants by running
// the launch again in halves: each of the case's first --first_failures
// faults alone, the rest launch by launch. Every variant is counted once.
TEST_F(FaultRigTest, AFaultInALargeLaunchIsPinnedToItsVariantsByHalving) {
  const ConformRun run = Conform("fault-from-launch:1:700", kTwoForms,
                                 {"--variants", "40", "--first_failures", "4", "--retries", "0"});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  EXPECT_EQ(run.Count("unexpected_fault"), 80u);
  EXPECT_EQ(run.Judged(), 80u);
  ASSERT_EQ(run.results.size(), 2u);
  EXPECT_THAT(run.results[0], HasSubstr("\t0,1,2,3\t"));  // the lowest four, one launch each
  EXPECT_THAT(run.results[0], HasSubstr("CUDA_ERROR_ILLEGAL_ADDRESS (700)"));
}

// A launch that faults once and never again when its halves run is no pass:
// the case is a flake, a finding, and says what happened.
TEST_F(FaultRigTest, AFaultThatDoesNotHappenAgainMakesTheCaseAFlake) {
  const ConformRun run = Conform("fault-at-launch:1:716", kTwoForms, {"--variants", "40", "--workers", "1",
                                                                       "--retries", "0"});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.standard_error;
  ASSERT_EQ(run.results.size(), 2u);
  EXPECT_THAT(run.results[0], HasSubstr("\tflake\tmismatch=40\t"));
  EXPECT_THAT(run.results[0], HasSubstr("a fault of 40 variants from 0 on"));
  EXPECT_THAT(run.results[0], HasSubstr("did not happen again"));
  EXPECT_THAT(run.results[1], HasSubstr("\tmismatch\tmismatch=40\t"));
  EXPECT_EQ(run.summary["flakes"], 1);
}

// --devices spreads the forms over the GPUs, --workers dealt over them
// (at least one a GPU, so one worker still uses both), and writes one run
// with the results of a run on one GPU.
TEST_F(FaultRigTest, TwoGpusGiveTheResultsOfOne) {
  std::vector<std::string> environment = Environment("normal");
  environment.push_back("MATLOAD_FAKE_CUDA_DEVICES=2");
  const auto run_on = [&](const std::string& devices, const std::string& workers, const std::string& out) {
    const std::vector<std::string> arguments =
        Arguments(kSixForms, {"--variants", "64", "--devices", devices, "--workers", workers, "--retries", "0"}, out);
    absl::StatusOr<ProcessResult> process = RunProcess(arguments, std::chrono::seconds(120), environment);
    EXPECT_TRUE(process.ok()) << process.status();
    EXPECT_EQ(process->exit_code, 1) << process->standard_error;
    std::ifstream results(directory_ / out / "results.tsv");
    std::vector<std::string> lines;
    for (std::string line; std::getline(results, line);) {
      if (!line.empty() && line[0] != '#') lines.push_back(line);
    }
    return lines;
  };
  // The fake marks each GPU that ran a test kernel (fake_libcuda.cc).
  const auto launched_on = [&](int ordinal) {
    return std::filesystem::exists(directory_ / "state" / absl::StrCat("launched-on-", ordinal));
  };
  const std::vector<std::string> one = run_on("0", "2", "one");
  EXPECT_TRUE(launched_on(0));
  EXPECT_FALSE(launched_on(1));
  const std::vector<std::string> two = run_on("0,1", "1", "two");
  EXPECT_TRUE(launched_on(1));
  EXPECT_EQ(one.size(), 6u);
  EXPECT_EQ(two, one);
  const std::vector<std::string> all = run_on("all", "2", "all");
  EXPECT_EQ(all, one);
  std::ifstream header(directory_ / "two" / "results.tsv");
  std::string identity;
  std::getline(header, identity);
  EXPECT_THAT(identity, HasSubstr("GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff"));
  EXPECT_THAT(identity, HasSubstr("GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfefe"));
}

// CaseLines is results.tsv's case lines in the run directory `run`, each
// bundle named by the signature in its case.json, since shards number
// their bundles on their own.
std::vector<std::string> CaseLines(const std::filesystem::path& run) {
  std::vector<std::string> lines;
  std::ifstream results(run / "results.tsv");
  for (std::string line; std::getline(results, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (!fields.back().empty()) {
      std::ifstream description(run / fields.back() / "case.json");
      fields.back() = description ? nlohmann::json::parse(description).value("signature", "?") : "no case.json";
    }
    lines.push_back(absl::StrJoin(fields, "\t"));
  }
  return lines;
}

// Two shards of a run with findings in every case, merged, give the
// unsharded run's cases, bundles and summary counts. The fake GPU stores
// nothing, so each form's signature is its register count: .x1, .x2 and
// .x4 give three. Each shard numbers its bundles from 001, so the merge
// must refile them.
TEST_F(FaultRigTest, ShardsOfAConformRunMergeIntoTheUnshardedRun) {
  constexpr char kThreeSignatures[] = R"(^ldmatrix\.sync\.aligned\.m8n8\.x[124]\.(shared\.)?b16$)";
  const auto conform = [&](const std::string& out, std::vector<std::string> extra) {
    absl::StatusOr<ProcessResult> process = RunProcess(Arguments(kThreeSignatures, std::move(extra), out),
                                                       std::chrono::seconds(120), Environment("normal"));
    ASSERT_TRUE(process.ok()) << process.status();
    EXPECT_EQ(process->exit_code, 1) << process->standard_error;
  };
  conform("whole", {});
  conform("shard0", {"--shard", "0/2", "--parent", "nightly"});
  conform("shard1", {"--shard", "1/2", "--parent", "nightly"});
  absl::StatusOr<ProcessResult> merge =
      RunProcess({MATLOAD_BINARY, "merge", "conform-nightly", "--db", (directory_ / "results.sqlite").string(), "--out",
                  (directory_ / "merged").string()},
                 std::chrono::seconds(60));
  ASSERT_TRUE(merge.ok()) << merge.status();
  EXPECT_EQ(merge->exit_code, 1) << merge->standard_error;

  const std::vector<std::string> whole = CaseLines(directory_ / "whole");
  ASSERT_EQ(whole.size(), 6u);
  EXPECT_EQ(CaseLines(directory_ / "merged"), whole);
  const auto summary = [&](const std::string& run) {
    nlohmann::json json = nlohmann::json::parse(std::ifstream(directory_ / run / "summary.json"));
    return nlohmann::json{{"counts", json["counts"]},
                          {"findings", json["findings"]},
                          {"failing_variants", json["failing_variants"]},
                          {"bundles", json["bundles"]},
                          {"executions", json["executions"]},
                          {"words", json["words_compared"]},
                          {"target", json["target"]},
                          {"not_run", json["not_run"]}};
  };
  EXPECT_EQ(summary("merged"), summary("whole"));
  EXPECT_EQ(summary("whole")["bundles"], 3);
}

// A registry fault confirmed on the driver JIT is remembered in the results
// store under the GPU model and driver: the next run of the same launches
// records the same known faults without launching them. --no-cache, or
// another GPU model, launches them again. One wmma form on both address
// widths is two cases: launches 1 and 2 run their defined variants (the
// fake GPU stores nothing: mismatches), and from launch 3 on each
// confirmation meets the misaligned address the registry predicts.
TEST_F(FaultRigTest, AConfirmedFaultIsRememberedForTheSameGpuModelAndDriver) {
  constexpr char kPredictedForm[] = R"(^wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.s8)";
  const auto conform = [&](const std::string& out, std::vector<std::string> extra, const std::string& model) {
    std::filesystem::remove(directory_ / "state" / "launches");
    std::vector<std::string> environment = Environment("fault-from-launch:3:716");
    environment.push_back("MATLOAD_FAKE_CUDA_NAME=" + model);
    extra.insert(extra.end(), {"--variants", "16", "--workers", "1", "--retries", "0"});
    absl::StatusOr<ProcessResult> process =
        RunProcess(Arguments(kPredictedForm, std::move(extra), out), std::chrono::seconds(120), environment);
    EXPECT_TRUE(process.ok()) << process.status();
    ConformRun run = Collect(process.ok() ? *process : ProcessResult{}, out);
    std::ifstream counted(directory_ / "state" / "launches");
    size_t launches = 0;
    counted >> launches;
    return std::pair{std::move(run), launches};
  };
  const auto [first, first_launches] = conform("first", {}, "matload fake GPU");
  EXPECT_EQ(first.process.exit_code, 1) << first.process.standard_error;
  ASSERT_EQ(first.results.size(), 2u);
  EXPECT_GT(first.Count("known_fault"), 0u);
  EXPECT_EQ(first.Count("unexpected_fault"), 0u);
  EXPECT_EQ(first_launches, 4u);
  EXPECT_EQ(first.summary["confirmations_remembered"], 0);

  const auto [again, again_launches] = conform("again", {}, "matload fake GPU");
  EXPECT_EQ(again_launches, 2u) << "the confirmations ran again";
  EXPECT_EQ(again.results, first.results);
  EXPECT_EQ(again.summary["confirmations_remembered"], 2);
  EXPECT_THAT(again.process.standard_output, HasSubstr("2 registry predictions were taken as confirmed"));

  const auto [uncached, uncached_launches] = conform("uncached", {"--no-cache"}, "matload fake GPU");
  EXPECT_EQ(uncached_launches, 4u);
  EXPECT_EQ(uncached.results, first.results);
  const auto [other_model, other_model_launches] = conform("other_model", {}, "matload fake GPU, another model");
  EXPECT_EQ(other_model_launches, 4u);
  EXPECT_EQ(other_model.summary["confirmations_remembered"], 0);
  EXPECT_EQ(other_model.results, first.results);
}

// A case filter that takes no case is exit 2, never a clean run of
// nothing: here a support case ID, which starts with its target, given to
// conform, whose case IDs have none (docs/case-ids.md), as the README's
// example once did. The same glob in conform's shape takes the cases.
TEST_F(FaultRigTest, ACaseFilterThatTakesNoCaseIsAUsageErrorNeverACleanRun) {
  const auto conform = [this](const std::string& include, const std::string& out) {
    absl::StatusOr<ProcessResult> process = RunProcess(
        {MATLOAD_BINARY, "conform", "--include", include, "--variants", std::to_string(kVariants), "--near_miss=false",
         "--out", (directory_ / out).string(), "--db", (directory_ / "results.sqlite").string()},
        std::chrono::seconds(120), Environment("normal"));
    EXPECT_TRUE(process.ok()) << process.status();
    return Collect(process.ok() ? *process : ProcessResult{}, out);
  };
  const ConformRun nothing = conform("sm_90.ldmatrix.*", "nothing");
  EXPECT_EQ(nothing.process.exit_code, 2) << nothing.process.standard_error;
  EXPECT_THAT(nothing.process.standard_error,
              HasSubstr("take no case of this conform run (its case IDs are FORM.PATH"));
  EXPECT_TRUE(nothing.results.empty());
  const ConformRun ldmatrix = conform("ldmatrix.*", "ldmatrix");
  EXPECT_EQ(ldmatrix.process.exit_code, 1) << ldmatrix.process.standard_error;  // its kernels store nothing
  EXPECT_GT(ldmatrix.Count("mismatch"), 0u);
  const std::vector<RunRecord> runs = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite")->Runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].status, "usage");
  EXPECT_EQ(runs[1].status, "findings");
}

TEST_F(FaultRigTest, DevicesThatAreNotOrdinalsAreAUsageError) {
  for (const std::string devices : {"0,0", "x", "-1", "0,,1"}) {
    const ConformRun run = Conform("normal", kTwoForms, {"--devices", devices});
    EXPECT_EQ(run.process.exit_code, 2) << devices << ": " << run.process.standard_error;
    EXPECT_THAT(run.process.standard_error, HasSubstr("--devices")) << devices;
  }
}

// PeakResidentKb runs `arguments` with `environment` and returns the most
// resident memory, in KB, that it or any process it waited for held.
long PeakResidentKb(const std::vector<std::string>& arguments, const std::vector<std::string>& environment) {
  const pid_t pid = fork();
  if (pid == 0) {
    for (const std::string& variable : environment) putenv(const_cast<char*>(variable.c_str()));
    std::vector<char*> argv;
    for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 1) return -1;
  return usage.ru_maxrss;
}

// Workers stream a case's variants through the launch pipeline: a run's
// memory does not grow with --variants (the speed of it is a benchmark's,
// reports/bench/). Ten times the variants may cost no more than a fifth
// more memory, the allocator's warm-up.
TEST_F(FaultRigTest, PeakMemoryDoesNotGrowWithTheVariantCount) {
  const auto peak = [&](int variants) {
    std::vector<std::string> arguments =
        Arguments(R"(^ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16$)", {"--retries", "0"});
    arguments[std::find(arguments.begin(), arguments.end(), "--variants") - arguments.begin() + 1] =
        std::to_string(variants);
    std::filesystem::remove_all(directory_ / "run");
    return PeakResidentKb(arguments, Environment("normal"));
  };
  const long small = peak(100'000);
  const long large = peak(1'000'000);
  ASSERT_GT(small, 0);
  ASSERT_GT(large, 0);
  EXPECT_LE(large, small * 6 / 5) << "peak resident memory: " << small << " KB at 10^5 variants, " << large
                                   << " KB at 10^6";
}

}  // namespace
}  // namespace matload
