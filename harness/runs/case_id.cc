#include "harness/runs/case_id.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "harness/runs/stable_hash.h"
#include "reference/families.h"
#include "reference/printer.h"

namespace matload {
namespace {

// HashToken is `prefix` and the hash of `text` in 8 hex digits: "ops_1a2b3c4d".
std::string HashToken(absl::string_view prefix, absl::string_view text) {
  return absl::StrFormat("%s_%08x", prefix, StableHash(text));
}

// SafeToken keeps the letters (lowercased), digits and '_' of `token` and
// writes each run of other characters as one '_' ("shared::cta" ->
// "shared_cta"); an empty token becomes "_".
std::string SafeToken(absl::string_view token) {
  std::string safe;
  for (char c : absl::AsciiStrToLower(token)) {
    const bool kept = absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (kept) {
      safe.push_back(c);
    } else if (safe.empty() || safe.back() != '_') {
      safe.push_back('_');
    }
  }
  return safe.empty() ? "_" : safe;
}

// QualifierTokens is a form's family token and its qualifiers in canonical
// order, each a SafeToken: "wmma_load.a.sync.aligned.row.m16n16k16.shared_cta.f16".
std::string QualifierTokens(const FamilySpec& spec, const QualifierSet& qualifiers) {
  const RawInstruction opcode = ToRaw(Form{spec.family, std::nullopt, qualifiers, {}});
  std::string tokens = FamilyToken(spec);
  for (size_t i = spec.mnemonic.size(); i < opcode.opcode.size(); ++i) {
    absl::StrAppend(&tokens, ".", SafeToken(opcode.opcode[i]));
  }
  return tokens;
}

// StandardStyle is the operand style whose standard operands `form` is
// written with, or nullopt for any other operands.
std::optional<OperandStyle> StandardStyle(const FamilySpec& spec, const Form& form) {
  const std::optional<OperandSignature> signature = spec.Signature(form.qualifiers);
  if (!signature.has_value()) return std::nullopt;
  for (OperandStyle style : OperandStyles(*signature)) {
    if (StandardOperands(*signature, style) == form.operands) return style;
  }
  return std::nullopt;
}

// RawCaseId names an instruction no family table decodes.
std::string RawCaseId(const RawInstruction& instruction) {
  std::vector<std::string> tokens;
  const FamilySpec* spec = FindFamily(instruction.opcode);
  size_t first = 0;
  if (spec != nullptr) {
    tokens.push_back(FamilyToken(*spec));
    first = spec->mnemonic.size();
  }
  for (size_t i = first; i < instruction.opcode.size(); ++i) tokens.push_back(SafeToken(instruction.opcode[i]));
  tokens.push_back(HashToken("raw", PrintRaw(instruction)));
  return absl::StrJoin(tokens, ".");
}

}  // namespace

std::string FamilyToken(const FamilySpec& spec) { return absl::StrReplaceAll(spec.MnemonicText(), {{".", "_"}}); }

std::string OperandStyleTokens(OperandStyle style, bool tensor_memory) {
  std::string tokens;
  switch (style.address) {
    case OperandStyle::Address::kRegister64:
      tokens = "addr64";
      break;
    case OperandStyle::Address::kRegister32:
      tokens = tensor_memory ? "taddr" : "addr32";
      break;
    case OperandStyle::Address::kRegisterPlusOffset:
      tokens = tensor_memory ? "taddr_offset" : "addr_offset";
      break;
  }
  if (style.stride == OperandStyle::Stride::kRegister) absl::StrAppend(&tokens, ".stride_reg");
  if (style.stride == OperandStyle::Stride::kImmediate) absl::StrAppend(&tokens, ".stride_imm");
  return tokens;
}

std::string InstructionCaseId(const RawInstruction& instruction) {
  const absl::StatusOr<Form> form = DecodeForm(instruction);
  if (!form.ok()) return RawCaseId(instruction);
  const FamilySpec& spec = SpecOf(form->family);
  const std::string qualifiers = QualifierTokens(spec, form->qualifiers);
  const std::optional<OperandStyle> style = StandardStyle(spec, *form);
  if (form->guard.has_value() || !style.has_value()) {
    return absl::StrCat(qualifiers, ".", HashToken("ops", PrintRaw(instruction)));
  }
  const bool tensor = spec.Signature(form->qualifiers)->address == AddressKind::kTensorMemory;
  return absl::StrCat(qualifiers, ".", OperandStyleTokens(*style, tensor));
}

std::string SupportCaseId(Target target, const RawInstruction& instruction) {
  return SupportCaseId(target, InstructionCaseId(instruction));
}

std::string SupportCaseId(Target target, absl::string_view instruction_id) {
  return absl::StrCat(target.Name(), ".", instruction_id);
}

std::string InstructionCaseIds::Of(const RawInstruction& instruction, const std::string& text) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = names_.find(text); known != names_.end()) return known->second;
  }
  std::string name = InstructionCaseId(instruction);
  std::lock_guard<std::mutex> lock(mutex_);
  names_.try_emplace(text, name);
  return name;
}

CaseGroup SupportCaseGroup(absl::string_view id) {
  static constexpr absl::string_view kStyleTokens[] = {"stride_reg",  "stride_imm", "addr64",      "addr32",
                                                       "addr_offset", "taddr",      "taddr_offset"};
  const std::vector<absl::string_view> tokens = absl::StrSplit(id, '.');
  size_t style = tokens.size();
  if (absl::StartsWith(tokens.back(), "ops_") || absl::StartsWith(tokens.back(), "raw_")) {
    style = tokens.size() - 1;
  } else {
    while (style > 0 && absl::c_linear_search(kStyleTokens, tokens[style - 1])) --style;
  }
  const auto target = std::find_if(tokens.begin(), tokens.begin() + static_cast<long>(style),
                                   [](absl::string_view token) { return absl::StartsWith(token, "sm_"); });
  const size_t matrix = std::min(style, static_cast<size_t>(target - tokens.begin()) + 2);
  const auto join = [&tokens](size_t begin, size_t end) {
    return absl::StrJoin(tokens.begin() + static_cast<long>(begin), tokens.begin() + static_cast<long>(end), ".");
  };
  return {join(0, matrix), join(matrix, style), join(style, tokens.size())};
}

std::string ConformCaseId(const Form& form, int address_bits, absl::string_view compile_path, bool undefined) {
  const FamilySpec& spec = SpecOf(form.family);
  OperandStyle style = StandardStyle(spec, form).value_or(OperandStyle{});
  const bool tensor = spec.Signature(form.qualifiers)->address == AddressKind::kTensorMemory;
  if (!tensor)
    style.address = address_bits == 32 ? OperandStyle::Address::kRegister32 : OperandStyle::Address::kRegister64;
  return absl::StrCat(QualifierTokens(spec, form.qualifiers), ".", OperandStyleTokens(style, tensor), ".",
                      absl::StrReplaceAll(compile_path, {{"-", "_"}}), undefined ? ".undefined" : "");
}

}  // namespace matload
