#include "families/ldmatrix/ldmatrix_table.h"

#include "reference/inferred_rules.h"
#include "reference/runtime_ub.h"
#include "reference/table_builders.h"

namespace matload::ldmatrix {
namespace {

// ldmatrix .m16n16: the address table shows eight address lanes per matrix;
// a 16-row matrix needs sixteen, and the model takes lanes 16m..16m+15.
constexpr SpecRef kInferredM16n16AddressLanes{
    "ldmatrix.infer.m16n16-address-lanes",
    "inferred from PTX 9.0 9.7.14.5.15's address table (lanes 8m..8m+7 give matrix m's rows) extended to 16 rows, "
    "and CuTe SM100_U8x8_LDSM_T; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .m16n16: Figure 105's text says each lane holds "4 consecutive
// columns across 2 rows"; which two rows (r and r+8) is the model's choice.
constexpr SpecRef kInferredM16n16RowPairing{
    "ldmatrix.infer.m16n16-row-pairing",
    "inferred from PTX 9.0 9.7.14.5.15 Figure 105's caption text and CuTe SM100_U8x8_LDSM_T: register 2m holds row "
    "lane/4, register 2m+1 row lane/4+8; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .src_fmt: "16 elements with N bits padding" does not say where
// the padding sits or how the elements are packed.
constexpr SpecRef kInferredDecompressPadding{
    "ldmatrix.infer.decompress-padding",
    "inferred from PTX 9.0 9.7.14.5.15's format table ('16 elements ... padding') and TMA's 16U4_ALIGN16B/"
    "16U6_ALIGN16B: elements packed LSB first from the row's first byte, padding at the high bytes; "
    "docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .src_fmt: "8-bit element will have 4 bits or 2 bits of padding"
// does not say which bits.
constexpr SpecRef kInferredDecompressExtension{
    "ldmatrix.infer.decompress-zero-extension",
    "inferred from CUTLASS mma_traits_sm120 (fp4_shift moves the value from bits [3:0]): each value zero-extended "
    "into the low bits of its byte; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .m8n16/.m16n16: the 16-byte natural alignment is stated for 8x8
// matrices only.
constexpr SpecRef kInferredWideRowAlignment{
    "ldmatrix.infer.row-alignment-m8n16-m16n16",
    "inferred: PTX 9.0 9.7.14.5.15 states 16-byte natural alignment 'when reading 8x8 matrices'; the model applies "
    "it to the 16-byte rows of .m8n16 and .m16n16; docs/spec-decisions.md",
    RuleSource::kInferred};

// ldmatrix .s8.s4: "a sequence of signed 4-bit elements" says neither how a
// row is packed nor which nibble comes first; an H200 (sm_90a) says.
constexpr SpecRef kMeasuredS4Packing{
    "ldmatrix.s4-packing",
    "measured on an NVIDIA H200 (sm_90a, driver 580.159.04) with ptxas 13.5.37 cubins: every register of 589,824 "
    "executions of the 9 .s8.s4 forms matches an 8x16 row of 16 elements packed in 8 bytes, element 2k in bits 3:0 "
    "of byte k and 2k+1 in bits 7:4, each sign-extended, laid out as Figure 109 lays out .m8n16; "
    "reports/conform/h200-s8s4-2026-11-27, docs/spec-decisions.md",
    RuleSource::kMeasured};
// ldmatrix .s8.s4: the text gives no alignment for its 8-byte rows; the
// model keeps the 16 bytes every other ldmatrix row needs.
constexpr SpecRef kInferredS4RowAlignment{
    "ldmatrix.infer.s4-row-alignment",
    "inferred: PTX 9.4 9.7.16.5.15 states natural alignment for 8x8 matrices only; the model requires 16-byte row "
    "addresses for .s8.s4 as for every ldmatrix row; docs/spec-decisions.md",
    RuleSource::kInferred};

// Inferences says which of the rules above a form's modelled execution
// rests on (FamilySpec::inferences).
ModelInferences Inferences(const QualifierSet& q) {
  ModelInferences inferences;
  const auto shape = static_cast<Shape>(q.Get(kShape));
  if (shape == kM16n16) {
    inferences.every_register = {kInferredM16n16AddressLanes, kInferredM16n16RowPairing};
  }
  if (q.Present(kSrcFmt)) {
    inferences.every_register.push_back(kInferredDecompressPadding);
    inferences.every_register.push_back(kInferredDecompressExtension);
  }
  if (q.Present(kCtype)) {
    inferences.definedness = {kInferredS4RowAlignment};
  } else if (shape != kM8n8) {
    inferences.definedness = {kInferredWideRowAlignment};
  }
  return inferences;
}

// RefineCondition gives a runtime condition the lanes whose row addresses
// the form uses and the row alignment (PTX 9.0 9.7.14.5.15).
void RefineCondition(const QualifierSet& qualifiers, const OperandSignature& signature, RuntimeCondition& condition) {
  condition.alignment_bytes = kRowBytes;
  condition.allowed_spaces = {StateSpace::kShared};
  condition.address_lanes = LdmatrixAddressLanes(qualifiers);
}

constexpr absl::string_view kSection = "PTX 9.0 9.7.14.5.15 ldmatrix";
constexpr SpecRef kSyntax{"ldmatrix.syntax", "PTX 9.0 9.7.14.5.15 ldmatrix, Syntax"};
constexpr SpecRef kShapeTable{"ldmatrix.shape-table", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: shape table"};
constexpr SpecRef kFormatTable{"ldmatrix.format-table",
                               "PTX 9.0 9.7.14.5.15 ldmatrix, Description: 6-bit/4-bit load table"};
constexpr SpecRef kNumRule{"ldmatrix.num-m16n16", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: "
                                                  "\"When .shape is .m16n16, only .x1 and .x2 are valid\""};
constexpr SpecRef kTransRule{"ldmatrix.trans-m16n16", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: "
                                                      "\"for 16x16 matrices, .trans is mandatory\""};
constexpr SpecRef kNoTransRule{"ldmatrix.trans-m8n16", "PTX 9.0 9.7.14.5.15 ldmatrix, Syntax: the .m8n16 "
                                                       "form has no {.trans}"};
constexpr SpecRef kRegisterRule{"ldmatrix.destination", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: 1, 2 or 4 "
                                                        "32-bit registers per .num; two per 16x16 matrix"};
constexpr SpecRef kFormatOrder{"ldmatrix.format-order",
                               "Syntax writes .dst_fmt.src_fmt; ptxas 13.0.88 rejects .src_fmt before .dst_fmt",
                               RuleSource::kMeasured};
constexpr SpecRef kIntroduced{"ldmatrix.ptx.introduced", "PTX 9.0 9.7.14.5.15 ldmatrix, PTX ISA Notes: 6.5"};
constexpr SpecRef kCtaVersion{"ldmatrix.ptx.shared-cta", "PTX 9.0 9.7.14.5.15 ldmatrix, PTX ISA Notes: ::cta in 7.8"};
constexpr SpecRef kNewShapesVersion{"ldmatrix.ptx.m16n16-m8n16",
                                    "PTX 9.0 9.7.14.5.15 ldmatrix, PTX ISA Notes: .m16n16, .m8n16 in 8.6"};
constexpr SpecRef kB8Version{"ldmatrix.ptx.b8", "PTX 9.0 9.7.14.5.15 ldmatrix, PTX ISA Notes: .b8 in 8.6"};
constexpr SpecRef kFormatVersion{"ldmatrix.ptx.formats",
                                 "PTX 9.0 9.7.14.5.15 ldmatrix, PTX ISA Notes: .src_fmt, .dst_fmt in 8.6"};
constexpr SpecRef kTargetBase{"ldmatrix.target.sm75",
                              "PTX 9.0 9.7.14.5.15 ldmatrix, Target ISA Notes: sm_75 or higher"};
constexpr SpecRef kTargetB8{"ldmatrix.target.b8", "PTX 9.0 9.7.14.5.15 ldmatrix, Target ISA Notes: type .b8"};
constexpr SpecRef kTargetFormats{"ldmatrix.target.formats",
                                 "PTX 9.0 9.7.14.5.15 ldmatrix, Target ISA Notes: .src_fmt, .dst_fmt"};
constexpr SpecRef kS4Syntax{"ldmatrix.syntax.s8-s4",
                            "PTX 9.4 9.7.16.5.15 ldmatrix, Syntax: ldmatrix.sync.aligned.m8n16.num{.ss}.dtype.ctype"};
constexpr SpecRef kS4Order{"ldmatrix.s8-s4-order",
                           "Syntax writes .dtype.ctype (.s8.s4); ptxas 13.5.37 rejects .s4.s8 (measured)",
                           RuleSource::kMeasured};
constexpr SpecRef kS4Table{"ldmatrix.s8-s4-table",
                           "PTX 9.4 9.7.16.5.15 ldmatrix, Description: 4-bit load "
                           "expanded to 8-bit table (.s4, .m8n16, .s8)"};
constexpr SpecRef kS4Version{"ldmatrix.ptx.s8-s4", "PTX 9.4 9.7.16.5.15 ldmatrix, PTX ISA Notes: .s8.s4 in 9.4"};
constexpr SpecRef kS4Targets{"ldmatrix.target.s8-s4",
                             "PTX 9.4 9.7.16.5.15 ldmatrix, Target ISA Notes: types .s8.s4 on sm_90a and sm_100f, "
                             "sm_110f, sm_120f or higher in the same family"};
// The shapes note (.m8n16 from sm_100a) and the .s8.s4 note (sm_90a) cannot
// both hold for .m8n16.s8.s4 on sm_90a; the .s8.s4 note names the form, so
// it governs it (docs/spec-decisions.md ldmatrix.target.s8-s4).
constexpr SpecRef kTargetNewShapes{
    "ldmatrix.target.m16n16-m8n16",
    "PTX 9.0 9.7.14.5.15 ldmatrix, Target ISA Notes: shapes .m16n16, .m8n16; for .m8n16.s8.s4 the PTX 9.4 .s8.s4 "
    "note governs (docs/spec-decisions.md ldmatrix.target.s8-s4)"};
constexpr SpecRef kOperands{"ldmatrix.operands", "PTX 9.0 9.7.14.5.15 ldmatrix, Syntax: r, [p]"};
constexpr SpecRef kGenericUb{"ldmatrix.ub.generic-not-shared", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: "
                                                               "generic address outside .shared is undefined"};
constexpr SpecRef kAlignUb{"ldmatrix.ub.row-alignment", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: row addresses "
                                                        "of 8x8 matrices must be naturally aligned (16 bytes)"};
constexpr SpecRef kUnusedLaneUb{"ldmatrix.ub.unused-lanes-sm75", "PTX 9.0 9.7.14.5.15 ldmatrix, Note: for sm_75 or "
                                                                 "below all threads must contain valid addresses"};
constexpr SpecRef kDivergenceUb{"ldmatrix.ub.divergence", "PTX 9.0 9.7.14.5.15 ldmatrix, Description: .aligned; "
                                                          "same qualifiers; no exited thread"};

// The targets of the new shapes, the .b8 type and the formats: the Target ISA
// Notes list the same targets for all three.
std::vector<TargetClause> NewLoadTargets() {
  return {Exactly("sm_100a"), Exactly("sm_101a"), Exactly("sm_110a"), Exactly("sm_120a"),
          FamilyFrom("sm_100f", {8, 8}), FamilyFrom("sm_101f", {8, 8}), FamilyFrom("sm_120f", {8, 8}),
          FamilyFrom("sm_110f")};
}

FamilySpec Build() {
  FamilySpec spec{.family = Family::kLdmatrix, .mnemonic = {"ldmatrix"}, .section = {"ldmatrix", kSection}};
  spec.axes = {
      PresenceAxis("sync", ".sync", /*mandatory=*/true, kSyntax),
      PresenceAxis("aligned", ".aligned", /*mandatory=*/true, kSyntax),
      {.name = "shape", .spellings = {".m8n8", ".m16n16", ".m8n16"}, .mandatory = true, .ref = kSyntax},
      {.name = "num", .spellings = {".x1", ".x2", ".x4"}, .mandatory = true, .ref = kSyntax},
      PresenceAxis("trans", ".trans", /*mandatory=*/false, kSyntax),
      {.name = "ss", .spellings = {".shared", ".shared::cta"}, .ref = kSyntax},
      {.name = "type", .spellings = {".b16", ".b8"}, .ref = kSyntax},
      {.name = "dst_fmt", .spellings = {".b8x16"}, .ref = kSyntax},
      {.name = "src_fmt",
       .spellings = {".b6x16_p32", ".b4x16_p64"},
       .placement = Placement::kAfterAxis,
       .after_axis = kDstFmt,
       .ref = kFormatOrder},
      {.name = "dtype", .spellings = {".s8"}, .ref = kS4Syntax},
      {.name = "ctype",
       .spellings = {".s4"},
       .placement = Placement::kAfterAxis,
       .after_axis = kDtype,
       .ref = kS4Order},
  };
  const ReasonCode kCombination = ReasonCode::kQualifierCombination;
  spec.constraints = {
      {{{Absent(kType), Absent(kDtype), Absent(kCtype)}},
       {{Present(kDstFmt), Present(kSrcFmt)}},
       ReasonCode::kMissingQualifier,
       "needs a .type, a .dst_fmt.src_fmt pair or .s8.s4",
       kSyntax},
      {{{Present(kType)}},
       {{Absent(kDstFmt), Absent(kSrcFmt), Absent(kDtype), Absent(kCtype)}},
       kCombination,
       ".type, .dst_fmt/.src_fmt and .dtype/.ctype are alternatives",
       kSyntax},
      {{{Present(kDtype)}},
       {{Present(kCtype), Absent(kDstFmt), Absent(kSrcFmt)}},
       kCombination,
       ".s8 goes with .s4 alone",
       kS4Syntax},
      {{{Present(kCtype)}}, {{Present(kDtype)}}, kCombination, ".s4 needs .s8", kS4Table},
      {{{Present(kCtype)}}, {{OneOf(kShape, {kM8n16})}}, kCombination, ".s8.s4 is for .m8n16 only", kS4Table},
      {{{Present(kDstFmt)}}, {{Present(kSrcFmt)}}, kCombination, ".dst_fmt needs a .src_fmt", kFormatTable},
      {{{Present(kSrcFmt)}}, {{Present(kDstFmt)}}, kCombination, ".src_fmt needs a .dst_fmt", kFormatTable},
      {{{OneOf(kShape, {kM8n8})}},
       {{OneOf(kType, {kB16})}},
       kCombination,
       ".m8n8 loads 16-bit elements (.b16)",
       kShapeTable},
      {{{OneOf(kShape, {kM16n16})}},
       {{NoneOf(kType, {kB16})}},
       kCombination,
       ".m16n16 loads 8-bit elements (.b8 or .b8x16 formats)",
       kShapeTable},
      {{{OneOf(kShape, {kM8n16})}},
       {{Absent(kType)}},
       kCombination,
       ".m8n16 loads only 6-bit or 4-bit data (.b8x16 formats)",
       kFormatTable},
      {{{OneOf(kShape, {kM16n16})}},
       {{OneOf(kNum, {kX1, kX2})}},
       kCombination,
       ".m16n16 allows only .x1 and .x2",
       kNumRule},
      {{{OneOf(kShape, {kM16n16})}}, {{Present(kTrans)}}, kCombination, ".m16n16 requires .trans", kTransRule},
      {{{OneOf(kShape, {kM8n16})}}, {{Absent(kTrans)}}, kCombination, ".m8n16 does not take .trans", kNoTransRule},
  };
  spec.version_gates = {
      {{}, {6, 5}, "ldmatrix", kIntroduced},
      {{{OneOf(kStateSpace, {kSharedCta})}}, {7, 8}, ".shared::cta", kCtaVersion},
      {{{OneOf(kShape, {kM16n16, kM8n16})}}, {8, 6}, "shapes .m16n16 and .m8n16", kNewShapesVersion},
      {{{OneOf(kType, {kB8})}}, {8, 6}, "type .b8", kB8Version},
      // Each qualifier of a pair is as new as the pair, written alone too: a
      // .src_fmt without .dst_fmt at PTX 7.8 is one that version lacks, which
      // a ptxas of that time calls an unknown modifier.
      {{{Present(kDstFmt)}}, {8, 6}, ".dst_fmt/.src_fmt", kFormatVersion},
      {{{Present(kSrcFmt), Absent(kDstFmt)}}, {8, 6}, ".dst_fmt/.src_fmt", kFormatVersion},
      {{{Present(kCtype)}}, {9, 4}, "types .s8.s4", kS4Version},
      {{{Present(kDtype), Absent(kCtype)}}, {9, 4}, "types .s8.s4", kS4Version},
  };
  spec.target_gates = {
      {{}, {OnionFrom("sm_75")}, "ldmatrix", kTargetBase},
      {{{OneOf(kShape, {kM16n16, kM8n16}), Absent(kCtype)}},
       NewLoadTargets(),
       "shapes .m16n16 and .m8n16",
       kTargetNewShapes},
      {{{OneOf(kType, {kB8})}}, NewLoadTargets(), "type .b8", kTargetB8},
      {{{Present(kDstFmt)}}, NewLoadTargets(), ".dst_fmt/.src_fmt", kTargetFormats},
      {{{Present(kCtype)}},
       {Exactly("sm_90a"), FamilyFrom("sm_100f"), FamilyFrom("sm_110f"), FamilyFrom("sm_120f")},
       "types .s8.s4",
       kS4Targets},
  };
  // Registers per .num: one 32-bit register per 8x8 or 8x16 matrix, two per
  // 16x16 matrix; .m16n16 has no .x4 row.
  spec.fragments = {
      {{{OneOf(kShape, {kM8n8, kM8n16}), OneOf(kNum, {kX1})}}, 1, RegisterClass::kAny32, kRegisterRule},
      {{{OneOf(kShape, {kM8n8, kM8n16}), OneOf(kNum, {kX2})}}, 2, RegisterClass::kAny32, kRegisterRule},
      {{{OneOf(kShape, {kM8n8, kM8n16}), OneOf(kNum, {kX4})}}, 4, RegisterClass::kAny32, kRegisterRule},
      {{{OneOf(kShape, {kM16n16}), OneOf(kNum, {kX1})}}, 2, RegisterClass::kAny32, kRegisterRule},
      {{{OneOf(kShape, {kM16n16}), OneOf(kNum, {kX2})}}, 4, RegisterClass::kAny32, kRegisterRule},
  };
  spec.fragment_table_ref = kNumRule;
  spec.operands = {.address = AddressKind::kMemory,
                   .state_space_axis = kStateSpace,
                   .state_space_of_value = {StateSpace::kShared, StateSpace::kShared},
                   .layout = {{OperandRole::kDestinationVector, "destination", std::nullopt},
                              {OperandRole::kAddress, "address", std::nullopt}},
                   .ref = kOperands};
  spec.runtime_rules = {
      {RuntimeHazard::kAddressOutsideSpace,
       {{Absent(kStateSpace)}},
       {},
       "a generic row address outside .shared",
       kGenericUb},
      {RuntimeHazard::kMisalignedAddress,
       {{OneOf(kShape, {kM8n8})}},
       {},
       "a row address that is not 16-byte aligned",
       kAlignUb},
      {RuntimeHazard::kMisalignedAddress,
       {{OneOf(kShape, {kM8n16, kM16n16}), Absent(kCtype)}},
       {},
       "a row address that is not 16-byte aligned",
       kInferredWideRowAlignment},
      {RuntimeHazard::kMisalignedAddress,
       {{Present(kCtype)}},
       {},
       "a row address that is not 16-byte aligned",
       kInferredS4RowAlignment},
      {RuntimeHazard::kUnusedLaneAddress,
       {{OneOf(kNum, {kX1, kX2})}},
       {Exactly("sm_75")},
       "a lane whose address .num does not use holds an invalid address",
       kUnusedLaneUb},
      {RuntimeHazard::kDivergentExecution,
       {},
       {},
       "not every lane executes it with the same qualifiers",
       kDivergenceUb},
  };
  spec.refine_runtime_condition = RefineCondition;
  spec.inferred_rules = {kInferredM16n16AddressLanes,  kInferredM16n16RowPairing, kInferredDecompressPadding,
                         kInferredDecompressExtension, kInferredWideRowAlignment, kInferredS4RowAlignment};
  spec.model_sources = {kMeasuredS4Packing};
  spec.inferences = Inferences;
  return spec;
}

}  // namespace

const FamilySpec& Spec() {
  static const FamilySpec* const kSpec = new FamilySpec(Build());
  return *kSpec;
}

int RowsPerMatrix(Shape shape) { return shape == kM16n16 ? 16 : 8; }

}  // namespace matload::ldmatrix

namespace matload {

std::uint32_t LdmatrixAddressLanes(const QualifierSet& qualifiers) {
  const int matrices = 1 << qualifiers.Get(ldmatrix::kNum);  // .x1 .x2 .x4
  const int lanes = matrices * ldmatrix::RowsPerMatrix(static_cast<ldmatrix::Shape>(qualifiers.Get(ldmatrix::kShape)));
  return lanes >= 32 ? 0xffffffffu : (std::uint32_t{1} << lanes) - 1;
}

}  // namespace matload
