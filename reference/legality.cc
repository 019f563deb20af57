#include "reference/legality.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "reference/families.h"
#include "reference/parser.h"
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

std::string ClausesText(const std::vector<TargetClause>& clauses) {
  return absl::StrJoin(clauses, ", ", [](std::string* out, const TargetClause& c) { out->append(c.ToString()); });
}

// OperandChecker applies the operand signature to the operands as written.
class OperandChecker {
 public:
  OperandChecker(const Snippet& snippet, const FamilySpec& spec, const OperandSignature& signature,
                 std::vector<Reason>& reasons)
      : snippet_(snippet), spec_(spec), signature_(signature), reasons_(reasons) {
    // The first declaration of a name counts, as in Snippet::FindDeclaration.
    for (const Declaration& declaration : snippet.declarations) {
      declarations_.try_emplace(declaration.name, &declaration);
    }
  }

  void Check() {
    const std::vector<Operand>& operands = snippet_.instruction.operands;
    const size_t required = 2 + (signature_.redval ? 1 : 0) + (signature_.half_split_offset ? 1 : 0);
    const size_t allowed = required + (signature_.stride ? 1 : 0);
    if (operands.size() < required || operands.size() > allowed) {
      Add(ReasonCode::kOperandCount,
          absl::StrCat("expects ", required == allowed ? "" : "at least ", required, " operands (", Layout(),
                       "), got ", operands.size()));
      return;
    }
    size_t next = 0;
    CheckDestination(operands[next++]);
    if (signature_.redval) CheckScalarRegister(operands[next++], RegisterClass::kAny32, "redval");
    CheckAddress(operands[next++]);
    if (signature_.half_split_offset) {
      if (!std::holds_alternative<ImmediateOperand>(operands[next++])) {
        Add(ReasonCode::kOperandKind, "immHalfSplitoff must be an immediate");
      }
    } else if (next < operands.size()) {
      const Operand& stride = operands[next];
      if (!std::holds_alternative<ImmediateOperand>(stride)) {
        CheckScalarRegister(stride, RegisterClass::kInt32, "stride");
      }
    }
  }

 private:
  std::string Layout() const {
    std::string layout = "{r...}";
    if (signature_.redval) absl::StrAppend(&layout, ", redval");
    absl::StrAppend(&layout, ", [address]");
    if (signature_.half_split_offset) absl::StrAppend(&layout, ", immHalfSplitoff");
    if (signature_.stride) absl::StrAppend(&layout, " {, stride}");
    return layout;
  }

  // FindDeclaration is Snippet::FindDeclaration in constant time, so that a
  // long destination vector against many declarations stays linear.
  const Declaration* FindDeclaration(absl::string_view name) const {
    auto found = declarations_.find(name);
    return found == declarations_.end() ? nullptr : found->second;
  }

  void Add(ReasonCode code, std::string message, const SpecRef* ref = nullptr) {
    reasons_.push_back({code, ref != nullptr ? *ref : spec_.operands.ref, std::move(message)});
  }

  // CheckRegisterName checks that `name` is a declared register, and with
  // `check_type`, one of `cls`.
  void CheckRegisterName(const std::string& name, RegisterClass cls, absl::string_view role, bool check_type = true) {
    const Declaration* declaration = FindDeclaration(name);
    if (declaration == nullptr) {
      if (!snippet_.declarations.empty()) Add(ReasonCode::kUndeclaredName, absl::StrCat("'", name, "' is not declared"));
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
  bool CheckMixedVectorType(const VectorOperand& vector) {
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
          absl::StrCat("the destination vector mixes ", absl::StrJoin(types, ", "),
                       " registers; only .b32 or integer registers mix with other types"),
          &kRegisterClassRef);
    } else if (!RegisterClassAccepts(signature_.destination_class, *combined)) {
      Add(ReasonCode::kRegisterType,
          absl::StrCat("the destination vector is ", *combined, "; it must be ", RegisterClassName(signature_.destination_class)),
          &kRegisterClassRef);
    }
    return true;
  }

