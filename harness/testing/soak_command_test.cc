// `matload soak` against the fake driver of fake_libcuda.cc: rounds with
// seeds of their own joined into one run, replayable by conform, and a
// soak that cannot judge, or takes nothing, never green. The fake GPU's
// kernels store nothing, so every variant it runs is a mismatch.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/conform/soak_tally.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// kTwoForms chooses two ldmatrix forms, which no registry entry predicts a
// fault for (corpora/known_discrepancies.json).
constexpr char kTwoForms[] = R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.(shared|trans\.shared)\.b16$)";
constexpr std::uint64_t kSeed = 5;

// Text is a file's bytes, or "" where it cannot be read.
std::string Text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// CaseLines are results.tsv's case lines.
std::vector<std::string> CaseLines(const std::filesystem::path& results) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(Text(results), '\n', absl::SkipEmpty())) {
    if (line[0] != '#') lines.emplace_back(line);
  }
  return lines;
}

class SoakCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::path(::testing::TempDir()) /
                 absl::StrCat("soak_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_ / "state");
  }

  // Matload runs matload with `arguments` (and this test's store) on the
  // fake driver in `mode` with `gpus` GPUs.
  ProcessResult Matload(std::vector<std::string> arguments, const std::string& mode = "normal", int gpus = 1) {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    arguments.push_back("--db");
    arguments.push_back((directory_ / "results.sqlite").string());
    absl::StatusOr<ProcessResult> process =
        RunProcess(arguments, std::chrono::seconds(180),
                   {absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR), absl::StrCat("MATLOAD_FAKE_CUDA=", mode),
                    absl::StrCat("MATLOAD_FAKE_CUDA_DEVICES=", gpus),
                    absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (directory_ / "state").string())});
    EXPECT_TRUE(process.ok()) << process.status();
    return process.ok() ? *process : ProcessResult{};
  }

  // Soak is a soak of kTwoForms at 2 variants every round, seeded kSeed,
  // into the run directory `out`, with `extra` flags.
  ProcessResult Soak(const std::string& mode, std::vector<std::string> extra, const std::string& out = "soak") {
    std::vector<std::string> arguments = {
        "soak",   "--forms",           kTwoForms, "--round_variants",         "2", "--round_seconds", "0",
        "--seed", absl::StrCat(kSeed), "--out",   (directory_ / out).string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return Matload(arguments, mode);
  }

  std::filesystem::path directory_;
};

