// The GPU differential end to end: every legal form of the device's target
// on both compile paths, the self-test's planted bugs, and the bundles'
// standalone reproducers. Skips, saying why, without a GPU.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/conform/conform_report.h"
#include "harness/conform/conformance_run.h"
#include "harness/conform/self_test.h"
#include "harness/gpu/program_launch.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

// ConformanceDeviceTest skips, saying why, when the probe finds no usable
// GPU (NoGpuError). A probe that fails otherwise (no worker, a
// garbled answer) is a failure, and so is a run that fails for any reason.
class ConformanceDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<DeviceProbe> device = ProbeDevice(0, std::chrono::seconds(60));
    if (IsNoGpu(device.status())) {
      GTEST_SKIP() << "needs a GPU: " << device.status().message();
    }
    ASSERT_TRUE(device.ok()) << device.status();
  }
};

std::string RunDirectory(absl::string_view name) {
  const char* reports = std::getenv("MATLOAD_REPORT_DIR");
  return absl::StrCat(reports != nullptr ? reports : ::testing::TempDir(), "/", name);
}

TEST_F(ConformanceDeviceTest, EveryLegalFormMatchesTheModelOnBothCompilePaths) {
  // The near-miss forms are the support sweep's (support_sweep_test, and
  // `matload conform` by default); here the GPU runs.
  const ConformanceOptions options{.variants = 8,
                                   .seed = 20261122,
                                   .paths = {CompilePath::kDriverJit, CompilePath::kPtxasCubin},
                                   .illegal = false,
                                   .run_directory = RunDirectory("conform")};
  absl::StatusOr<ConformanceResult> result = RunConformance(options, [](size_t, size_t, const std::string&) {});
  ASSERT_TRUE(result.ok()) << result.status();
  std::cout << ConformanceSummaryMarkdown(options, *result);
  EXPECT_EQ(result->findings, 0u) << "see " << options.run_directory << "/bundles/index.tsv";
  for (const char* family : {"ldmatrix", "wmma.load"}) EXPECT_GT(result->counts.at(family).at(CaseClass::kPass), 0u);
  // The phases account for the GPU work: the forms first, every launch of
  // them, within the GPU phase's time.
  ASSERT_FALSE(result->phases.empty());
  EXPECT_EQ(result->phases[0].what, "forms");
  EXPECT_EQ(result->phases[0].launches, result->launches);
  double phase_seconds = 0;
  for (const ConformancePhase& phase : result->phases) phase_seconds += phase.seconds;
  EXPECT_LE(phase_seconds, result->device_seconds);
}

// Cases the spec leaves undefined run when asked for, and are recorded,
// never compared: they can fault or return anything without a finding.
TEST_F(ConformanceDeviceTest, UndefinedCasesAreRecordedNotCompared) {
  const ConformanceOptions options{.variants = 8,
                                   .seed = 20261122,
                                   .forms = kSelfTestForms,
                                   .undefined = true,
                                   .illegal = false,
                                   .run_directory = RunDirectory("undefined")};
  absl::StatusOr<ConformanceResult> result = RunConformance(options, [](size_t, size_t, const std::string&) {});
  ASSERT_TRUE(result.ok()) << result.status();
  std::cout << ConformanceSummaryMarkdown(options, *result);
  EXPECT_EQ(result->findings, 0u);
  for (const char* family : {"ldmatrix", "wmma.load"}) {
    const std::map<CaseClass, size_t>& counts = result->counts.at(family);
    size_t undefined = 0;
    for (CaseClass kind : {CaseClass::kUndefinedRan, CaseClass::kUndefinedFaulted}) {
      if (counts.contains(kind)) undefined += counts.at(kind);
    }
    EXPECT_EQ(undefined, 2u) << family;  // variants 3 and 7 of 8
  }
}

TEST_F(ConformanceDeviceTest, EveryPlantedBugIsDetectedAndBundled) {
  absl::StatusOr<std::vector<SelfTestRow>> rows =
      RunSelfTest(0, RunDirectory("selftest"), [](size_t, size_t, const std::string&) {});
  ASSERT_TRUE(rows.ok()) << rows.status();
  std::cout << SelfTestMarkdown(*rows);
  // The control and every bug under each judge, but a bug in the device
  // judge under the host's, which has none.
  size_t planted_in_the_device_judge = 0;
  for (PlantedBug bug : AllPlantedBugs()) planted_in_the_device_judge += PlantedInTheDeviceJudge(bug) ? 1 : 0;
  ASSERT_EQ(rows->size(), 2 * (1 + AllPlantedBugs().size()) - planted_in_the_device_judge);
  for (const SelfTestRow& row : *rows) {
    EXPECT_TRUE(row.detected) << JudgePlaceName(row.judge) << " " << PlantedBugName(row.bug);
  }
}

// A bundle's repro.cpp, built with g++ and cuda.h alone, reproduces the
// planted bug: it prints FAIL and exits 1. The bug is in the load, so
// that the GPU judge, the default, calls its variants wrong (variant 1
// in a sweep) and the host confirms them; a bug planted after the judge
// would end the run as the judges' contradiction instead (self_test.h).
TEST_F(ConformanceDeviceTest, BundleReproducersReproduce) {
  const ConformanceOptions options{.variants = 2,
                                   .seed = 7,
                                   .forms = kSelfTestForms,
                                   .illegal = false,
                                   .bug = PlantedBug::kOffByOneRow,
                                   .run_directory = RunDirectory("repro")};
  absl::StatusOr<ConformanceResult> result = RunConformance(options, [](size_t, size_t, const std::string&) {});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->bundles, 2u);  // one per family
  const std::string cuda = std::getenv("CUDA_HOME") != nullptr ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
  for (const auto& entry : std::filesystem::directory_iterator(options.run_directory + "/bundles")) {
    if (!entry.is_directory()) continue;
    const std::string bundle = entry.path().string();
    absl::StatusOr<ProcessResult> built = RunProcess(
        {"g++", "-std=c++17", "-I" + cuda + "/include", bundle + "/repro.cpp", "-o", bundle + "/repro", "-lcuda"},
        std::chrono::seconds(120));
    ASSERT_TRUE(built.ok()) << built.status();
    ASSERT_EQ(built->exit_code, 0) << built->standard_error;
    absl::StatusOr<ProcessResult> ran =
        RunProcess({"sh", "-c", absl::StrCat("cd '", bundle, "' && ./repro")}, std::chrono::seconds(60));
    ASSERT_TRUE(ran.ok()) << ran.status();
    std::cout << bundle << ": " << ran->standard_output;
    EXPECT_EQ(ran->exit_code, 1) << ran->standard_output << ran->standard_error;
    EXPECT_NE(ran->standard_output.find("FAIL:"), std::string::npos);
  }
}

}  // namespace
}  // namespace matload
