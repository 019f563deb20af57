#include "reference/legality.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "reference/declaration_index.h"
#include "reference/families.h"
#include "reference/implicit_declarations.h"
#include "reference/parser.h"
#include "reference/qualifier_rules.h"
#include "reference/register_class.h"

namespace matload {
namespace {

constexpr SpecRef kTargetVersionRef{"target.introduced", "PTX 9.0 .target directive, PTX ISA Notes (docs/spec-decisions.md target.introduced)"};
constexpr SpecRef kSyntaxRef{"syntax", "PTX 9.0 4 Syntax"};
constexpr SpecRef kDeclarationLimitRef{"limit.declared-names", "reference/parser.h kMaxDeclaredNames",
                                      RuleSource::kHarnessLimit};
constexpr SpecRef kAddressRef{"operand.address", "PTX 9.0 6.4.1 Addresses as Operands; immediate addresses are "
                                                 "rejected by ptxas 13.0.88 outside .local",
                              RuleSource::kMeasured};
constexpr SpecRef kGuardRef{"operand.guard", "PTX 9.0 9.3 Predicated execution: a guard is a .pred register"};

// OperandChecker applies the operand signature to the operands as written.
class OperandChecker {
 public:
  OperandChecker(const RawInstruction& instruction, const DeclarationIndex& declarations, const FamilySpec& spec,
                 const OperandSignature& signature, std::vector<Reason>& reasons)
      : instruction_(instruction), declarations_(declarations), spec_(spec), signature_(signature), reasons_(reasons) {}

  void Check() {
    const std::vector<Operand>& operands = instruction_.operands;
    const absl::Span<const SignatureOperand> slots = signature_.Operands();
    const size_t allowed = slots.size();
    const size_t required = static_cast<size_t>(
        std::count_if(slots.begin(), slots.end(), [](const SignatureOperand& slot) { return !slot.optional; }));
    if (operands.size() < required || operands.size() > allowed) {
      Add(ReasonCode::kOperandCount,
          absl::StrCat("expects ", required == allowed ? "" : "at least ", required, " operands (", Layout(),
                       "), got ", operands.size()));
      return;
    }
    for (size_t i = 0; i < operands.size(); ++i) CheckOperand(slots[i], operands[i]);
  }

 private:
  // CheckOperand checks one written operand against the slot it fills.
  void CheckOperand(const SignatureOperand& slot, const Operand& operand) {
    switch (slot.role) {
      case OperandRole::kDestinationVector:
      case OperandRole::kSourceVector:
      case OperandRole::kMetadataVector: CheckVector(operand, slot); return;
      case OperandRole::kReductionValue: CheckScalarRegister(operand, RegisterClass::kAny32, slot.name); return;
      case OperandRole::kAddress: CheckAddress(operand); return;
      case OperandRole::kOffset:
        if (!std::holds_alternative<ImmediateOperand>(operand)) {
          Add(ReasonCode::kOperandKind, absl::StrCat(slot.name, " must be an immediate"));
        }
        return;
      case OperandRole::kStride:
        if (!std::holds_alternative<ImmediateOperand>(operand)) {
          CheckScalarRegister(operand, RegisterClass::kInt32, slot.name);
        }
        return;
    }
  }

  // Layout spells the operands a form takes: "{r...}, [address] {, stride}".
  std::string Layout() const {
    std::string layout;
    for (const SignatureOperand& slot : signature_.Operands()) {
      absl::string_view spelling = slot.name;
      if (slot.role == OperandRole::kDestinationVector || slot.role == OperandRole::kSourceVector) spelling = "{r...}";
      if (slot.role == OperandRole::kMetadataVector) spelling = "{m...}";
      if (slot.role == OperandRole::kAddress) spelling = "[address]";
      if (layout.empty()) {
        absl::StrAppend(&layout, spelling);
      } else {
        absl::StrAppend(&layout, slot.optional ? " {, " : ", ", spelling, slot.optional ? "}" : "");
      }
    }
    return layout;
  }

  // FindDeclaration looks `name` up in the indexed declarations, in constant
  // time, so that a long destination vector against many declarations
  // stays linear.
  const Declaration* FindDeclaration(absl::string_view name) const { return declarations_.Find(name); }

  void Add(ReasonCode code, std::string message, const SpecRef* ref = nullptr) {
    reasons_.push_back({code, ref != nullptr ? *ref : spec_.operands.ref, std::move(message)});
  }