// Two rounds on two GPUs are one run: each case counts both rounds'
// variants, its bundle is its first failing round's, whose seed conform
// replays exactly, and the GPU judge's counts are kept by GPU and SM for
// the store, the page and the JUnit export.
TEST_F(SoakCommandTest, RoundsAreOneRunThatConformReplays) {
  std::vector<std::string> arguments = {"soak",
                                        "--forms",
                                        kTwoForms,
                                        "--round_variants",
                                        "2",
                                        "--round_seconds",
                                        "0",
                                        "--seed",
                                        absl::StrCat(kSeed),
                                        "--rounds",
                                        "2",
                                        "--devices",
                                        "all",
                                        "--out",
                                        (directory_ / "soak").string()};
  const ProcessResult soak = Matload(arguments, "normal", 2);
  ASSERT_EQ(soak.exit_code, 1) << soak.standard_error;  // the fake's kernels store nothing
  const std::uint64_t first_seed = SoakRoundSeed(kSeed, 0);
  EXPECT_THAT(soak.standard_error,
              HasSubstr(absl::StrCat("soak round 0 (conform --seed ", first_seed, " --variants 2): 4 ")));
  EXPECT_THAT(soak.standard_error, HasSubstr(absl::StrCat("soak round 1 (conform --seed ", SoakRoundSeed(kSeed, 1))));
  EXPECT_THAT(soak.standard_output, HasSubstr("| round | conform --seed |"));

  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const RunRecord run = store.Runs()->front();
  EXPECT_EQ(run.command, "soak");
  EXPECT_EQ(run.status, "findings");
  const std::vector<CaseRecord> cases = *store.Cases(run.id);
  ASSERT_EQ(cases.size(), 2u);
  for (const CaseRecord& record : cases) {
    EXPECT_TRUE(record.finding);
    EXPECT_EQ(record.counts.at(CaseOutcome::kMismatch), 4) << record.id;  // 2 variants in each of 2 rounds
    EXPECT_THAT(record.bundle, StartsWith("rounds/0000/bundles/"));
    EXPECT_THAT(record.detail, StartsWith(absl::StrCat("round 0 (conform --seed ", first_seed, " --variants 2): ")));
    EXPECT_TRUE(std::filesystem::is_directory(directory_ / "soak" / record.bundle)) << record.bundle;
  }
  const nlohmann::json summary = nlohmann::json::parse(Text(directory_ / "soak" / "summary.json"));
  EXPECT_EQ(summary["executions"], 8);
  EXPECT_EQ(summary["findings"], 2);
  ASSERT_EQ(summary["per_sm"].size(), 2u) << summary.dump(2);  // SM 0 of each fake GPU
  EXPECT_EQ(summary["per_sm"][0]["blocks"].get<int>() + summary["per_sm"][1]["blocks"].get<int>(), 8);
  EXPECT_EQ(summary["rounds"][1]["seed"], SoakRoundSeed(kSeed, 1));
  EXPECT_THAT(Text(directory_ / "soak" / "summary.md"), HasSubstr(absl::StrCat("| 1 | ", SoakRoundSeed(kSeed, 1))));
  EXPECT_THAT(Text(directory_ / "soak" / "report.html"), HasSubstr("id=\"gpu-judge\""));
  EXPECT_THAT(Text(directory_ / "soak" / "report.html"),
              HasSubstr(absl::StrCat("<td class=\"n\">1</td><td class=\"n\">", SoakRoundSeed(kSeed, 1), "</td>")));

  // The first round, replayed by conform from its seed, is the same.
  const ProcessResult conform =
      Matload({"conform", "--forms", kTwoForms, "--variants", "2", "--near_miss=false", "--seed",
               absl::StrCat(first_seed), "--out", (directory_ / "replay").string()});
  EXPECT_EQ(conform.exit_code, 1) << conform.standard_error;
  EXPECT_EQ(CaseLines(directory_ / "replay" / "results.tsv"),
            CaseLines(directory_ / "soak" / "rounds" / "0000" / "results.tsv"));

  // A soak's cases are conform's: the two runs diff (the fake's cases fail alike in both).
  const ProcessResult diff = Matload({"diff", "soak@latest", "conform@latest"});
  EXPECT_EQ(diff.exit_code, 0) << diff.standard_error;

  const ProcessResult exported = Matload({"export", "soak@latest", "--junit", (directory_ / "soak.xml").string()});
  EXPECT_EQ(exported.exit_code, 0) << exported.standard_error;
  EXPECT_THAT(Text(directory_ / "soak.xml"),
              HasSubstr("<property name=\"sms_judged\" value=\"2 (GPU 0: 1, GPU 1: 1)\"/>"));
}

// After the first round, each round is sized from the last one's time to
// take about --round_seconds (soak_round_size.h): rounds of the fake GPU
// take a second or two, so each grows tenfold, the most a round may. The
// round's variants are recorded with its seed, and conform replays a
// sized round from the two.
TEST_F(SoakCommandTest, RoundsGrowToFillTheirTime) {
  const ProcessResult soak = Matload({"soak", "--forms", kTwoForms, "--round_variants", "2", "--seed",
                                      absl::StrCat(kSeed), "--rounds", "3", "--out", (directory_ / "soak").string()});
  ASSERT_EQ(soak.exit_code, 1) << soak.standard_error;  // the fake's kernels store nothing
  const nlohmann::json rounds = nlohmann::json::parse(Text(directory_ / "soak" / "summary.json"))["rounds"];
  ASSERT_EQ(rounds.size(), 3u) << rounds.dump();
  EXPECT_EQ(rounds[0]["variants"], 2);
  EXPECT_GT(rounds[1]["variants"].get<int>(), 2) << rounds.dump();
  EXPECT_LE(rounds[1]["variants"].get<int>(), 20) << rounds.dump();
  EXPECT_GE(rounds[2]["variants"].get<int>(), rounds[1]["variants"].get<int>()) << rounds.dump();
  const int variants = rounds[1]["variants"].get<int>();
  EXPECT_THAT(soak.standard_error, HasSubstr(absl::StrCat("soak round 1 (conform --seed ", SoakRoundSeed(kSeed, 1),
                                                          " --variants ", variants, "): ", 2 * variants, " ")));
  EXPECT_THAT(soak.standard_output, HasSubstr("| round | conform --seed | --variants |"));

  const ProcessResult conform =
      Matload({"conform", "--forms", kTwoForms, "--variants", absl::StrCat(variants), "--near_miss=false", "--seed",
               absl::StrCat(SoakRoundSeed(kSeed, 1)), "--out", (directory_ / "replay").string()});
  EXPECT_EQ(conform.exit_code, 1) << conform.standard_error;
  EXPECT_EQ(CaseLines(directory_ / "replay" / "results.tsv"),
            CaseLines(directory_ / "soak" / "rounds" / "0001" / "results.tsv"));
}