  void CheckDestination(const Operand& operand) {
    const auto* vector = std::get_if<VectorOperand>(&operand);
    if (vector == nullptr) {
      Add(ReasonCode::kOperandKind,
          absl::StrCat("the destination must be a brace-enclosed vector of ", signature_.destination_count,
                       " registers, not '", OperandToString(operand), "'"));
      return;
    }
    if (static_cast<int>(vector->elements.size()) != signature_.destination_count) {
      Add(ReasonCode::kVectorLength, absl::StrCat("the destination vector holds ", vector->elements.size(),
                                                  " registers; this form loads ", signature_.destination_count),
          &signature_.destination_ref);
    }
    const bool typed_as_a_whole = CheckMixedVectorType(*vector);
    for (const std::string& element : vector->elements) {
      if (element == "_") continue;  // the sink register
      if (!element.empty() && (std::isdigit(static_cast<unsigned char>(element[0])) || element[0] == '-')) {
        Add(ReasonCode::kOperandKind, absl::StrCat("destination element '", element, "' is not a register"));
        continue;
      }
      CheckRegisterName(element, signature_.destination_class, "destination", !typed_as_a_whole);
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

  const Snippet& snippet_;
  const FamilySpec& spec_;
  const OperandSignature& signature_;
  std::vector<Reason>& reasons_;
  absl::flat_hash_map<absl::string_view, const Declaration*> declarations_;
};

}  // namespace

std::vector<Reason> QualifierReasons(const FamilySpec& spec, const QualifierSet& qualifiers, PtxVersion ptx,
                                     Target target) {
  std::vector<Reason> reasons;
  bool missing = false;
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    if (spec.axes[axis].mandatory && !qualifiers.Present(axis)) {
      missing = true;
      reasons.push_back({ReasonCode::kMissingQualifier, spec.axes[axis].ref,
                         absl::StrCat("the ", spec.axes[axis].name, " qualifier is required")});
    }
  }
  for (const Constraint& constraint : spec.constraints) {
    if (ptx >= constraint.from && constraint.when.Holds(qualifiers) && !constraint.require.Holds(qualifiers)) {
      missing = missing || constraint.code == ReasonCode::kMissingQualifier;
      reasons.push_back({constraint.code, constraint.ref, std::string(constraint.message)});
    }
  }
  for (const VersionGate& gate : spec.version_gates) {
    if (gate.when.Holds(qualifiers) && ptx < gate.minimum) {
      reasons.push_back({ReasonCode::kPtxVersion, gate.ref,
                         absl::StrCat(gate.feature, ": requires PTX ISA ", gate.minimum.ToString(), ", not ",
                                      ptx.ToString())});
    }
  }
  for (const TargetGate& gate : spec.target_gates) {
    if (!gate.when.Holds(qualifiers)) continue;
    bool available = false;
    for (const TargetClause& clause : gate.any_of) available = available || clause.Matches(target, ptx);
    if (!available) {
      reasons.push_back({ReasonCode::kTarget, gate.ref,
                         absl::StrCat(gate.feature, ": not supported on ", target.Name(), " at PTX ISA ",
                                      ptx.ToString(), "; it needs ", ClausesText(gate.any_of))});
    }
  }
  if (!missing && spec.FindFragment(qualifiers) == nullptr) {
    reasons.push_back({ReasonCode::kQualifierCombination, spec.fragment_table_ref,
                       absl::StrCat("no ", spec.MnemonicText(), " form has these qualifiers in ",
                                    spec.fragment_table_ref.section)});
  }
  return reasons;
}

Verdict Judge(const Snippet& snippet, PtxVersion ptx, Target target) {
  Verdict verdict;
  std::vector<Reason>& reasons = verdict.reasons_;
  const RawInstruction& raw = snippet.instruction;
  const FamilySpec* spec = FindFamily(raw.opcode);
  if (spec == nullptr) {
    reasons.push_back({ReasonCode::kUnknownInstruction, kSyntaxRef,
                       absl::StrCat("'", absl::StrJoin(raw.opcode, "."),
                                    "' is not wmma.load, ldmatrix or tcgen05.ld")});
    return verdict;
  }
  if (!TargetExistsIn(target, ptx)) {
    reasons.push_back({ReasonCode::kTargetNotInPtxVersion, kTargetVersionRef,
                       absl::StrCat(".target ", target.Name(), " does not exist in PTX ISA ", ptx.ToString())});
  }
  DecodedQualifiers decoded = DecodeQualifiers(*spec, raw.opcode);
  reasons.insert(reasons.end(), decoded.reasons.begin(), decoded.reasons.end());
  std::vector<Reason> qualifier_reasons = QualifierReasons(*spec, decoded.qualifiers, ptx, target);
  reasons.insert(reasons.end(), qualifier_reasons.begin(), qualifier_reasons.end());
  if (raw.guard.has_value() && !snippet.declarations.empty()) {
    std::string predicate = raw.guard->front() == '!' ? raw.guard->substr(1) : *raw.guard;
    const Declaration* declaration = snippet.FindDeclaration(predicate);
    if (declaration == nullptr || declaration->type != ".pred") {
      reasons.push_back({declaration == nullptr ? ReasonCode::kUndeclaredName : ReasonCode::kRegisterType, kGuardRef,
                         absl::StrCat("guard '", predicate, "' is not a declared .pred register")});
    }
  }
  std::optional<OperandSignature> signature = spec->Signature(decoded.qualifiers);
  if (signature.has_value()) OperandChecker(snippet, *spec, *signature, reasons).Check();
  if (reasons.empty()) {
    verdict.checked_ = CheckedInstruction(Form{spec->family, raw.guard, decoded.qualifiers, raw.operands}, spec,
                                          *signature, ptx, target);
  }
  return verdict;
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
