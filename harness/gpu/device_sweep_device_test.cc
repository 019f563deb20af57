// Sweeps (harness/kernels/device_sweep.h) on the GPU, held to the model:
// every legal ldmatrix and wmma.load form of the device's target that has
// a sweep kernel sweeps kVariants variants drawn on the device, skipping
// the fault classes the registry predicts faults for, as conform does.
// With no bug, every variant run must agree, and every kept one (the
// sample) must be drawn and judged as the host draws and judges it. With
// the transposed expectation planted, the device must call variants wrong
// and the model confirm each one it kept. A judge planted wrong
// (misjudging-checker) and registers stored wrong after the judge
// (register-order) must each end the sweep as kInternal: the host's
// re-judging catches them. And each form's census, a sweep that skips
// every fault class, must count each class's variants and find its first
// as the host does (TestProgram::FaultClassOf). Skips without a GPU.
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
#include "harness/platform/infrastructure.h"
#include "reference/enumerate.h"

namespace matload {
namespace {

constexpr std::uint64_t kVariants = std::uint64_t{1} << 20;
constexpr std::uint64_t kSeed = 20261129;

// kCensusVariants are the variants of a form's census.
constexpr std::uint64_t kCensusVariants = std::uint64_t{1} << 18;

// Swept is one program, the classes its sweep skips, and what it must end
// in; a census skips every class.
struct Swept {
  std::unique_ptr<TestProgram> program;
  PlantedBug bug = PlantedBug::kNone;
  std::uint64_t skipped_classes = 0;
  bool census = false;
};

// SweepInWorker sweeps `swept` on device 0 and says "agreed disagreed
// rejudged failing unseen sms skipped".
absl::StatusOr<std::string> SweepInWorker(const Swept& swept) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(0);
  if (!jit.ok()) return jit.status();
  const TestProgram& program = *swept.program;
  const absl::StatusOr<SweepStats> stats = RunSweep(program,
                                                    {.seed = kSeed,
                                                     .first = 1,
                                                     .end = kVariants,
                                                     .variants_per_launch = kVariants / 4,
                                                     .skipped_classes = swept.skipped_classes,
                                                     .threads = 4},
                                                    DeviceSweepLaunch(**jit, program, *program.SweepKernel(), 264));
  if (!stats.ok()) return stats.status();
  std::uint64_t skipped = 0;
  for (const LeftOut& left_out : stats->skipped) skipped += left_out.count;
  return absl::StrCat(stats->agreed, " ", stats->disagreed, " ", stats->rejudged, " ", stats->failing.size(), " ",
                      stats->unseen, " ", stats->per_sm.size(), " ", skipped);
}

// CensusInWorker runs `swept`'s census on device 0 and says "census of N
// variants agrees", or how a class's count or first differs from the
// host's.
absl::StatusOr<std::string> CensusInWorker(const Swept& swept) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(0);
  if (!jit.ok()) return jit.status();
  const TestProgram& program = *swept.program;
  const absl::StatusOr<SweepStats> stats = RunSweep(
      program,
      {.seed = kSeed, .first = 1, .end = kCensusVariants, .skipped_classes = swept.skipped_classes, .threads = 1},
      DeviceSweepLaunch(**jit, program, *program.SweepKernel(), 264));
  if (!stats.ok()) return stats.status();
  std::vector<LeftOut> host(kSweepFaultClasses);
  for (std::uint64_t index = 1; index < kCensusVariants; ++index) {
    host[program.FaultClassOf(program.MakeVariant(kSeed, static_cast<int>(index), false))].Add(
        {.count = 1, .first = static_cast<std::int64_t>(index)});
  }
  for (int fault_class = 0; fault_class < kSweepFaultClasses; ++fault_class) {
    const LeftOut& device = stats->skipped[fault_class];
    if (device.count != host[fault_class].count || (device.count > 0 && device.first != host[fault_class].first)) {
      return absl::StrCat("class ", fault_class, ": the device counted ", device.count, " from ", device.first,
                          ", the host ", host[fault_class].count, " from ", host[fault_class].first);
    }
  }
  return absl::StrCat("census of ", kCensusVariants - 1, " variants agrees");
}

// EveryClass is the mask of every fault class of `program`.
std::uint64_t EveryClass(const TestProgram& program) {
  const size_t classes = program.FaultClassTexts().size();
  return classes >= kSweepFaultClasses ? ~std::uint64_t{0} : (std::uint64_t{1} << classes) - 1;
}

TEST(DeviceSweepDeviceTest, EverySweptVerdictIsTheModels) {
  absl::StatusOr<DeviceProbe> device = ProbeDevice(0, std::chrono::seconds(60));
  if (IsNoGpu(device.status())) GTEST_SKIP() << "needs a GPU: " << device.status().message();
  ASSERT_TRUE(device.ok()) << device.status();
  const PtxVersion ptx = device->jit.Judged();
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  // The classes the registry predicts faults for, skipped as conform skips them.
  const auto predicted = [&](const TestProgram& program) {
    std::uint64_t mask = 0;
    const std::vector<std::string> texts = program.FaultClassTexts();
    for (size_t fault_class = 0; fault_class < texts.size(); ++fault_class) {
      if (registry->Find(texts[fault_class], device->target, Direction::kDeviceFaults, device->toolchain) != nullptr) {
        mask |= std::uint64_t{1} << fault_class;
      }
    }
    return mask;
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
        if (!(*program)->SweepKernel().has_value()) continue;
        const std::uint64_t skipped_classes = predicted(**program);
        if (bug == PlantedBug::kNone) {
          std::unique_ptr<TestProgram> census = *TestProgram::For(*instruction, {.bug = bug, .judge_on_device = true});
          const std::uint64_t every_class = EveryClass(*census);
          sweeps.push_back({std::move(census), bug, every_class, true});
        }
        sweeps.push_back({*std::move(program), bug, skipped_classes});
      }
    }
  }
  ASSERT_GT(sweeps.size(), 20u);
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(sweeps.size()),
      [&](int item) { return sweeps[item].census ? CensusInWorker(sweeps[item]) : SweepInWorker(sweeps[item]); },
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
    if (swept.census) {
      EXPECT_TRUE(absl::StartsWith(result.output, "census of")) << label << ": " << result.output;
      continue;
    }
    std::vector<std::uint64_t> counts;
    for (absl::string_view field : absl::StrSplit(result.output, ' ')) {
      ASSERT_TRUE(absl::SimpleAtoi(field, &counts.emplace_back())) << result.output;
    }
    ASSERT_EQ(counts.size(), 7u);
    std::cout << label << ": agreed " << counts[0] << ", disagreed " << counts[1] << ", host re-judged " << counts[2]
              << ", failing " << counts[3] << ", unseen " << counts[4] << ", SMs up to " << counts[5]
              << ", skipped as predicted faults " << counts[6] << "\n";
    EXPECT_EQ(counts[0] + counts[1] + counts[6], kVariants - 1) << label;
    if (swept.skipped_classes == 0) EXPECT_EQ(counts[6], 0u) << label;
    EXPECT_GT(counts[2], 0u) << label;
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
