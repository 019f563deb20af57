#include "harness/families/family_runtime.h"

#include <array>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference/families.h"

namespace matload {
namespace {

CheckedInstruction Check(absl::string_view text, absl::string_view target) {
  Verdict verdict = JudgeText(text, NewestPtxVersion(), *ParseTarget(target));
  EXPECT_TRUE(verdict.legal()) << text;
  return *verdict.checked();
}

constexpr char kLdmatrix[] = "ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];";
constexpr char kSharedWmma[] = "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {a0,a1,a2,a3,a4,a5,a6,a7}, [p];";
constexpr char kGlobalWmma[] = "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {a0,a1,a2,a3,a4,a5,a6,a7}, [p];";
constexpr char kTcgen05[] = "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];";

// Conform runs ldmatrix, then wmma.load, then tcgen05.ld, as it did before
// the registry (results.tsv's order and the bundles' numbers follow it).
TEST(FamilyRuntimeTest, EveryTableHasOneDescriptorInConformOrder) {
  std::vector<std::string> order;
  for (const FamilyRuntime* runtime : AllFamilyRuntimes()) order.push_back(SpecOf(runtime->family()).MnemonicText());
  EXPECT_EQ(order, (std::vector<std::string>{"ldmatrix", "wmma.load", "tcgen05.ld"}));
  for (const FamilySpec* spec : AllFamilies()) EXPECT_EQ(RuntimeOf(spec->family).family(), spec->family);
}

TEST(FamilyRuntimeDeathTest, AFamilyWithoutADescriptorAborts) {
  EXPECT_DEATH(RuntimeOf(static_cast<Family>(200)), "no FamilyRuntime for family 200");
}

TEST(FamilyRuntimeTest, VariantForPadsRowsAndPlacesLdmatrixInShared) {
  const RuntimeInputs runtime{.placement = DataPlacement::kGlobal, .rows = {48, 64}};
  const Variant variant = VariantFor(Check("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];", "sm_90"), runtime);
  EXPECT_EQ(variant.placement, DataPlacement::kShared);
  const std::array<std::uint64_t, kWarpLanes>& rows = variant.operands.lane_addresses;
  EXPECT_EQ(rows[0], 48u);
  EXPECT_EQ(rows[1], 64u);
  EXPECT_EQ(rows[2], 32u);
  EXPECT_EQ(rows[31], 496u);
}

TEST(FamilyRuntimeTest, VariantForTakesTheDefaultStrideAndTheNamedSpace) {
  const RuntimeInputs runtime{.placement = DataPlacement::kShared, .offset = 64};
  const Variant variant = VariantFor(
      Check("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {a0,a1,a2,a3,a4,a5,a6,a7}, [p];", "sm_90"), runtime);
  EXPECT_EQ(variant.placement, DataPlacement::kGlobal);
  EXPECT_EQ(variant.operands.address, 64u);
  EXPECT_EQ(variant.operands.stride, 16u);
}

TEST(FamilyRuntimeTest, InputsComeBackFromTheVariant) {
  for (const auto& [text, target] : std::vector<std::pair<const char*, const char*>>{
           {kLdmatrix, "sm_90"}, {kGlobalWmma, "sm_90"}, {kTcgen05, "sm_100a"}}) {
    const CheckedInstruction instruction = Check(text, target);
    const Variant variant = VariantFor(instruction, {.rows = {48, 64}, .offset = 64, .stride = 24, .column = 7});
    const FamilyRuntime& runtime = RuntimeOf(instruction.form().family);
    RuntimeInputs back;
    runtime.SetInputs(variant, back);
    EXPECT_EQ(runtime.OperandsJson(VariantFor(instruction, back)), runtime.OperandsJson(variant)) << text;
  }
}

// The operands as bundles' case.json has always written them.
TEST(FamilyRuntimeTest, BundlesWriteEachFamilysOperands) {
  const RuntimeInputs runtime{.offset = 64, .column = 7};
  const CheckedInstruction wmma = Check(kGlobalWmma, "sm_90");
  EXPECT_EQ(RuntimeOf(Family::kWmmaLoad).OperandsJson(VariantFor(wmma, runtime)).dump(),
            R"({"offset":64,"stride":16})");
  const CheckedInstruction tcgen05 = Check(kTcgen05, "sm_100a");
  EXPECT_EQ(RuntimeOf(Family::kTcgen05Ld).OperandsJson(VariantFor(tcgen05, runtime)).dump(), R"({"tmem_column":7})");
  const CheckedInstruction ldmatrix = Check(kLdmatrix, "sm_90");
  const std::string rows = RuntimeOf(Family::kLdmatrix).OperandsJson(VariantFor(ldmatrix, runtime)).dump();
  EXPECT_EQ(rows.substr(0, 30), R"({"row_offsets":[0,16,32,48,64,)");
}

// wmma.load forms naming .shared run with 32- and 64-bit addresses; every
// other form with 64-bit ones.
TEST(FamilyRuntimeTest, OnlySharedWmmaFormsHaveTwoAddressWidths) {
  EXPECT_EQ(RuntimeOf(Family::kWmmaLoad).AddressWidths(Check(kSharedWmma, "sm_90")), (std::vector<int>{32, 64}));
  EXPECT_EQ(RuntimeOf(Family::kWmmaLoad).AddressWidths(Check(kGlobalWmma, "sm_90")), (std::vector<int>{64}));
  EXPECT_EQ(RuntimeOf(Family::kLdmatrix).AddressWidths(Check(kLdmatrix, "sm_90")), (std::vector<int>{64}));
}

// Only tcgen05.ld needs more of a GPU than its target's instructions.
TEST(FamilyRuntimeTest, OnlyTcgen05NeedsTensorMemory) {
  EXPECT_EQ(RuntimeOf(Family::kTcgen05Ld).NeededHardware()->hardware, "Tensor Memory");
  EXPECT_FALSE(RuntimeOf(Family::kLdmatrix).NeededHardware().has_value());
  EXPECT_FALSE(RuntimeOf(Family::kWmmaLoad).NeededHardware().has_value());
}

}  // namespace
}  // namespace matload
