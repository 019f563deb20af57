#include "families/wmma/wmma_semantics.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/form.h"
#include "reference/printer.h"
#include "reference/runtime_ub.h"
#include "reference/test_support.h"

namespace matload {

// PrintTo names a target in test output.
void PrintTo(const TargetInfo& info, std::ostream* os) { *os << info.target.Name(); }

namespace {

using ::matload::testing::JudgeAt;
using ::testing::HasSubstr;

CheckedInstruction Check(absl::string_view text, absl::string_view target = "sm_90") {
  Verdict verdict = JudgeAt(text, target);
  EXPECT_TRUE(verdict.legal()) << text;
  return *verdict.checked();
}

// Iota16Global is a memory image whose global 16-bit word at byte 2k holds k.
MemoryImage Iota16Global(size_t bytes) {
  MemoryImage memory;
  memory.global.resize(bytes);
  for (size_t k = 0; k < bytes / 2; ++k) {
    memory.global[2 * k] = static_cast<std::uint8_t>(k);
    memory.global[2 * k + 1] = static_cast<std::uint8_t>(k >> 8);
  }
  memory.shared = memory.global;
  return memory;
}

// ValuesOf returns the outcome's lane values; anything else fails the test.
LaneValues ValuesOf(const Outcome& outcome) {
  if (const auto* values = std::get_if<LaneValues>(&outcome)) return *values;
  ADD_FAILURE() << "not values: " << (std::holds_alternative<Undefined>(outcome) ? std::get<Undefined>(outcome).why : "fault");
  return {};
}

// FragmentOf assembles the warp's fragments element by element, without a
// gather: fragment element x of a lane is the logical matrix element
// (row-major `matrix`) that the layout names, in bits x*bits up.
LaneValues FragmentOf(const WmmaFragment& fragment, absl::Span<const std::uint64_t> matrix) {
  const int bits = fragment.element_bits();
  LaneValues values =
      LaneValues::Zeroed(fragment.registers() * fragment.register_bits() / 32, fragment.register_bits());
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    absl::Span<std::uint32_t> words = values.lane(lane);
    for (int x = 0; x < fragment.elements(); ++x) {
      const MatrixCoord at = fragment.Element(lane, x);
      const std::uint64_t element = matrix[at.row * fragment.cols() + at.col];
      for (int i = 0; i < bits; ++i) {
        const int bit = x * bits + i;
        words[bit / 32] |= static_cast<std::uint32_t>((element >> i) & 1) << (bit % 32);
      }
    }
  }
  return values;
}

// UndefinedOf returns the outcome's Undefined; anything else fails the test.
Undefined UndefinedOf(const Outcome& outcome) {
  if (const auto* undefined = std::get_if<Undefined>(&outcome)) return *undefined;
  ADD_FAILURE() << "the outcome is defined";
  return Undefined{RuntimeHazard::kDivergentExecution, "defined"};
}

// sm_90 m16n16k16 A .row, f16, default stride 16, iota16 data: element
// (r, c) holds 16r + c. From the sm_80 formula in docs/spec-decisions.md wmma.layout.*, by hand:
// lane 5 (g=1, t=1) register 0 holds (1,2) and (1,3); register 1 holds
// (9,2) and (9,3); register 2 holds (1,10) and (1,11); register 4 repeats 0.
TEST(WmmaSemanticsTest, HandComputedAFragment) {
  CheckedInstruction a = Check("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];");
  absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(a);
  ASSERT_TRUE(fragment.ok()) << fragment.status();
  const MemoryImage memory = Iota16Global(1024);
  const LaneValues values = ValuesOf(ExecuteWmmaLoad(a, *fragment, memory, {{memory.global_base}, std::nullopt}));
  ASSERT_EQ(values.words.size(), 32u * values.words_per_lane);
  EXPECT_EQ(values.lane(5)[0], 18u | 19u << 16);
  EXPECT_EQ(values.lane(5)[1], 146u | 147u << 16);
  EXPECT_EQ(values.lane(5)[2], 26u | 27u << 16);
  EXPECT_EQ(values.lane(5)[4], values.lane(5)[0]);
  EXPECT_EQ(fragment->Provenance(5, 1, 16), (WmmaBitSource{wmma::kA, {9, 3}, 0}));
  EXPECT_EQ(fragment->Provenance(5, 1, 31), (WmmaBitSource{wmma::kA, {9, 3}, 15}));
}

// An explicit stride moves the rows apart but keeps the fragment: with
// stride 24, row 1 starts at element 24.
TEST(WmmaSemanticsTest, ExplicitStrideMovesRows) {
  CheckedInstruction a = Check("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], s;");
  const WmmaFragment fragment = *WmmaFragment::For(a);
  const MemoryImage memory = Iota16Global(2048);
  const LaneValues values = ValuesOf(ExecuteWmmaLoad(a, fragment, memory, {{memory.global_base}, 32}));
  EXPECT_EQ(values.lane(5)[0], 34u | 35u << 16);  // (1,2), (1,3) at 32 + 2
}

TEST(WmmaSemanticsTest, F64RegistersTakeTwoWords) {
  CheckedInstruction c = Check("wmma.load.c.sync.aligned.row.m8n8k4.f64 {d0, d1}, [p];");
  const WmmaFragment fragment = *WmmaFragment::For(c);
  EXPECT_EQ(fragment.register_bits(), 64);
  MemoryImage memory;
  memory.global.resize(8 * 64);
  for (int i = 0; i < 64; ++i) memory.global[8 * i] = static_cast<std::uint8_t>(i), memory.global[8 * i + 4] = 0xEE;
  const LaneValues values = ValuesOf(ExecuteWmmaLoad(c, fragment, memory, {{memory.global_base}, std::nullopt}));
  EXPECT_EQ(values.register_bits, 64);
  ASSERT_EQ(values.lane(0).size(), 4u);
  EXPECT_EQ(values.lane(0)[1], 0xEEu);  // the high word of register 0
}

TEST(WmmaSemanticsTest, UndefinedRuntimeConditions) {
  CheckedInstruction a = Check("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], s;");
  const WmmaFragment fragment = *WmmaFragment::For(a);
  const MemoryImage memory = Iota16Global(4096);
  const Undefined low = UndefinedOf(ExecuteWmmaLoad(a, fragment, memory, {{memory.global_base}, 8}));
  EXPECT_EQ(low.hazard, RuntimeHazard::kStrideBelowDefault);
  EXPECT_THAT(low.why, HasSubstr("stride 8 is below the default 16"));
  const Undefined misaligned = UndefinedOf(ExecuteWmmaLoad(a, fragment, memory, {{memory.global_base + 16}, std::nullopt}));
  EXPECT_EQ(misaligned.hazard, RuntimeHazard::kMisalignedAddress);
  EXPECT_THAT(misaligned.why, HasSubstr("not a multiple of the 32-byte fragment"));
  const Undefined stride = UndefinedOf(ExecuteWmmaLoad(a, fragment, memory, {{memory.global_base}, 24}));
  EXPECT_EQ(stride.hazard, RuntimeHazard::kMisalignedStride);
  EXPECT_THAT(stride.why, HasSubstr("stride 24 puts rows 48 bytes apart"));
  const Undefined outside = UndefinedOf(ExecuteWmmaLoad(a, fragment, memory, {{memory.global_base + 4096 - 32}, std::nullopt}));
  EXPECT_EQ(outside.hazard, RuntimeHazard::kAddressOutsideSpace);
}

// The gather copies whole bytes (WmmaFragment::copies), so every line of a
// sub-byte matrix must start on a whole byte: each stride the model takes,
// default or wider, on every target, is a whole number of bytes. A stride
// that is not, past the default, is undefined (misaligned).
TEST(WmmaSemanticsTest, EveryStrideTheModelTakesStartsLinesOnWholeBytes) {
  int checked = 0;
  for (const TargetInfo& info : AllTargets()) {
    const PtxVersion ptx = info.withdrawn.has_value() ? info.introduced : NewestPtxVersion();
    for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), ptx, info.target)) {
      const std::optional<CheckedInstruction> instruction =
          StandardInstruction(wmma::Spec(), qualifiers, ptx, info.target);
      ASSERT_TRUE(instruction.has_value());
      absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(*instruction);
      if (!fragment.ok() || fragment->element_bits() >= 8 || !instruction->signature().stride) continue;
      ++checked;
      MemoryImage memory;
      memory.global.assign(1 << 16, 0);
      memory.shared = memory.global;
      const std::uint64_t p = instruction->signature().state_space == StateSpace::kShared ? 0 : memory.global_base;
      const auto first = static_cast<std::uint32_t>(WmmaDefaultStride(qualifiers));
      for (std::uint32_t stride = first; stride < first + 256; ++stride) {
        if (!std::holds_alternative<LaneValues>(ExecuteWmmaLoad(*instruction, *fragment, memory, {{p}, stride})))
          continue;
        EXPECT_EQ(stride * fragment->element_bits() % 8, 0u) << PrintForm(instruction->form()) << " stride " << stride;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

// The spec layer, over every legal form with a known layout on every
// target: the fragment covers the matrix equally often, and is the same at
// the default or a wider stride, in .global or .shared, through a generic or
// a named address. Where the layout's source gives one layout for both
// storage orders, a .row load of M and a .col load of M-transpose agree too;
// Volta's A and B are the exception (docs/spec-decisions.md wmma.layout.*: their fragments depend on
// .row/.col, which PTX allows, 2.1).
class WmmaSpecLayerTest : public ::testing::TestWithParam<TargetInfo> {};

TEST_P(WmmaSpecLayerTest, HoldsForEveryLegalFormWithAKnownLayout) {
  const Target target = GetParam().target;
  // A withdrawn target (sm_101, renamed sm_110) is checked where it existed.
  const PtxVersion ptx = GetParam().withdrawn.has_value() ? GetParam().introduced : NewestPtxVersion();
  std::mt19937_64 random(7);
  int checked = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(wmma::Spec(), ptx, target)) {
    const std::optional<CheckedInstruction> standard = StandardInstruction(wmma::Spec(), qualifiers, ptx, target);
    ASSERT_TRUE(standard.has_value());
    const CheckedInstruction& instruction = *standard;
    const OperandSignature& signature = instruction.signature();
    absl::StatusOr<WmmaFragment> fragment = WmmaFragment::For(instruction);
    if (!fragment.ok()) {
      ASSERT_EQ(fragment.status().code(), absl::StatusCode::kNotFound) << fragment.status();
      continue;  // no layout known on this target
    }
    ++checked;
    const MatrixCoord dims = WmmaMatrixDims(qualifiers);
    EXPECT_THAT(FragmentCoverageViolations(dims.row, dims.col, fragment->elements(),
                                           [&](int lane, int x) { return fragment->Element(lane, x); }),
                ::testing::IsEmpty());
    const int bits = fragment->element_bits();
    std::vector<std::uint64_t> matrix(dims.row * dims.col);
    for (std::uint64_t& element : matrix) element = bits == 64 ? random() : random() & ((1ull << bits) - 1);
    // The same logical matrix, stored as this form's layout says, and as the
    // other layout says (a .row M is a .col M-transpose in memory).
    QualifierSet other = qualifiers;
    other.Set(wmma::kLayout, qualifiers.Has(wmma::kLayout, wmma::kRow) ? wmma::kCol : wmma::kRow);
    const std::uint32_t wide = WmmaAlignedStrideAbove(qualifiers, signature, WmmaDefaultStride(qualifiers));
    std::vector<LaneValues> results;
    for (const StateSpace space : {StateSpace::kGlobal, StateSpace::kShared}) {
      for (const std::uint32_t stride : {static_cast<std::uint32_t>(WmmaDefaultStride(qualifiers)), wide}) {
        MemoryImage memory;
        std::vector<std::uint8_t>& bytes = space == StateSpace::kShared ? memory.shared : memory.global;
        bytes.assign(WmmaExtentBytes(qualifiers, stride) + 256, 0);
        StoreWmmaMatrix(qualifiers, stride, matrix, absl::MakeSpan(bytes));
        const std::uint64_t base = 256 - 256 % WmmaFragmentBytes(qualifiers, signature);
        std::rotate(bytes.begin(), bytes.end() - base, bytes.end());
        const std::uint64_t in_space = space == StateSpace::kShared ? base : memory.global_base + base;
        const std::uint64_t generic = space == StateSpace::kShared ? memory.shared_generic_base + base : in_space;
        const bool named = signature.state_space != StateSpace::kGeneric;
        if (named && signature.state_space != space) continue;
        results.push_back(ValuesOf(ExecuteWmmaLoad(instruction, *fragment, memory,
                                                   {{named ? in_space : generic}, signature.stride ? std::optional(stride) : std::nullopt})));
        if (!signature.stride) break;
      }
    }
    ASSERT_FALSE(results.empty());
    for (const LaneValues& result : results) EXPECT_EQ(result, results[0]) << PrintForm(instruction.form());
    // Each element is the matrix element its layout names.
    EXPECT_EQ(results[0], FragmentOf(*fragment, matrix)) << PrintForm(instruction.form());
    // A .col load of the transposed storage gives the same fragment.
    if (fragment->entry().layout.has_value()) continue;  // Volta A and B: one layout per storage order
    const std::optional<CheckedInstruction> transposed = StandardInstruction(wmma::Spec(), other, ptx, target);
    if (!transposed.has_value()) continue;  // sub-byte A and B have one layout only
    MemoryImage memory;
    memory.global.assign(WmmaExtentBytes(other, WmmaDefaultStride(other)), 0);
    StoreWmmaMatrix(other, WmmaDefaultStride(other), matrix, absl::MakeSpan(memory.global));
    memory.shared = memory.global;
    const std::uint64_t address = signature.state_space == StateSpace::kShared ? 0 : memory.global_base;
    absl::StatusOr<WmmaFragment> other_fragment = WmmaFragment::For(*transposed);
    ASSERT_TRUE(other_fragment.ok());
    EXPECT_EQ(ValuesOf(ExecuteWmmaLoad(*transposed, *other_fragment, memory, {{address}, std::nullopt})), results[0])
        << PrintForm(instruction.form());
  }
  // Every target from sm_70 to sm_90a has sourced or measured layouts; no
  // source speaks for sm_100 and later yet.
  if (target.sm <= 90) EXPECT_GT(checked, 0) << target.Name();
}

INSTANTIATE_TEST_SUITE_P(AllTargets, WmmaSpecLayerTest, ::testing::ValuesIn(AllTargets()),
                         [](const ::testing::TestParamInfo<TargetInfo>& info) { return info.param.target.Name(); });

// Volta's A fragment really depends on the storage order: a .row load of M
// and a .col load of M-transpose differ (docs/spec-decisions.md wmma.layout.*, hand-copied: lane 0
// .row holds row 0, columns 0..15; .col holds rows 0..3, columns 0, 4, 8, 12).
TEST(WmmaSemanticsTest, VoltaAFragmentsDependOnTheStorageOrder) {
  const CheckedInstruction row =
      Check("wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];", "sm_70");
  const CheckedInstruction col =
      Check("wmma.load.a.sync.aligned.col.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];", "sm_70");
  const WmmaFragment row_fragment = *WmmaFragment::For(row);
  const WmmaFragment col_fragment = *WmmaFragment::For(col);
  EXPECT_EQ(row_fragment.Element(0, 5), (MatrixCoord{0, 5}));
  EXPECT_EQ(col_fragment.Element(0, 5), (MatrixCoord{1, 4}));
  EXPECT_FALSE(row_fragment.entry().layout == std::nullopt);
}

}  // namespace
}  // namespace matload
