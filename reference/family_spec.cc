#include "reference/family_spec.h"

#include "absl/strings/str_join.h"

namespace matload {
namespace {

std::uint32_t Bit(int value) { return std::uint32_t{1} << (value + 1); }

}  // namespace

AxisTest OneOf(int axis, std::initializer_list<int> values) {
  std::uint32_t accepted = 0;
  for (int value : values) accepted |= Bit(value);
  return {axis, accepted};
}

AxisTest NoneOf(int axis, std::initializer_list<int> values) {
  AxisTest test = OneOf(axis, values);
  test.accepted = ~test.accepted;
  return test;
}

AxisTest Absent(int axis) { return {axis, Bit(kAbsent)}; }

AxisTest Present(int axis) { return {axis, ~Bit(kAbsent)}; }

bool Condition::Holds(const QualifierSet& qualifiers) const {
  for (const AxisTest& test : all) {
    if ((test.accepted & Bit(qualifiers.Get(test.axis))) == 0) return false;
  }
  return true;
}

std::string FamilySpec::MnemonicText() const { return absl::StrJoin(mnemonic, "."); }

const FragmentRow* FamilySpec::FindFragment(const QualifierSet& qualifiers) const {
  for (const FragmentRow& row : fragments) {
    if (row.match.Holds(qualifiers)) return &row;
  }
  return nullptr;
}

std::optional<OperandSignature> FamilySpec::Signature(const QualifierSet& qualifiers) const {
  const FragmentRow* row = FindFragment(qualifiers);
  if (row == nullptr) return std::nullopt;
  OperandSignature signature{
      .destination_count = row->registers,
      .destination_class = row->register_class,
      .metadata_count = row->metadata_registers,
      .address = operands.address,
      .destination_ref = row->ref,
  };
  for (const OperandSlot& slot : operands.layout) {
    if (slot.when.has_value() && !slot.when->Holds(qualifiers)) continue;
    signature.operands[signature.operand_count++] = {slot.role, slot.name, slot.optional};
    signature.redval = signature.redval || slot.role == OperandRole::kReductionValue;
    signature.stride = signature.stride || slot.role == OperandRole::kStride;
    signature.half_split_offset = signature.half_split_offset || slot.role == OperandRole::kOffset;
  }
  if (operands.state_space_axis != kAbsent && qualifiers.Present(operands.state_space_axis)) {
    signature.state_space = operands.state_space_of_value[qualifiers.Get(operands.state_space_axis)];
  }
  return signature;
}

int OperandSignature::IndexOf(OperandRole role) const {
  for (int i = 0; i < operand_count; ++i) {
    if (operands[i].role == role) return i;
  }
  return -1;
}

int OperandSignature::VectorLength(OperandRole role) const {
  return role == OperandRole::kMetadataVector ? metadata_count : destination_count;
}

bool IsVectorRole(OperandRole role) {
  return role == OperandRole::kDestinationVector || role == OperandRole::kSourceVector ||
         role == OperandRole::kMetadataVector;
}

}  // namespace matload
