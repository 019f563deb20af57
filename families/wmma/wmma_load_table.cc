#include "families/wmma/wmma_load_table.h"

#include "families/wmma/wmma_layouts.h"
#include "reference/register_class.h"
#include "reference/runtime_ub.h"
#include "reference/table_builders.h"

namespace matload::wmma {
namespace {

// RefineCondition gives every runtime condition the numbers of wmma.load's
// storage rules (PTX 9.0 9.7.14.4.2): the fragment alignment, the default
// stride and element size, and the spaces p may point into.
void RefineCondition(const QualifierSet& qualifiers, const OperandSignature& signature, RuntimeCondition& condition) {
  condition.alignment_bytes = WmmaFragmentBytes(qualifiers, signature);
  condition.default_stride_elements = WmmaDefaultStride(qualifiers);
  condition.element_bits = ElementBits(static_cast<Type>(qualifiers.Get(kType)));
  condition.allowed_spaces = {StateSpace::kGlobal, StateSpace::kShared};
}

constexpr SpecRef kSyntax{"wmma.syntax", "PTX 9.0 9.7.14.4.3 wmma.load, Syntax"};
constexpr SpecRef kSubByteLayout{"wmma.subbyte-layout", "PTX 9.0 9.7.14.4.3 wmma.load, Syntax: sub-byte and "
                                                        "single-bit .a is .row, .b is .col"};
constexpr SpecRef kFragments{"wmma.fragments", "PTX 9.0 9.7.14.4.1 Matrix Fragments for WMMA"};
constexpr SpecRef kF64Accumulator{
    "wmma.fragments.f64-c",
    "PTX 9.0 9.7.14.4.1 lists 1 x .f64 for the m8n8k4 accumulator, but 64 elements over 32 threads need 2, as "
    "the wmma.mma examples and ptxas 13.0.88 agree (docs/spec-decisions.md wmma.fragments.f64-c)",
    RuleSource::kMeasured};
constexpr SpecRef kAlignedRequired{"wmma.aligned-required", "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: "
                                                            ".aligned is required from PTX ISA 6.3"};
constexpr SpecRef kAlignedVersion{
    "wmma.ptx.aligned",
    "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: .aligned is implicit below PTX ISA 6.3; written there, ptxas "
    "12.9.86 rejects it (reports/spec-measurements/wmma-aligned-below-ptx-6.3)",
    RuleSource::kMeasured};
constexpr SpecRef kIntroduced{"wmma.ptx.introduced", "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: 6.0"};
constexpr SpecRef kTallWideVersion{"wmma.ptx.m8n32k16-m32n8k16",
                                   "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: .m8n32k16 and .m32n8k16 in 6.1"};
constexpr SpecRef kIntegerVersion{"wmma.ptx.integer", "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: integer, "
                                                      "sub-byte and single-bit wmma in 6.3"};
constexpr SpecRef kNewShapesVersion{"wmma.ptx.m8n8k4-m16n16k8",
                                    "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: .m8n8k4 and .m16n16k8 in 7.0"};
constexpr SpecRef kAltFloatVersion{"wmma.ptx.f64-bf16-tf32", "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: double "
                                                             "and alternate floating point in 7.0"};
constexpr SpecRef kCtaVersion{"wmma.ptx.shared-cta", "PTX 9.0 9.7.14.4.3 wmma.load, PTX ISA Notes: ::cta in 7.8"};
constexpr SpecRef kTargetFloat{"wmma.target.float", "PTX 9.0 9.7.14.4.3 wmma.load, Target ISA Notes: floating "
                                                    "point wmma requires sm_70"};
constexpr SpecRef kTargetInteger{"wmma.target.integer", "PTX 9.0 9.7.14.4.3 wmma.load, Target ISA Notes: integer "
                                                        "wmma requires sm_72"};
constexpr SpecRef kTargetSubByte{"wmma.target.subbyte", "PTX 9.0 9.7.14.4.3 wmma.load, Target ISA Notes: sub-byte "
                                                        "and single-bit wmma require sm_75"};
constexpr SpecRef kTargetAltFloat{"wmma.target.f64-bf16-tf32", "PTX 9.0 9.7.14.4.3 wmma.load, Target ISA Notes: "
                                                               "double and alternate floating point require sm_80"};
constexpr SpecRef kOperands{"wmma.operands", "PTX 9.0 9.7.14.4.3 wmma.load, Syntax: r, [p] {, stride}"};
constexpr SpecRef kStrideUb{"wmma.ub.stride-below-default",
                            "PTX 9.0 9.7.14.4.3 wmma.load, Description: a stride below the default is undefined"};
constexpr SpecRef kAlignUb{"wmma.ub.alignment", "PTX 9.0 9.7.14.4.2 Matrix Storage for WMMA: every row/column "
                                                "start aligned to the fragment size"};
constexpr SpecRef kSpaceUb{"wmma.ub.generic-space", "PTX 9.0 9.7.14.4.3 wmma.load, Description: generic addresses "
                                                    "must point to .global or .shared"};
constexpr SpecRef kUniformUb{"wmma.ub.uniform", "PTX 9.0 9.7.14.4.3 wmma.load, Description: same qualifiers, p and "
                                                "stride in every thread; no exited thread"};

FamilySpec Build() {
  FamilySpec spec{.family = Family::kWmmaLoad,
                  .mnemonic = {"wmma", "load"},
                  .section = {"wmma.load", "PTX 9.0 9.7.14.4.3 wmma.load"}};
  spec.axes = {
      {.name = "matrix", .spellings = {".a", ".b", ".c"}, .mandatory = true,
       .placement = Placement::kRightAfterMnemonic, .ref = kSyntax},
      PresenceAxis("sync", ".sync", /*mandatory=*/true, kSyntax),
      PresenceAxis("aligned", ".aligned", /*mandatory=*/false, kSyntax),
      {.name = "layout", .spellings = {".row", ".col"}, .mandatory = true, .ref = kSyntax},
      {.name = "shape",
       .spellings = {".m16n16k16", ".m8n32k16", ".m32n8k16", ".m16n16k8", ".m8n8k4", ".m8n8k32", ".m8n8k128"},
       .mandatory = true, .ref = kSyntax},
      {.name = "ss", .spellings = {".global", ".shared", ".shared::cta"}, .ref = kSyntax},
      {.name = "type", .spellings = {".f16", ".f32", ".s32", ".s8", ".u8", ".bf16", ".tf32", ".f64", ".s4", ".u4", ".b1"},
       .mandatory = true, .ref = kSyntax},
  };
  const ReasonCode kCombination = ReasonCode::kQualifierCombination;
  spec.constraints = {
      {{}, {{Present(kAligned)}}, ReasonCode::kMissingQualifier, ".aligned is required from PTX ISA 6.3",
       kAlignedRequired, {6, 3}},
      {{{OneOf(kMatrix, {kA}), OneOf(kType, {kS4, kU4, kB1})}}, {{OneOf(kLayout, {kRow})}}, kCombination,
       "sub-byte and single-bit .a must be .row", kSubByteLayout},
      {{{OneOf(kMatrix, {kB}), OneOf(kType, {kS4, kU4, kB1})}}, {{OneOf(kLayout, {kCol})}}, kCombination,
       "sub-byte and single-bit .b must be .col", kSubByteLayout},
  };
  const std::initializer_list<int> kSixteenWide = {kM16n16k16, kM8n32k16, kM32n8k16};
  spec.version_gates = {
      {{}, {6, 0}, "wmma.load", kIntroduced},
      {{{Present(kAligned)}}, {6, 3}, ".aligned on wmma", kAlignedVersion},
      {{{OneOf(kShape, {kM8n32k16, kM32n8k16})}}, {6, 1}, "shapes .m8n32k16 and .m32n8k16", kTallWideVersion},
      {{{OneOf(kType, {kS8, kU8, kS4, kU4, kB1})}}, {6, 3}, "integer, sub-byte and single-bit wmma", kIntegerVersion},
      {{{OneOf(kType, {kS32})}}, {6, 3}, "integer accumulators", kIntegerVersion},
      {{{OneOf(kShape, {kM8n8k4, kM16n16k8})}}, {7, 0}, "shapes .m8n8k4 and .m16n16k8", kNewShapesVersion},
      {{{OneOf(kType, {kBf16, kTf32, kF64})}}, {7, 0}, "double and alternate floating point", kAltFloatVersion},
      {{{OneOf(kStateSpace, {kSharedCta})}}, {7, 8}, ".shared::cta", kCtaVersion},
  };
  spec.target_gates = {
      {{}, {OnionFrom("sm_70")}, "floating point wmma", kTargetFloat},
      {{{OneOf(kType, {kS8, kU8})}}, {OnionFrom("sm_72")}, "integer wmma", kTargetInteger},
      {{{OneOf(kType, {kS32}), OneOf(kShape, kSixteenWide)}}, {OnionFrom("sm_72")}, "integer wmma", kTargetInteger},
      {{{OneOf(kShape, {kM8n8k32, kM8n8k128})}}, {OnionFrom("sm_75")}, "sub-byte and single-bit wmma",
       kTargetSubByte},
      {{{OneOf(kType, {kBf16, kTf32, kF64})}}, {OnionFrom("sm_80")}, "double and alternate floating point wmma",
       kTargetAltFloat},
      {{{OneOf(kShape, {kM16n16k8, kM8n8k4})}}, {OnionFrom("sm_80")}, "double and alternate floating point wmma",
       kTargetAltFloat},
  };
  // The fragment table: which (matrix, shape, type) exist, and how many
  // registers of which class each loads.
  using RC = RegisterClass;
  auto row = [](std::initializer_list<int> matrices, std::initializer_list<int> shapes,
                std::initializer_list<int> types, int registers, RC cls, SpecRef ref = kFragments) {
    return FragmentRow{{{OneOf(kMatrix, matrices), OneOf(kShape, shapes), OneOf(kType, types)}}, registers, cls, ref};
  };
  spec.fragments = {
      row({kA, kB}, kSixteenWide, {kF16}, 8, RC::kHalf2),
      row({kC}, kSixteenWide, {kF16}, 4, RC::kHalf2),
      row({kC}, kSixteenWide, {kF32}, 8, RC::kFloat32),
      row({kA}, {kM16n16k16}, {kS8, kU8}, 2, RC::kInt32),
      row({kB}, {kM16n16k16}, {kS8, kU8}, 2, RC::kInt32),
      row({kA}, {kM8n32k16}, {kS8, kU8}, 1, RC::kInt32),
      row({kB}, {kM8n32k16}, {kS8, kU8}, 4, RC::kInt32),
      row({kA}, {kM32n8k16}, {kS8, kU8}, 4, RC::kInt32),
      row({kB}, {kM32n8k16}, {kS8, kU8}, 1, RC::kInt32),
      row({kC}, kSixteenWide, {kS32}, 8, RC::kInt32),
      row({kA}, {kM16n16k16}, {kBf16}, 4, RC::kBits32),
      row({kB}, {kM16n16k16}, {kBf16}, 4, RC::kBits32),
      row({kA}, {kM8n32k16}, {kBf16}, 2, RC::kBits32),
      row({kB}, {kM8n32k16}, {kBf16}, 8, RC::kBits32),
      row({kA}, {kM32n8k16}, {kBf16}, 8, RC::kBits32),
      row({kB}, {kM32n8k16}, {kBf16}, 2, RC::kBits32),
      row({kA, kB}, {kM16n16k8}, {kTf32}, 4, RC::kBits32),
      row({kC}, {kM16n16k8}, {kF32}, 8, RC::kFloat32),
      row({kA, kB}, {kM8n8k4}, {kF64}, 1, RC::kFloat64),
      row({kC}, {kM8n8k4}, {kF64}, 2, RC::kFloat64, kF64Accumulator),
      row({kA, kB}, {kM8n8k32}, {kS4, kU4}, 1, RC::kAny32),
      row({kC}, {kM8n8k32}, {kS32}, 2, RC::kInt32),
      row({kA, kB}, {kM8n8k128}, {kB1}, 1, RC::kAny32),
      row({kC}, {kM8n8k128}, {kS32}, 2, RC::kInt32),
  };
  spec.fragment_table_ref = kFragments;
  spec.operands = {.address = AddressKind::kMemory,
                   .state_space_axis = kStateSpace,
                   .state_space_of_value = {StateSpace::kGlobal, StateSpace::kShared, StateSpace::kShared},
                   .layout = {{OperandRole::kDestinationVector, "destination", std::nullopt},
                              {OperandRole::kAddress, "address", std::nullopt},
                              {OperandRole::kStride, "stride", std::nullopt, /*optional=*/true}},
                   .ref = kOperands};
  spec.runtime_rules = {
      {RuntimeHazard::kStrideBelowDefault, {}, {}, "a stride below the default leading dimension", kStrideUb},
      {RuntimeHazard::kMisalignedAddress, {}, {}, "p not aligned to the fragment size", kAlignUb},
      {RuntimeHazard::kMisalignedStride, {}, {}, "a row/column start not aligned to the fragment size", kAlignUb},
      {RuntimeHazard::kAddressOutsideSpace, {{Absent(kStateSpace)}}, {},
       "a generic address outside .global and .shared", kSpaceUb},
      {RuntimeHazard::kNonUniformOperands, {}, {}, "p or stride differs between lanes", kUniformUb},
      {RuntimeHazard::kDivergentExecution, {}, {}, "not every lane executes it with the same qualifiers", kUniformUb},
  };
  spec.refine_runtime_condition = RefineCondition;
  for (const WmmaLayoutEntry& layout : WmmaLayoutTable()) spec.model_sources.push_back(layout.source);
  return spec;
}

}  // namespace

const FamilySpec& Spec() {
  static const FamilySpec* const kSpec = new FamilySpec(Build());
  return *kSpec;
}

Geometry ShapeGeometry(Shape shape) {
  // Indexed by Shape; the numbers are the shape's name.
  static constexpr Geometry kGeometry[] = {{16, 16, 16}, {8, 32, 16}, {32, 8, 16}, {16, 16, 8},
                                           {8, 8, 4},    {8, 8, 32},  {8, 8, 128}};
  return kGeometry[shape];
}

int ElementBits(Type type) {
  // Indexed by Type: .f16 .f32 .s32 .s8 .u8 .bf16 .tf32 .f64 .s4 .u4 .b1.
  static constexpr int kBits[] = {16, 32, 32, 8, 8, 16, 32, 64, 4, 4, 1};
  return kBits[type];
}

}  // namespace matload::wmma

namespace matload {

int WmmaDefaultStride(const QualifierSet& qualifiers) {
  const wmma::Geometry geometry = wmma::ShapeGeometry(static_cast<wmma::Shape>(qualifiers.Get(wmma::kShape)));
  const bool row_major = qualifiers.Has(wmma::kLayout, wmma::kRow);
  // A is MxK, B is KxN, C is MxN; row-major rows hold the second dimension.
  switch (qualifiers.Get(wmma::kMatrix)) {
    case wmma::kA: return row_major ? geometry.k : geometry.m;
    case wmma::kB: return row_major ? geometry.n : geometry.k;
    default: return row_major ? geometry.n : geometry.m;
  }
}

int WmmaFragmentBytes(const QualifierSet& qualifiers, const OperandSignature& signature) {
  return signature.destination_count * RegisterClassBits(signature.destination_class) / 8;
}

std::uint32_t WmmaAlignedStrideAbove(const QualifierSet& qualifiers, const OperandSignature& signature,
                                     std::uint32_t stride) {
  const int bits = wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType)));
  const std::uint32_t unit = 8 * WmmaFragmentBytes(qualifiers, signature) / bits;  // elements per fragment
  return (stride / unit + 1) * unit;
}

}  // namespace matload
