#include "reference/form.h"

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "reference/families.h"
#include "reference/table_builders.h"

namespace matload {
namespace {

struct AxisValue {
  int axis = kAbsent;
  int value = kAbsent;
};

AxisValue FindSpelling(const FamilySpec& spec, absl::string_view token) {
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    const auto& spellings = spec.axes[axis].spellings;
    for (int value = 0; value < static_cast<int>(spellings.size()); ++value) {
      if (spellings[value].substr(1) == token) return {axis, value};
    }
  }
  return {};
}

}  // namespace

DecodedQualifiers DecodeQualifiers(const FamilySpec& spec, const std::vector<std::string>& opcode) {
  DecodedQualifiers decoded;
  const std::string mnemonic = spec.MnemonicText();
  std::vector<int> position(spec.axes.size(), kAbsent);
  for (size_t i = spec.mnemonic.size(); i < opcode.size(); ++i) {
    const std::string& token = opcode[i];
    const int index = static_cast<int>(i - spec.mnemonic.size());
    AxisValue found = FindSpelling(spec, token);
    if (found.axis == kAbsent) {
      decoded.reasons.push_back({ReasonCode::kUnknownQualifier, spec.section,
                                 absl::StrCat("'.", token, "' is not a qualifier of ", mnemonic)});
      continue;
    }
    const AxisSpec& axis = spec.axes[found.axis];
    if (decoded.qualifiers.Present(found.axis)) {
      decoded.reasons.push_back({ReasonCode::kDuplicateQualifier, kDuplicateQualifierRef,
                                 absl::StrCat("the ", axis.name, " qualifier is written twice ('.", token, "')")});
      continue;
    }
    decoded.qualifiers.Set(found.axis, found.value);
    position[found.axis] = index;
  }
  // The opcode's own axes come first, in table order: tcgen05.ld.red.spcompress.
  std::string written = mnemonic;  // the opcode as far as its axes are checked
  int opcode_index = 0;
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    const AxisSpec& spec_axis = spec.axes[axis];
    if (spec_axis.placement != Placement::kRightAfterMnemonic || position[axis] == kAbsent) continue;
    const absl::string_view spelling = spec_axis.spellings[decoded.qualifiers.Get(axis)];
    if (position[axis] != opcode_index) {
      decoded.reasons.push_back({ReasonCode::kMisplacedQualifier, spec_axis.ref,
                                 absl::StrCat("'", spelling, "' must directly follow ", written)});
    }
    ++opcode_index;
    absl::StrAppend(&written, spelling);
  }
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    const AxisSpec& spec_axis = spec.axes[axis];
    if (spec_axis.placement == Placement::kAfterAxis && position[axis] != kAbsent &&
        position[spec_axis.after_axis] != kAbsent && position[axis] < position[spec_axis.after_axis]) {
      decoded.reasons.push_back({ReasonCode::kMisplacedQualifier, spec_axis.ref,
                                 absl::StrCat("the ", spec_axis.name, " qualifier must come after the ",
                                              spec.axes[spec_axis.after_axis].name, " qualifier")});
    }
  }
  return decoded;
}

absl::StatusOr<Form> DecodeForm(const RawInstruction& raw) {
  const FamilySpec* spec = FindFamily(raw.opcode);
  if (spec == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("'", raw.opcode.empty() ? "" : raw.opcode[0],
                                                   "' is not ", FamilyNamesText()));
  }
  DecodedQualifiers decoded = DecodeQualifiers(*spec, raw.opcode);
  if (!decoded.reasons.empty()) return absl::InvalidArgumentError(decoded.reasons.front().message);
  return Form{spec->family, raw.guard, decoded.qualifiers, raw.operands};
}

RawInstruction ToRaw(const Form& form) {
  const FamilySpec& spec = SpecOf(form.family);
  RawInstruction raw{.guard = form.guard, .operands = form.operands};
  for (absl::string_view token : spec.mnemonic) raw.opcode.emplace_back(token);
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    if (form.qualifiers.Present(axis)) {
      raw.opcode.emplace_back(spec.axes[axis].spellings[form.qualifiers.Get(axis)].substr(1));
    }
  }
  return raw;
}

}  // namespace matload
