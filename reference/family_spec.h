// FamilySpec: the typed, declarative description of one instruction family.
//
// Each of wmma.load, ldmatrix and tcgen05.ld is written down once, as a
// FamilySpec value (wmma_load_table.cc, ldmatrix_table.cc, tcgen05_ld_table.cc).
// The parser, printer, legality checker, enumerator and runtime-UB data all
// read these values; none of them knows a qualifier by name.
#ifndef MATLOAD_REFERENCE_FAMILY_SPEC_H_
#define MATLOAD_REFERENCE_FAMILY_SPEC_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include "reference/ptx_version.h"
#include "reference/reason.h"
#include "reference/spec_ref.h"
#include "reference/target.h"

namespace matload {

// Family identifies an instruction family: one enumerator per line of the
// registry, families/families.def, in its order.
enum class Family : unsigned char {
#define MATLOAD_FAMILY(folder, enumerator, conform_rank) k##enumerator,
#include "families/families.def"
#undef MATLOAD_FAMILY
};

// kMaxAxes bounds the qualifier axes of any family (tcgen05.ld has the most,
// 13).
inline constexpr int kMaxAxes = 16;

// kAbsent marks an axis whose qualifier is not written.
inline constexpr int kAbsent = -1;

// QualifierSet holds, for each axis of a family, the index of the chosen
// value in AxisSpec::spellings, or kAbsent. It is the decoded, order-free
// view of an instruction's qualifiers.
class QualifierSet {
 public:
  QualifierSet() { values_.fill(kAbsent); }

  // Get returns the value index on `axis`, or kAbsent.
  int Get(int axis) const { return values_[axis]; }
  // Set chooses `value` (or kAbsent) on `axis`.
  void Set(int axis, int value) { values_[axis] = static_cast<std::int8_t>(value); }
  // Has says whether `axis` holds exactly `value`.
  bool Has(int axis, int value) const { return values_[axis] == value; }
  // Present says whether anything is written on `axis`.
  bool Present(int axis) const { return values_[axis] != kAbsent; }

  friend bool operator==(const QualifierSet&, const QualifierSet&) = default;

 private:
  std::array<std::int8_t, kMaxAxes> values_;
};

// Placement says where an axis's qualifier may be written. ptxas accepts the
// other qualifiers in any order (measured; reports/model-vs-ptxas/).
enum class Placement : unsigned char {
  kAnywhere,
  kRightAfterMnemonic,  // part of the opcode, written first and in table order: wmma.load.a, tcgen05.ld.red.spcompress
  kAfterAxis,           // must follow AxisSpec::after_axis (.dst_fmt before .src_fmt)
};

// AxisSpec is one qualifier axis, e.g. ldmatrix's ".shape".
struct AxisSpec {
  absl::string_view name;                    // "shape"
  std::vector<absl::string_view> spellings;  // value spellings, with the dot: ".m8n8"
  bool mandatory = false;                   // the syntax has no braces around it
  Placement placement = Placement::kAnywhere;
  int after_axis = kAbsent;                 // for Placement::kAfterAxis
  SpecRef ref;
};

// AxisTest is one clause of a Condition: the axis holds one of the accepted
// values. Bit 0 of `accepted` stands for "absent", bit v+1 for value v.
struct AxisTest {
  int axis;
  std::uint32_t accepted;
};

// OneOf, Absent and Present build AxisTests; `values` are value indices.
AxisTest OneOf(int axis, std::initializer_list<int> values);
AxisTest NoneOf(int axis, std::initializer_list<int> values);
AxisTest Absent(int axis);
AxisTest Present(int axis);

// Condition is a conjunction of AxisTests over a QualifierSet. The empty
// condition always holds.
struct Condition {
  std::vector<AxisTest> all;