// A soak probes its GPUs once, not once a round (ConformanceOptions::probed):
// each probe is a worker start, serialised host-wide. The fake counts the
// probes' calibration kernels, which each probe launches twice
// (TimeCalibrationKernel): 4 for two GPUs, where a probe a round made 16.
TEST_F(SoakCommandTest, ASoakProbesItsGpusOnce) {
  const ProcessResult soak = Matload({"soak", "--forms", kTwoForms, "--round_variants", "2", "--round_seconds", "0",
                                      "--rounds", "3", "--devices", "all", "--out", (directory_ / "soak").string()},
                                     "normal", 2);
  ASSERT_EQ(soak.exit_code, 1) << soak.standard_error;  // the fake's kernels store nothing
  std::ifstream counted(directory_ / "state" / "calibrations");
  size_t calibrations = 0;
  counted >> calibrations;
  EXPECT_EQ(calibrations, 4u) << "a probe a GPU for the soak, not for each of its 3 rounds";
}

// A registry prediction is confirmed once a soak, not once a round: each
// confirmation is a worker start, serialised host-wide (on two H200s,
// 72 of them took two thirds of a round: reports/soak/). One wmma form on
// both address widths is two cases, each with a prediction; the fake GPU
// faults every launch of one block, as the confirmations are. Round 0
// launches each case's defined variants and confirms each prediction;
// round 1 launches the defined variants alone, and still records the
// predicted variants as known faults.
TEST_F(SoakCommandTest, ARoundTakesWhatAnEarlierRoundConfirmed) {
  constexpr char kPredictedForm[] = R"(^wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.s8)";
  const ProcessResult soak = Matload(
      {"soak", "--forms", kPredictedForm, "--round_variants", "16", "--round_seconds", "0", "--rounds", "2",
       "--workers", "1", "--retries", "0", "--no_cache", "--seed", "3", "--out", (directory_ / "soak").string()},
      "fault-blocks:1:716");
  EXPECT_EQ(soak.exit_code, 1) << soak.standard_error;  // the defined variants: the fake stores nothing
  std::ifstream counted(directory_ / "state" / "launches");
  size_t launches = 0;
  counted >> launches;
  EXPECT_EQ(launches, 6u) << "each round confirmed the predictions again";
  const nlohmann::json summary = nlohmann::json::parse(Text(directory_ / "soak" / "summary.json"));
  EXPECT_EQ(summary["confirmations_remembered"], 2);
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const std::vector<CaseRecord> cases = *store.Cases(store.Runs()->front().id);
  ASSERT_EQ(cases.size(), 2u);
  for (const CaseRecord& record : cases) {
    EXPECT_GT(record.counts.at(CaseOutcome::kKnownFault), 0) << record.id;
    EXPECT_EQ(record.counts.count(CaseOutcome::kUnexpectedFault), 0u) << record.id;
    EXPECT_EQ(record.counts.at(CaseOutcome::kKnownFault) + record.counts.at(CaseOutcome::kMismatch), 32) << record.id;
  }
}