  // CheckRegisterName checks that `name` is a declared register, and with
  // `check_type`, one of `cls`.
  void CheckRegisterName(const std::string& name, RegisterClass cls, absl::string_view role, bool check_type = true) {
    const Declaration* declaration = FindDeclaration(name);
    if (declaration == nullptr) {
      if (!declarations_.empty()) Add(ReasonCode::kUndeclaredName, absl::StrCat("'", name, "' is not declared"));
      return;
    }
    if (declaration->state_space != ".reg") {
      Add(ReasonCode::kOperandKind, absl::StrCat(role, " '", name, "' is a ", declaration->state_space,
                                                 " variable, not a register"));
      return;
    }
    if (check_type && !RegisterClassAccepts(cls, declaration->type)) {
      Add(ReasonCode::kRegisterType,
          absl::StrCat(role, " '", name, "' is ", declaration->type, "; it must be ", RegisterClassName(cls)),
          &kRegisterClassRef);
    }
  }

  void CheckScalarRegister(const Operand& operand, RegisterClass cls, absl::string_view role) {
    const auto* reg = std::get_if<RegisterOperand>(&operand);
    if (reg == nullptr) {
      Add(ReasonCode::kOperandKind, absl::StrCat(role, " must be a register, not '", OperandToString(operand), "'"));
      return;
    }
    CheckRegisterName(reg->name, cls, role);
  }

  // CheckMixedVectorType types a destination vector of 32-bit registers
  // declared with different types as ptxas does (CombinedVectorType), and
  // says whether it did; then its elements' own types no longer matter.
  bool CheckMixedVectorType(const VectorOperand& vector, absl::string_view role) {
    std::vector<absl::string_view> types;
    for (const std::string& element : vector.elements) {
      const Declaration* declaration = FindDeclaration(element);
      if (declaration == nullptr || declaration->state_space != ".reg") continue;
      if (!IsThirtyTwoBitType(declaration->type)) return false;
      if (std::find(types.begin(), types.end(), declaration->type) == types.end()) types.push_back(declaration->type);
    }
    if (types.size() < 2) return false;
    const std::optional<absl::string_view> combined = CombinedVectorType(types);
    if (!combined.has_value()) {
      Add(ReasonCode::kRegisterType,
          absl::StrCat("the ", role, " vector mixes ", absl::StrJoin(types, ", "),
                       " registers; only .b32 or integer registers mix with other types"),
          &kRegisterClassRef);
    } else if (!RegisterClassAccepts(signature_.destination_class, *combined)) {
      Add(ReasonCode::kRegisterType,
          absl::StrCat("the ", role, " vector is ", *combined, "; it must be ",
                       RegisterClassName(signature_.destination_class)),
          &kRegisterClassRef);
    }
    return true;
  }

  // CheckVector checks a register vector (the slot names it: "destination",
  // "source", "mdata") against the fragment row: its length and register
  // class.
  void CheckVector(const Operand& operand, const SignatureOperand& slot) {
    const absl::string_view role = slot.name;
    const int length = signature_.VectorLength(slot.role);
    const auto* vector = std::get_if<VectorOperand>(&operand);
    if (vector == nullptr) {
      Add(ReasonCode::kOperandKind, absl::StrCat("the ", role, " must be a brace-enclosed vector of ", length,
                                                 " registers, not '", OperandToString(operand), "'"));
      return;
    }
    if (static_cast<int>(vector->elements.size()) != length) {
      Add(ReasonCode::kVectorLength,
          absl::StrCat("the ", role, " vector holds ", vector->elements.size(), " registers; this form loads ", length),
          &signature_.destination_ref);
    }
    const bool typed_as_a_whole = CheckMixedVectorType(*vector, role);
    for (const std::string& element : vector->elements) {
      if (element == "_") continue;  // the sink register
      if (!element.empty() && (std::isdigit(static_cast<unsigned char>(element[0])) || element[0] == '-')) {
        Add(ReasonCode::kOperandKind, absl::StrCat(role, " element '", element, "' is not a register"));
        continue;
      }
      CheckRegisterName(element, signature_.destination_class, role, !typed_as_a_whole);
    }
  }

  void CheckAddress(const Operand& operand) {
    const auto* address = std::get_if<AddressOperand>(&operand);
    if (address == nullptr) {
      Add(ReasonCode::kOperandKind, absl::StrCat("expected a bracketed address, not '", OperandToString(operand), "'"));
      return;
    }
    if (address->base.empty()) {
      Add(ReasonCode::kAddressForm, "an immediate address is not allowed here", &kAddressRef);
      return;
    }
    const Declaration* declaration = FindDeclaration(address->base);
    if (signature_.address == AddressKind::kTensorMemory) {
      if (declaration != nullptr && declaration->state_space != ".reg") {
        Add(ReasonCode::kAddressForm, "taddr must be a 32-bit register holding a Tensor Memory address");
        return;
      }
      CheckRegisterName(address->base, RegisterClass::kTmemAddress, "taddr");
      return;
    }
    if (declaration == nullptr || declaration->state_space == ".reg") {
      CheckRegisterName(address->base, RegisterClass::kAddress, "the address");
      return;
    }
    if (declaration->type == ".pred") {
      Add(ReasonCode::kRegisterType, "a predicate cannot be an address", &kRegisterClassRef);
      return;
    }
    const StateSpace variable_space = declaration->state_space == ".shared" ? StateSpace::kShared : StateSpace::kGlobal;
    if (signature_.state_space != StateSpace::kGeneric && signature_.state_space != variable_space) {
      Add(ReasonCode::kStateSpaceMismatch, absl::StrCat("'", address->base, "' is a ", declaration->state_space,
                                                        " variable, but the instruction names another state space"));
    }
  }