  // Holds evaluates the condition.
  bool Holds(const QualifierSet& qualifiers) const;
};

// Constraint: whenever `when` holds, `require` must hold too, from PTX ISA
// version `from` on. It states one rule of the Syntax or Description.
struct Constraint {
  Condition when;
  Condition require;
  ReasonCode code;
  absl::string_view message;
  SpecRef ref;
  PtxVersion from{0, 0};
};

// VersionGate: a feature (selected by `when`) needs PTX ISA `minimum`.
struct VersionGate {
  Condition when;
  PtxVersion minimum;
  absl::string_view feature;
  SpecRef ref;
};

// TargetGate: a feature (selected by `when`) exists only on targets that
// match one of `any_of`.
struct TargetGate {
  Condition when;
  std::vector<TargetClause> any_of;
  absl::string_view feature;
  SpecRef ref;
};

// RegisterClass names the set of register types an operand accepts. The PTX
// text is silent on most of these; the sets were measured (register_class.cc).
enum class RegisterClass : unsigned char {
  kAny32,        // any 32-bit register: .b32 .u32 .s32 .f32 .f16x2
  kHalf2,        // .b32 .f16x2 (wmma .f16 fragments)
  kFloat32,      // .b32 .f32 (wmma .f32 accumulators)
  kInt32,        // .b32 .u32 .s32
  kBits32,       // .b32 only (wmma .bf16 and .tf32 fragments)
  kFloat64,      // .b64 .f64
  kAddress,      // a 32- or 64-bit integer or bit register
  kTmemAddress,  // tcgen05 taddr
};

// AddressKind says what the bracketed address operand points into.
enum class AddressKind : unsigned char { kMemory, kTensorMemory };

// StateSpace is the space an address operand refers to.
enum class StateSpace : unsigned char { kGeneric, kGlobal, kShared };

// FragmentRow is one row of a family's destination-register table (the
// wmma fragment table, ldmatrix's per-matrix registers, tcgen05's Table 49):
// forms matching `match` load `registers` registers of `register_class`.
// A form that also writes a metadata vector (OperandRole::kMetadataVector:
// tcgen05.ld .spcompress's mdata, Table 60) writes `metadata_registers` of
// the same class there.
struct FragmentRow {
  Condition match;
  int registers;
  RegisterClass register_class;
  SpecRef ref;
  int metadata_registers = 0;
};

// OperandRole is what one operand of an instruction is for. Operand
// checking, the standard operands and the near misses read a family's
// operands by role, so a family is its operand layout, not code.
enum class OperandRole : unsigned char {
  kDestinationVector,  // {r...}: the registers a load writes (tcgen05.ld .spcompress's cdata)
  kSourceVector,       // {r...}: the registers a store reads
  kMetadataVector,     // {m...}: the registers a load writes which elements it kept to (.spcompress's mdata)
  kReductionValue,     // tcgen05.ld.red's redval: one 32-bit register
  kAddress,            // [address]: memory, or Tensor Memory (AddressKind)
  kOffset,             // an immediate after the address: tcgen05's immHalfSplitoff
  kStride,             // wmma's stride: a 32-bit integer register or an immediate
};

// OperandSlot is one operand of a family's syntax. A family lists its slots
// in the order they are written; optional slots come last.
struct OperandSlot {
  OperandRole role;
  absl::string_view name;            // as messages call it: "destination", "redval", "immHalfSplitoff"
  std::optional<Condition> when;     // written only for forms where this holds; nullopt: always
  bool optional = false;             // may be left out: wmma's {, stride}
};

// kMaxOperands bounds the operands of any form.
inline constexpr int kMaxOperands = 6;

// SignatureOperand is one operand a form writes: its slot's role, name and
// whether it may be left out.
struct SignatureOperand {
  OperandRole role = OperandRole::kDestinationVector;
  absl::string_view name;
  bool optional = false;
};

// OperandSignature is what a qualifier set asks of the operands.
struct OperandSignature {
  int destination_count = 0;
  RegisterClass destination_class = RegisterClass::kAny32;
  int metadata_count = 0;           // the kMetadataVector's registers, of destination_class
  bool redval = false;              // tcgen05.ld.red's reduction result
  AddressKind address = AddressKind::kMemory;
  StateSpace state_space = StateSpace::kGeneric;
  bool stride = false;              // wmma's optional stride
  bool half_split_offset = false;   // tcgen05 .16x32bx2's immHalfSplitoff
  SpecRef destination_ref;          // the fragment row that set the counts
  // The operands this form writes, in order (the family's OperandSlots whose
  // condition holds); the flags above say the same by role. A fixed array,
  // so that a signature is copied without allocating.
  std::array<SignatureOperand, kMaxOperands> operands{};
  int operand_count = 0;