// A device judge that calls wrong registers right stops the soak as an
// infrastructure failure, never a pass.
TEST_F(SoakCommandTest, ALyingDeviceJudgeStopsTheSoakWithExit4) {
  const ProcessResult soak = Soak("lying-judge", {"--rounds", "2", "--retries", "0"});
  EXPECT_EQ(soak.exit_code, 4) << soak.standard_error;
  EXPECT_THAT(soak.standard_error, HasSubstr("the device judge and the model disagreed"));
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  EXPECT_EQ(store.Runs()->front().status, "infrastructure");
}

// A GPU lost in the second round stops the soak with exit 4; the first
// round's cases are kept.
TEST_F(SoakCommandTest, AGpuLostInALaterRoundKeepsTheRoundsBeforeIt) {
  const ProcessResult soak = Soak("lost-from-launch:3", {"--rounds", "3", "--retries", "0", "--workers", "1"});
  EXPECT_EQ(soak.exit_code, 4) << soak.standard_error;
  EXPECT_THAT(soak.standard_error, HasSubstr("GPU lost"));
  // The soak's own summaries say why it stopped.
  const nlohmann::json summary = nlohmann::json::parse(Text(directory_ / "soak" / "summary.json"));
  EXPECT_THAT(summary["stopped"].get<std::string>(), HasSubstr("GPU lost"));
  EXPECT_THAT(Text(directory_ / "soak" / "summary.md"), HasSubstr("The run stopped before judging every case"));
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const RunRecord run = store.Runs()->front();
  EXPECT_EQ(run.status, "infrastructure");
  const std::vector<CaseRecord> cases = *store.Cases(run.id);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].counts.at(CaseOutcome::kMismatch), 2);  // round 0 alone
  // The rounds so far were stored as each ended.
  const std::optional<std::string> rounds = *store.Artifact(run.id, "soak/rounds");
  ASSERT_TRUE(rounds.has_value());
  EXPECT_EQ(nlohmann::json::parse(*rounds).size(), 1u) << *rounds;
}

TEST_F(SoakCommandTest, AFilterThatTakesNothingIsAUsageError) {
  const ProcessResult soak = Soak("normal", {"--rounds", "1", "--include", "sm_90.ldmatrix.*"});
  EXPECT_EQ(soak.exit_code, 2) << soak.standard_error;
  EXPECT_THAT(soak.standard_error, HasSubstr("take no case of this soak run"));
}

TEST_F(SoakCommandTest, NoGpuIsCompileOnly) {
  const ProcessResult soak = Soak("init-fails", {"--rounds", "1"});
  EXPECT_EQ(soak.exit_code, 3) << soak.standard_error;
  EXPECT_THAT(soak.standard_error, HasSubstr("compile-only"));
}

// A soak finding is triaged by its case ID, from its round's bundle.
TEST_F(SoakCommandTest, ASoakFindingIsTriagedByItsCaseId) {
  ASSERT_EQ(Soak("normal", {"--rounds", "1"}).exit_code, 1);
  ResultsStore store = *ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
  const RunRecord run = store.Runs()->front();
  const std::string case_id = store.Cases(run.id)->front().id;
  const ProcessResult triage = Matload({"triage", absl::StrCat(run.id, ":", case_id), "--ptxas", "none", "--repeats",
                                        "1", "--out", (directory_ / "triage").string()});
  EXPECT_THAT(triage.standard_error, Not(HasSubstr("has no bundle to triage"))) << triage.standard_error;
  EXPECT_TRUE(std::filesystem::exists(directory_ / "triage" / "triage.json")) << triage.standard_error;
}

TEST_F(SoakCommandTest, BadFlagsAreUsageErrors) {
  EXPECT_EQ(Soak("normal", {"--paths", "driver-jit,driver-jit"}).exit_code, 2);
  EXPECT_EQ(Soak("normal", {"--minutes", "0"}).exit_code, 2);
  EXPECT_EQ(Soak("normal", {"--round_variants", "0"}).exit_code, 2);
  EXPECT_EQ(Soak("normal", {"--round_seconds", "-1"}).exit_code, 2);
  EXPECT_EQ(Soak("normal", {"--variants", "5"}).exit_code, 2);  // soak's is --round_variants
  EXPECT_EQ(Soak("normal", {"--judge", "device"}).exit_code, 2);
}

}  // namespace
}  // namespace matload
