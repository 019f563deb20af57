#include "families/tcgen05/tcgen05_ld_table.h"

#include "reference/inferred_rules.h"
#include "reference/table_builders.h"

namespace matload::tcgen05 {
namespace {

// tcgen05.ld .pack::16b: the Packing figure is an image; which 16-bit halves
// are taken and where they go is the model's choice.
constexpr SpecRef kInferredPack16bHalves{
    "tcgen05.ld.infer.pack-16b-halves",
    "inferred from PTX 9.0 9.7.16.10.4.1 (a 16-bit element sits in the low half of its 32-bit cell) and CuTe *_16b "
    "layouts: the low halves of columns 2c (bits 0-15) and 2c+1 (bits 16-31); docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld.red .f32: NaN handling and the canonical NaN are not defined.
constexpr SpecRef kInferredRedNan{
    "tcgen05.ld.infer.red-nan",
    "inferred from redux.sync .f32 (PTX 9.0 9.7.13.12): NaN inputs are skipped unless .NaN, all-NaN or .NaN with "
    "a NaN gives 0x7fffffff, -0.0 < +0.0; docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld.red .abs: not defined in the tcgen05 section.
constexpr SpecRef kInferredRedAbs{
    "tcgen05.ld.infer.red-abs",
    "inferred from redux.sync .f32 .abs (PTX 9.0 9.7.13.12): the reduction is over absolute values, the registers "
    "still get the loaded data; docs/spec-decisions.md",
    RuleSource::kInferred};

// tcgen05.ld .spcompress: the text gives the register counts (Table 60) but
// not where each kept element and each index sits in cdata and mdata.
constexpr SpecRef kInferredSpcompressPacking{
    "tcgen05.ld.infer.spcompress-packing",
    "inferred from PTX 9.4 9.7.18.8.3 (Table 60: num/2 cdata and ceil(num/32) mdata registers) and 9.7.10.30 "
    "spcompress (indices zero-extended into mdata; Figure 43 is an image): group g of four columns gives cdata[2g] "
    "and cdata[2g+1], its kept elements in column order, and their 2-bit indices in the group, element j's in bits "
    "2(j%16)..2(j%16)+1 of mdata[j/16]; docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld .spcompress: the text does not say whether the selection
// compares subnormal values as they are.
constexpr SpecRef kInferredSpcompressSubnormals{
    "tcgen05.ld.infer.spcompress-subnormals",
    "inferred, as for .red (tcgen05.ld.infer.red-nan): the selection compares subnormal .f32 values as they are, "
    "not flushed to zero; docs/spec-decisions.md",
    RuleSource::kInferred};

// Inferences says which of the rules above a form's modelled execution
// rests on (FamilySpec::inferences).
ModelInferences Inferences(const QualifierSet& q) {
  ModelInferences inferences;
  if (q.Present(kPack)) inferences.every_register = {kInferredPack16bHalves};
  if (q.Present(kSpcompress)) inferences.every_register = {kInferredSpcompressPacking, kInferredSpcompressSubnormals};
  if (q.Present(kRed) && q.Get(kType) == kF32) {
    inferences.reduction = {kInferredRedNan};
    if (q.Present(kAbs)) inferences.reduction.push_back(kInferredRedAbs);
  }
  return inferences;
}

constexpr SpecRef kSyntax{"tcgen05.ld.syntax", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Syntax"};
constexpr SpecRef kTable49{"tcgen05.ld.table49", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Table 49 (.num x .shape)"};
constexpr SpecRef kRedNum{"tcgen05.ld.red-num", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Description: with .red, .num "
                                                "must be at least .x2"};
constexpr SpecRef kRedShapes{"tcgen05.ld.red-shapes", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Syntax: .red takes .shape3 "
                                                      "(.32x32b) or .shape4 (.16x32bx2)"};
constexpr SpecRef kIntroduced{"tcgen05.ld.ptx.introduced", "PTX 9.0 9.7.16.8.3 tcgen05.ld, PTX ISA Notes: 8.6"};
constexpr SpecRef kRedVersion{"tcgen05.ld.ptx.red", "PTX 9.0 9.7.16.8.3 tcgen05.ld, PTX ISA Notes: .red in 8.8"};
constexpr SpecRef kTargets{"tcgen05.ld.target", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Target ISA Notes"};
constexpr SpecRef kRedTargets{"tcgen05.ld.target.red", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Target ISA Notes: "
                                                       "tcgen05.ld.red"};
constexpr SpecRef kSpcompressSyntax{
    "tcgen05.ld.syntax.spcompress",
    "PTX 9.4 9.7.18.8.3 tcgen05.ld, Syntax: tcgen05.ld{.red}.spcompress.sync.aligned.shape.num.rowop.spfactor{.abs}"
    "{.NaN}.type.idxsize with .shape .32x32b, .num .x4 to .x128, .type .f32, .idxsize .b2, .spfactor .sp::2:4; .NaN "
    "only with .red"};
constexpr SpecRef kSpcompressOrder{
    "tcgen05.ld.spcompress-order",
    "the Syntax writes tcgen05.ld{.red}.spcompress and .type.idxsize; ptxas 13.4.92 and 13.5.37 reject .spcompress "
    "anywhere but right after tcgen05.ld or tcgen05.ld.red, and .b2 before .f32, and take every other order "
    "(reports/spec-measurements/tcgen05-spcompress)",
    RuleSource::kMeasured};
constexpr SpecRef kTable60{"tcgen05.ld.table60",
                           "PTX 9.4 9.7.18.8.3 tcgen05.ld, Table 60: mdata ceil(num / 32), cdata num / 2 registers"};
constexpr SpecRef kSpcompressVersion{
    "tcgen05.ld.ptx.spcompress", "PTX 9.4 9.7.18.8.3 tcgen05.ld, PTX ISA Notes: tcgen05.ld{.red}.spcompress in 9.4"};
constexpr SpecRef kSpcompressTargets{
    "tcgen05.ld.target.spcompress",
    "PTX 9.4 9.7.18.8.3 tcgen05.ld, Target ISA Notes: tcgen05.ld{.red}.spcompress on sm_107a only"};
constexpr SpecRef kOperands{"tcgen05.ld.operands",
                            "PTX 9.0 9.7.16.8.3 tcgen05.ld, Syntax: r, [redval,] [taddr] "
                            "{, immHalfSplitoff}; PTX 9.4 9.7.18.8.3: with .spcompress, "
                            "mdata, cdata[, redval], [taddr]"};
constexpr SpecRef kUniformUb{"tcgen05.ld.ub.uniform-taddr", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Description: all "
                                                            "threads must give the same taddr"};
constexpr SpecRef kQuarterUb{"tcgen05.ld.ub.lane-quarter", "PTX 9.0 9.7.16.8.1: warp (rank % 4) = q may access "
                                                           "only TMEM lanes 32q..32q+31"};
constexpr SpecRef kDivergenceUb{"tcgen05.ld.ub.divergence", "PTX 9.0 9.7.16.8.3 tcgen05.ld, Description: .aligned; "
                                                            "no exited thread"};
constexpr SpecRef kTiesUb{
    "tcgen05.ld.ub.spcompress-ties",
    "PTX 9.4 9.7.10.30 spcompress, Notes (which .spcompress performs in line, 9.7.18.8.3): where a group of four has "
    "more than two candidates for the kept pair (ties, or three or more NaNs), which are kept is "
    "implementation-specific"};

FamilySpec Build() {
  FamilySpec spec{.family = Family::kTcgen05Ld,
                  .mnemonic = {"tcgen05", "ld"},
                  .section = {"tcgen05.ld", "PTX 9.0 9.7.16.8.3 tcgen05.ld"}};
  spec.axes = {
      {.name = "red", .spellings = {".red"}, .placement = Placement::kRightAfterMnemonic, .ref = kSyntax},
      {.name = "spcompress",
       .spellings = {".spcompress"},
       .placement = Placement::kRightAfterMnemonic,
       .ref = kSpcompressOrder},
      PresenceAxis("sync", ".sync", /*mandatory=*/true, kSyntax),
      PresenceAxis("aligned", ".aligned", /*mandatory=*/true, kSyntax),
      {.name = "shape",
       .spellings = {".16x64b", ".16x128b", ".16x256b", ".32x32b", ".16x32bx2"},
       .mandatory = true,
       .ref = kSyntax},
      {.name = "num",
       .spellings = {".x1", ".x2", ".x4", ".x8", ".x16", ".x32", ".x64", ".x128"},
       .mandatory = true,
       .ref = kSyntax},
      PresenceAxis("pack", ".pack::16b", /*mandatory=*/false, kSyntax),
      {.name = "redOp", .spellings = {".min", ".max"}, .ref = kSyntax},
      PresenceAxis("spfactor", ".sp::2:4", /*mandatory=*/false, kSpcompressSyntax),
      PresenceAxis("abs", ".abs", /*mandatory=*/false, kSyntax),
      PresenceAxis("NaN", ".NaN", /*mandatory=*/false, kSyntax),
      {.name = "type", .spellings = {".b32", ".u32", ".s32", ".f32"}, .mandatory = true, .ref = kSyntax},
      {.name = "idxsize",
       .spellings = {".b2"},
       .placement = Placement::kAfterAxis,
       .after_axis = kType,
       .ref = kSpcompressOrder},
  };
  const ReasonCode kCombination = ReasonCode::kQualifierCombination;
  spec.constraints = {
      {{{Absent(kRed), Absent(kSpcompress)}},
       {{OneOf(kType, {kB32})}},
       kCombination,
       "a load without .red or .spcompress is .b32",
       kSyntax},
      {{{Absent(kRed), Absent(kSpcompress)}},
       {{Absent(kRedOp), Absent(kAbs), Absent(kNaN)}},
       kCombination,
       ".min/.max, .abs and .NaN belong to tcgen05.ld.red and tcgen05.ld.spcompress",
       kSyntax},
      {{{Present(kRed)}},
       {{Present(kRedOp)}},
       ReasonCode::kMissingQualifier,
       "tcgen05.ld.red needs .min or .max",
       kSyntax},
      {{{Present(kRed)}},
       {{OneOf(kType, {kU32, kS32, kF32})}},
       kCombination,
       "tcgen05.ld.red is .u32, .s32 or .f32",
       kSyntax},
      {{{Present(kRed)}}, {{Absent(kPack)}}, kCombination, "tcgen05.ld.red does not take .pack::16b", kSyntax},
      {{{Present(kRed)}},
       {{OneOf(kShape, {k32x32b, k16x32bx2})}},
       kCombination,
       "tcgen05.ld.red takes only .32x32b and .16x32bx2",
       kRedShapes},
      {{{Present(kRed)}}, {{NoneOf(kNum, {kX1})}}, kCombination, "tcgen05.ld.red needs .num of at least .x2", kRedNum},
      {{{Present(kAbs)}}, {{OneOf(kType, {kF32})}}, kCombination, ".abs is for .f32 only", kSyntax},
      {{{Present(kNaN)}}, {{OneOf(kType, {kF32})}}, kCombination, ".NaN is for .f32 only", kSyntax},
      {{{Absent(kSpcompress)}},
       {{Absent(kSpfactor), Absent(kIdxsize)}},
       kCombination,
       ".sp::2:4 and .b2 belong to tcgen05.ld.spcompress",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{Present(kRedOp)}},
       ReasonCode::kMissingQualifier,
       "tcgen05.ld.spcompress needs .min or .max (.rowop)",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{Present(kSpfactor)}},
       ReasonCode::kMissingQualifier,
       "tcgen05.ld.spcompress needs .sp::2:4 (.spfactor)",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{Present(kIdxsize)}},
       ReasonCode::kMissingQualifier,
       "tcgen05.ld.spcompress needs .b2 (.idxsize)",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{OneOf(kType, {kF32})}},
       kCombination,
       "tcgen05.ld.spcompress is .f32",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{OneOf(kShape, {k32x32b})}},
       kCombination,
       "tcgen05.ld.spcompress takes only .32x32b",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{NoneOf(kNum, {kX1, kX2})}},
       kCombination,
       "tcgen05.ld.spcompress needs .num of at least .x4",
       kSpcompressSyntax},
      {{{Present(kSpcompress)}},
       {{Absent(kPack)}},
       kCombination,
       "tcgen05.ld.spcompress does not take .pack::16b",
       kSpcompressSyntax},
      {{{Present(kSpcompress), Absent(kRed)}},
       {{Absent(kNaN)}},
       kCombination,
       ".NaN belongs to tcgen05.ld.red.spcompress",
       kSpcompressSyntax},
  };
  spec.version_gates = {
      {{}, {8, 6}, "tcgen05.ld", kIntroduced},
      {{{Present(kRed)}}, {8, 8}, "tcgen05.ld.red", kRedVersion},
      {{{Present(kSpcompress)}}, {9, 4}, "tcgen05.ld.spcompress", kSpcompressVersion},
      // .sp::2:4 came with .spcompress, and is as new written without it
      // (ptxas 13.4.92: "Feature '.sp::2:4' requires PTX ISA .version 9.4").
      {{{Present(kSpfactor), Absent(kSpcompress)}}, {9, 4}, ".sp::2:4", kSpcompressVersion},
  };
  spec.target_gates = {
      {{},
       {Exactly("sm_100a"), Exactly("sm_101a"), Exactly("sm_110a"), FamilyFrom("sm_100f", {8, 8}),
        FamilyFrom("sm_101f", {8, 8}), FamilyFrom("sm_110f")},
       "tcgen05.ld",
       kTargets},
      {{{Present(kRed)}},
       {Exactly("sm_101a"), Exactly("sm_110a"), FamilyFrom("sm_101f", {8, 8}), FamilyFrom("sm_103f", {8, 8}),
        FamilyFrom("sm_110f")},
       "tcgen05.ld.red",
       kRedTargets},
      {{{Present(kSpcompress)}}, {Exactly("sm_107a")}, "tcgen05.ld.spcompress", kSpcompressTargets},
  };
  // Table 49, copied row by row: registers per (.num, .shape); "NA" cells
  // have no row.
  const int kOneColumnShapes[] = {k16x32bx2, k16x64b, k32x32b};
  for (int num = kX1; num <= kX128; ++num) {
    const int base = 1 << num;
    for (int shape : kOneColumnShapes) {
      spec.fragments.push_back(
          {{{Absent(kSpcompress), OneOf(kShape, {shape}), OneOf(kNum, {num})}}, base, RegisterClass::kAny32, kTable49});
    }
    if (num <= kX64) {
      spec.fragments.push_back({{{Absent(kSpcompress), OneOf(kShape, {k16x128b}), OneOf(kNum, {num})}},
                                2 * base,
                                RegisterClass::kAny32,
                                kTable49});
    }
    if (num <= kX32) {
      spec.fragments.push_back({{{Absent(kSpcompress), OneOf(kShape, {k16x256b}), OneOf(kNum, {num})}},
                                4 * base,
                                RegisterClass::kAny32,
                                kTable49});
    }
  }
  // Table 60: with .spcompress, num / 2 cdata and ceil(num / 32) mdata
  // registers, for .num .x4 to .x128.
  for (int num = kX4; num <= kX128; ++num) {
    const int columns = 1 << num;
    spec.fragments.push_back({{{Present(kSpcompress), OneOf(kNum, {num})}},
                              columns / 2,
                              RegisterClass::kAny32,
                              kTable60,
                              (columns + 31) / 32});
  }
  spec.fragment_table_ref = kTable49;
  spec.operands = {.address = AddressKind::kTensorMemory,
                   .layout = {{OperandRole::kMetadataVector, "mdata", Condition{{Present(kSpcompress)}}},
                              {OperandRole::kDestinationVector, "destination", Condition{{Absent(kSpcompress)}}},
                              {OperandRole::kDestinationVector, "cdata", Condition{{Present(kSpcompress)}}},
                              {OperandRole::kReductionValue, "redval", Condition{{Present(kRed)}}},
                              {OperandRole::kAddress, "taddr", std::nullopt},
                              {OperandRole::kOffset, "immHalfSplitoff", Condition{{OneOf(kShape, {k16x32bx2})}}}},
                   .ref = kOperands};
  spec.runtime_rules = {
      {RuntimeHazard::kNonUniformOperands, {}, {}, "taddr differs between lanes", kUniformUb},
      {RuntimeHazard::kTmemLaneOutsideWarpQuarter,
       {},
       {},
       "the warp addresses TMEM lanes outside its quarter",
       kQuarterUb},
      {RuntimeHazard::kDivergentExecution, {}, {}, "not every lane executes it", kDivergenceUb},
      {RuntimeHazard::kTiedSelection,
       {{Present(kSpcompress)}},
       {},
       "a group of four columns has more than two candidates for the kept pair",
       kTiesUb},
  };
  spec.inferred_rules = {kInferredPack16bHalves, kInferredRedNan, kInferredRedAbs, kInferredSpcompressPacking,
                         kInferredSpcompressSubnormals};
  spec.inferences = Inferences;
  return spec;
}

}  // namespace

const FamilySpec& Spec() {
  static const FamilySpec* const kSpec = new FamilySpec(Build());
  return *kSpec;
}

}  // namespace matload::tcgen05