  // Operands is the written operands, in order.
  absl::Span<const SignatureOperand> Operands() const { return {operands.data(), static_cast<size_t>(operand_count)}; }
  // IndexOf is the position of the first operand of `role`, or -1.
  int IndexOf(OperandRole role) const;
  // VectorLength is how many registers the vector operand of `role` holds:
  // metadata_count for the metadata vector, destination_count for the
  // destination or source vector.
  int VectorLength(OperandRole role) const;
};

// IsVectorRole says whether operands of `role` are brace-enclosed register
// vectors.
bool IsVectorRole(OperandRole role);

// OperandRules are a family's fixed operand facts.
struct OperandRules {
  AddressKind address = AddressKind::kMemory;
  int state_space_axis = kAbsent;      // the axis naming .global/.shared, if any
  std::vector<StateSpace> state_space_of_value;  // per value of that axis
  std::vector<OperandSlot> layout;     // the operands, in written order
  SpecRef ref;
};

// RuntimeHazard is a run-time condition under which the spec makes the
// result undefined, or leaves it to the implementation (kTiedSelection).
// Generators produce these on purpose; the reference model refuses to
// predict them.
enum class RuntimeHazard : unsigned char {
  kStrideBelowDefault,          // wmma: stride smaller than the leading dimension
  kMisalignedAddress,           // an address not aligned as the spec requires
  kMisalignedStride,            // wmma: stride*element size not a multiple of the fragment size
  kAddressOutsideSpace,         // a generic address outside the allowed state spaces
  kUnusedLaneAddress,           // ldmatrix on sm_75 and below: every lane needs a valid address
  kNonUniformOperands,          // operands that must be warp-uniform differ between lanes
  kDivergentExecution,          // not all lanes execute it, or lanes use other qualifiers
  kTmemLaneOutsideWarpQuarter,  // tcgen05: a warp touches lanes outside its quarter
  kTiedSelection,               // tcgen05.ld .spcompress: the implementation breaks a tie
};

// RuntimeRule says that `hazard` applies to forms matching `when`, on the
// targets in `on_targets` (all targets if empty).
struct RuntimeRule {
  RuntimeHazard hazard;
  Condition when;
  std::vector<TargetClause> on_targets;
  absl::string_view description;
  SpecRef ref;
};

struct ModelInferences;   // reference/inferred_rules.h
struct RuntimeCondition;  // reference/runtime_ub.h

// FamilySpec is the whole description of one instruction family.
struct FamilySpec {
  Family family;
  std::vector<absl::string_view> mnemonic;  // opcode tokens: {"wmma", "load"}
  SpecRef section;
  std::vector<AxisSpec> axes;              // in canonical (spec Syntax) order
  std::vector<Constraint> constraints;
  std::vector<VersionGate> version_gates;
  std::vector<TargetGate> target_gates;
  std::vector<FragmentRow> fragments;      // exactly one row must match a legal form
  SpecRef fragment_table_ref;              // cited when no row matches
  OperandRules operands;
  std::vector<RuntimeRule> runtime_rules;
  // refine_runtime_condition adds a family's numbers to one of its runtime
  // conditions (the alignment, the default stride, the lanes whose
  // addresses count: runtime_ub.h); nullptr where the rule says all.
  void (*refine_runtime_condition)(const QualifierSet&, const OperandSignature&, RuntimeCondition&) = nullptr;
  // inferred_rules are the places where the model decides what the spec
  // leaves open (inferred_rules.h), and `inferences` says which of them a
  // form's modelled execution rests on; nullptr where none does.
  std::vector<SpecRef> inferred_rules;
  // model_sources are the other data the model rests on that the PTX text
  // does not give (wmma.load's measured fragment layouts), for the
  // support report's list of rules the spec does not state.
  std::vector<SpecRef> model_sources;
  ModelInferences (*inferences)(const QualifierSet&) = nullptr;

  // MnemonicText joins the mnemonic tokens: "wmma.load".
  std::string MnemonicText() const;
  // FindFragment returns the unique matching fragment row, or nullptr.
  const FragmentRow* FindFragment(const QualifierSet& qualifiers) const;
  // Signature returns the operand signature of a qualifier set whose
  // fragment row exists, else nullopt.
  std::optional<OperandSignature> Signature(const QualifierSet& qualifiers) const;
};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_FAMILY_SPEC_H_
