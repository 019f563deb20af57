// The device judge (harness/kernels/device_judge.h) on the GPU, held to the
// model: every legal ldmatrix and wmma.load form of the device's target that
// has a plan runs 64 variants in one launch, with no bug planted and with
// the two planted bugs a device judge must see (the kernel reads a row
// further on; the expected values are the transposed form's). The host
// judges every block with the model (the kernel stores the registers of a
// block that disagrees, and of block 0, the sampled one), and each device
// verdict must be the model's: agree on every block with no bug, disagree
// on every block with one. Variants the registry says fault are left out,
// as conform runs them apart. A launch the planted row bug makes fault
// (the row past the last one lies outside the window: the generic-address
// ldmatrix forms) has no verdicts; it is counted and said, and every other
// launch must run. Skips without a GPU.
#include <cstring>
#include <iostream>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "families/wmma/wmma_load_table.h"
#include "gtest/gtest.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/kernels/device_judge.h"
#include "harness/platform/infrastructure.h"
#include "reference/enumerate.h"

namespace matload {
namespace {

constexpr int kVariants = 64;
constexpr std::uint64_t kSeed = 20261128;

// Launched is one program and the variants its launch runs.
struct Launched {
  std::unique_ptr<TestProgram> program;
  PlantedBug bug = PlantedBug::kNone;
  std::vector<Variant> variants;
};

TEST(DeviceJudgeDeviceTest, EveryDeviceVerdictIsTheModels) {
  absl::StatusOr<DeviceProbe> device = ProbeDevice(0, std::chrono::seconds(60));
  if (IsNoGpu(device.status())) GTEST_SKIP() << "needs a GPU: " << device.status().message();
  ASSERT_TRUE(device.ok()) << device.status();
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  const PtxVersion ptx = device->jit.Judged();
  std::vector<Launched> launches;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, device->target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(*spec, qualifiers, ptx, device->target);
      ASSERT_TRUE(instruction.has_value());
      for (PlantedBug bug : {PlantedBug::kNone, PlantedBug::kOffByOneRow, PlantedBug::kTransposedExpectation}) {
        absl::StatusOr<std::unique_ptr<TestProgram>> program =
            TestProgram::For(*instruction, {.bug = bug, .judge_on_device = true});
        if (absl::IsInvalidArgument(program.status())) continue;  // no transposed twin to plant
        ASSERT_TRUE(program.ok()) << program.status();
        if (!(*program)->frame().judged_on_device) continue;  // no plan: the host judges it
        Launched launched{.program = *std::move(program), .bug = bug};
        for (Variant& variant : launched.program->Variants(4 * kVariants, kSeed, false)) {
          if (launched.variants.size() == kVariants) break;
          if (registry->Find(launched.program->FaultCaseText(variant), device->target, Direction::kDeviceFaults,
                             device->toolchain) == nullptr) {
            launched.variants.push_back(std::move(variant));
          }
        }
        launches.push_back(std::move(launched));
      }
    }
  }
  ASSERT_GT(launches.size(), 300u);
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(launches.size()),
      [&](int item) {
        std::vector<const Variant*> blocks;
        for (const Variant& variant : launches[item].variants) blocks.push_back(&variant);
        return LaunchProgram(0, *launches[item].program, blocks, CompilePath::kDriverJit);
      },
      std::chrono::seconds(120));
  ASSERT_TRUE(results.ok()) << results.status();
  int blocks_judged = 0, faulted_by_the_row_bug = 0;
  std::set<std::uint32_t> sms_seen;  // the SMs the verdict words name
  for (size_t item = 0; item < launches.size(); ++item) {
    const Launched& launched = launches[item];
    const ItemResult& result = (*results)[item];
    const std::string label = absl::StrCat(launched.program->Label(), " with ", PlantedBugName(launched.bug));
    if (launched.bug == PlantedBug::kOffByOneRow && result.kind == ItemResult::Kind::kFailed &&
        absl::StrContains(result.error.message(), "illegal memory access")) {
      std::cout << label << " faulted: " << result.error.message() << "\n";
      ++faulted_by_the_row_bug;
      continue;
    }
    ASSERT_EQ(result.kind, ItemResult::Kind::kDone) << label << ": " << result.output;
    const size_t block_bytes = launched.program->frame().output_bytes, blocks = launched.variants.size();
    ASSERT_EQ(result.output.size(), LaunchOutputBytes(launched.program->frame(), blocks)) << label;
    const auto* output = reinterpret_cast<const std::uint8_t*>(result.output.data());
    for (size_t i = 0; i < blocks; ++i) {
      std::uint32_t word = 0;
      std::memcpy(&word, output + blocks * block_bytes + 4 * i, 4);
      const VerdictWord read = ReadVerdictWord(word);
      const DeviceVerdict expected =
          launched.bug == PlantedBug::kNone ? DeviceVerdict::kAgree : DeviceVerdict::kDisagree;
      ASSERT_TRUE(read.verdict.has_value()) << label << " block " << i << ": word " << word;
      EXPECT_EQ(*read.verdict, expected) << label << " block " << i;
      sms_seen.insert(read.sm);
      if (read.verdict == DeviceVerdict::kAgree && !SampledBlock(i)) continue;
      const CaseVerdict host = JudgeOutput(launched.program->Expect(launched.variants[i]),
                                           absl::MakeConstSpan(output + i * block_bytes, block_bytes));
      EXPECT_EQ(host.kind == CaseClass::kPass, read.verdict == DeviceVerdict::kAgree)
          << label << " block " << i << ": the host found " << host.mismatches.size() << " words that differ";
      ++blocks_judged;
    }
  }
  std::cout << launches.size() << " launches, " << faulted_by_the_row_bug << " faulted by the planted row bug, "
            << blocks_judged << " blocks judged by the host too, verdicts from " << sms_seen.size() << " SMs (SM "
            << *sms_seen.begin() << " to " << *sms_seen.rbegin() << ")\n";
  EXPECT_GT(sms_seen.size(), 1u);  // 64 blocks a launch spread over the SMs
  EXPECT_LT(*sms_seen.rbegin(), kMostSms);
  EXPECT_GT(blocks_judged, 0);
  EXPECT_LT(faulted_by_the_row_bug, static_cast<int>(launches.size()) / 3);
}

}  // namespace
}  // namespace matload
