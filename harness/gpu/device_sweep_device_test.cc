// Sweeps (harness/kernels/device_sweep.h) on the GPU, held to the model:
// every legal ldmatrix and wmma.load form of the device's target that has
// a sweep kernel sweeps kVariants variants drawn on the device (a form the
// registry predicts faults for in its first window is left out, as
// conform leaves it). With no bug, every variant must
// agree, and every kept one (the sample) must be drawn and judged as the
// host draws and judges it. With the transposed expectation planted, the
// device must call variants wrong and the model confirm each one it kept.
// A judge planted wrong (misjudging-checker) and registers stored wrong
// after the judge (register-order) must each end the sweep as kInternal:
// the host's re-judging catches them. Skips without a GPU.
#include <iostream>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "families/wmma/wmma_load_table.h"
#include "gtest/gtest.h"
#include "harness/gpu/device_sweep_run.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/kernels/data_pattern.h"
#include "harness/platform/infrastructure.h"
#include "reference/enumerate.h"

namespace matload {
namespace {

constexpr std::uint64_t kVariants = std::uint64_t{1} << 20;
constexpr std::uint64_t kSeed = 20261129;

// Swept is one program and what its sweep must end in.
struct Swept {
  std::unique_ptr<TestProgram> program;
  PlantedBug bug = PlantedBug::kNone;
};

// SweepInWorker sweeps `program` on device 0 and says "agreed disagreed
// rejudged failing unseen sms".
absl::StatusOr<std::string> SweepInWorker(const TestProgram& program) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(0);
  if (!jit.ok()) return jit.status();
  const absl::StatusOr<SweepStats> stats = RunSweep(
      program, {.seed = kSeed, .first = 1, .end = kVariants, .variants_per_launch = kVariants / 4, .threads = 4},
      DeviceSweepLaunch(**jit, program, *program.SweepKernel(), 264));
  if (!stats.ok()) return stats.status();
  return absl::StrCat(stats->agreed, " ", stats->disagreed, " ", stats->rejudged, " ", stats->failing.size(), " ",
                      stats->unseen, " ", stats->per_sm.size());
}

TEST(DeviceSweepDeviceTest, EverySweptVerdictIsTheModels) {
  absl::StatusOr<DeviceProbe> device = ProbeDevice(0, std::chrono::seconds(60));
  if (IsNoGpu(device.status())) GTEST_SKIP() << "needs a GPU: " << device.status().message();
  ASSERT_TRUE(device.ok()) << device.status();
  const PtxVersion ptx = device->jit.Judged();
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  // A form whose first window the registry predicts faults in is not swept
  // (conform judges it one variant a block).
  const auto predicts_faults = [&](const TestProgram& program) {
    for (int index = 1; index < static_cast<int>(kVariantsPerWindow); ++index) {
      if (registry->Find(program.FaultCaseText(program.MakeVariant(kSeed, index, false)), device->target,
                         Direction::kDeviceFaults, device->toolchain) != nullptr) {
        return true;
      }
    }
    return false;
  };
  std::vector<Swept> sweeps;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    int form = 0;
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, device->target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(*spec, qualifiers, ptx, device->target);
      ASSERT_TRUE(instruction.has_value());
      // Every form without a bug; the bugs in every ldmatrix form and in
      // every 16th wmma.load form (each sweep kernel is a JIT compile).
      const bool plant = spec == &ldmatrix::Spec() || form++ % 16 == 0;
      for (PlantedBug bug : {PlantedBug::kNone, PlantedBug::kTransposedExpectation, PlantedBug::kMisjudgingChecker,
                             PlantedBug::kRegisterOrder}) {
        if (bug != PlantedBug::kNone && !plant) continue;
        absl::StatusOr<std::unique_ptr<TestProgram>> program =
            TestProgram::For(*instruction, {.bug = bug, .judge_on_device = true});
        if (absl::IsInvalidArgument(program.status()) || absl::IsNotFound(program.status())) continue;
        if (bug == PlantedBug::kRegisterOrder && instruction->signature().destination_count == 1) continue;
        ASSERT_TRUE(program.ok()) << program.status();
        if (!(*program)->SweepKernel().has_value() || predicts_faults(**program)) continue;
        sweeps.push_back({*std::move(program), bug});
      }
    }
  }
  ASSERT_GT(sweeps.size(), 20u);
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(sweeps.size()), [&](int item) { return SweepInWorker(*sweeps[item].program); },
      std::chrono::seconds(120));
  ASSERT_TRUE(results.ok()) << results.status();
  for (size_t item = 0; item < sweeps.size(); ++item) {
    const Swept& swept = sweeps[item];
    const ItemResult& result = (*results)[item];
    const std::string label = absl::StrCat(swept.program->Label(), " with ", PlantedBugName(swept.bug));
    if (swept.bug == PlantedBug::kMisjudgingChecker || swept.bug == PlantedBug::kRegisterOrder) {
      ASSERT_EQ(result.kind, ItemResult::Kind::kFailed) << label << ": " << result.output;
      EXPECT_EQ(result.error.code(), absl::StatusCode::kInternal) << label << ": " << result.error;
      continue;
    }
    ASSERT_EQ(result.kind, ItemResult::Kind::kDone) << label << ": " << result.output << " " << result.error;
    std::vector<std::uint64_t> counts;
    for (absl::string_view field : absl::StrSplit(result.output, ' ')) {
      ASSERT_TRUE(absl::SimpleAtoi(field, &counts.emplace_back())) << result.output;
    }
    ASSERT_EQ(counts.size(), 6u);
    std::cout << label << ": agreed " << counts[0] << ", disagreed " << counts[1] << ", host re-judged " << counts[2]
              << ", failing " << counts[3] << ", unseen " << counts[4] << ", SMs up to " << counts[5] << "\n";
    EXPECT_EQ(counts[0] + counts[1], kVariants - 1) << label;
    EXPECT_GE(counts[2], kVariants / kSampleEvery) << label;
    if (swept.bug == PlantedBug::kNone) {
      EXPECT_EQ(counts[1], 0u) << label;
      EXPECT_EQ(counts[3], 0u) << label;
    } else {
      EXPECT_GT(counts[1], kVariants / 2) << label;
      EXPECT_GT(counts[3], 0u) << label;
    }
    EXPECT_GT(counts[5], 100u) << label;  // a sweep spreads over the SMs
  }
}

}  // namespace
}  // namespace matload