  const RawInstruction& instruction_;
  const DeclarationIndex& declarations_;
  const FamilySpec& spec_;
  const OperandSignature& signature_;
  std::vector<Reason>& reasons_;
};

}  // namespace

std::vector<Reason> QualifierReasons(const FamilySpec& spec, const QualifierSet& qualifiers, PtxVersion ptx,
                                     Target target) {
  std::vector<Reason> reasons;
  CheckQualifierRules(spec, qualifiers, ptx, target, &reasons);
  return reasons;
}

namespace {

// Judged is what judging an instruction finds: every reason it is illegal
// and, for a legal one, what its CheckedInstruction holds.
struct Judged {
  std::vector<Reason> reasons;
  const FamilySpec* spec = nullptr;
  QualifierSet qualifiers;
  std::optional<OperandSignature> signature;
};

// JudgeIndexed applies every rule of the instruction's family table, its
// registers looked up in `declarations` (Judge).
Judged JudgeIndexed(const RawInstruction& raw, const DeclarationIndex& declarations, PtxVersion ptx, Target target) {
  Judged judged{.spec = FindFamily(raw.opcode)};
  std::vector<Reason>& reasons = judged.reasons;
  if (judged.spec == nullptr) {
    reasons.push_back({ReasonCode::kUnknownInstruction, kSyntaxRef,
                       absl::StrCat("'", absl::StrJoin(raw.opcode, "."),
                                    "' is not ", FamilyNamesText())});
    return judged;
  }
  const FamilySpec& spec = *judged.spec;
  if (!TargetExistsIn(target, ptx)) {
    reasons.push_back({ReasonCode::kTargetNotInPtxVersion, kTargetVersionRef,
                       absl::StrCat(".target ", target.Name(), " does not exist in PTX ISA ", ptx.ToString())});
  }
  DecodedQualifiers decoded = DecodeQualifiers(spec, raw.opcode);
  reasons.insert(reasons.end(), decoded.reasons.begin(), decoded.reasons.end());
  CheckQualifierRules(spec, decoded.qualifiers, ptx, target, &reasons);
  if (raw.guard.has_value() && !declarations.empty()) {
    std::string predicate = raw.guard->front() == '!' ? raw.guard->substr(1) : *raw.guard;
    const Declaration* declaration = declarations.Find(predicate);
    if (declaration == nullptr || declaration->type != ".pred") {
      reasons.push_back({declaration == nullptr ? ReasonCode::kUndeclaredName : ReasonCode::kRegisterType, kGuardRef,
                         absl::StrCat("guard '", predicate, "' is not a declared .pred register")});
    }
  }
  judged.qualifiers = decoded.qualifiers;
  judged.signature = spec.Signature(decoded.qualifiers);
  if (judged.signature.has_value()) OperandChecker(raw, declarations, spec, *judged.signature, reasons).Check();
  return judged;
}

}  // namespace

Verdict Judge(const Snippet& snippet, PtxVersion ptx, Target target) {
  const RawInstruction& raw = snippet.instruction;
  const std::vector<Declaration> implicit =
      snippet.declarations.empty() ? ImplicitDeclarations(raw) : std::vector<Declaration>{};
  Judged judged =
      JudgeIndexed(raw, DeclarationIndex(snippet.declarations.empty() ? implicit : snippet.declarations), ptx, target);
  Verdict verdict;
  verdict.reasons_ = std::move(judged.reasons);
  if (verdict.reasons_.empty()) {
    verdict.checked_ = CheckedInstruction(Form{judged.spec->family, raw.guard, judged.qualifiers, raw.operands},
                                          judged.spec, *judged.signature, ptx, target);
  }
  return verdict;
}

bool JudgedLegal(const RawInstruction& instruction, const DeclarationIndex& declarations, PtxVersion ptx,
                 Target target) {
  return JudgeIndexed(instruction, declarations, ptx, target).reasons.empty();
}

Verdict JudgeText(absl::string_view text, PtxVersion ptx, Target target) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(text);
  if (!snippet.ok()) {
    Verdict verdict;
    if (snippet.status().code() == absl::StatusCode::kResourceExhausted) {
      verdict.reasons_.push_back({ReasonCode::kLimit, kDeclarationLimitRef, std::string(snippet.status().message())});
    } else {
      verdict.reasons_.push_back({ReasonCode::kSyntax, kSyntaxRef, std::string(snippet.status().message())});
    }
    return verdict;
  }
  return Judge(*snippet, ptx, target);
}

}  // namespace matload
