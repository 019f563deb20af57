#include "reference/enumerate.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "reference/declaration_index.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/printer.h"
#include "reference/qualifier_rules.h"
#include "reference/register_class.h"

namespace matload {
namespace {

std::vector<Declaration> BuildRegisterFile() {
  std::vector<Declaration> file;
  auto add_pool = [&file](absl::string_view type, absl::string_view prefix, int count) {
    for (int i = 0; i < count; ++i) file.push_back({".reg", std::string(type), absl::StrCat(prefix, i)});
  };
  add_pool(".b32", "%r", 128);
  add_pool(".b64", "%rd", 2);
  add_pool(".b16", "%h", 4);
  add_pool(".f32", "%f", 128);
  add_pool(".b32", "%meta", 8);
  for (const auto& [type, name] : std::vector<std::pair<std::string, std::string>>{
           {".b64", "%addr"}, {".b32", "%addr32"}, {".b32", "%stride"}, {".b32", "%taddr"}, {".b32", "%redval"},
           {".pred", "%p"}}) {
    file.push_back({".reg", type, name});
  }
  file.push_back({".shared", ".b8", "%smem"});
  file.push_back({".global", ".b8", "%gmem"});
  return file;
}

// RegisterNames returns `count` register names of the StandardRegisterFile
// pool `prefix`: "%r0", "%r1", ...
std::vector<std::string> RegisterNames(absl::string_view prefix, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(absl::StrCat(prefix, i));
  return names;
}

// VectorPool names the StandardRegisterFile pool of the vector operand of
// `role`: the destination (or source) registers by their class, and the
// metadata vector a pool of its own, so that no two vectors share a
// register (ptxas rejects overlapping vectors).
absl::string_view VectorPool(const OperandSignature& signature, OperandRole role) {
  if (role == OperandRole::kMetadataVector) return "%meta";
  return RegisterClassBits(signature.destination_class) == 64 ? "%rd" : "%r";
}

// ForEachQualifierSet calls `visit` with every qualifier set of `spec`
// (each axis absent or one of its values).
template <typename Visit>
void ForEachQualifierSet(const FamilySpec& spec, QualifierSet& current, int axis, const Visit& visit) {
  if (axis == static_cast<int>(spec.axes.size())) {
    visit(current);
    return;
  }
  for (int value = kAbsent; value < static_cast<int>(spec.axes[axis].spellings.size()); ++value) {
    current.Set(axis, value);
    ForEachQualifierSet(spec, current, axis + 1, visit);
  }
  current.Set(axis, kAbsent);
}

// NearMissCollector keeps the candidates the model judges illegal, once each.
class NearMissCollector {
 public:
  NearMissCollector(PtxVersion ptx, Target target) : ptx_(ptx), target_(target) {}

  void Offer(RawInstruction candidate) {
    std::string text = PrintRaw(candidate);
    if (!seen_.insert(text).second) return;
    if (JudgedLegal(candidate, StandardDeclarationIndex(), ptx_, target_)) return;
    result_.push_back(std::move(candidate));
  }

  std::vector<RawInstruction> Take() { return std::move(result_); }

 private:
  PtxVersion ptx_;
  Target target_;
  absl::flat_hash_set<std::string> seen_;
  std::vector<RawInstruction> result_;
};

// ForeignSpellings lists qualifier tokens (without the dot) that other
// families have and `spec` does not.
std::vector<std::string> ForeignSpellings(const FamilySpec& spec) {
  absl::flat_hash_set<std::string> own;
  for (const AxisSpec& axis : spec.axes) {
    for (absl::string_view spelling : axis.spellings) own.insert(std::string(spelling.substr(1)));
  }
  std::vector<std::string> foreign;
  absl::flat_hash_set<std::string> listed;
  for (const FamilySpec* other : AllFamilies()) {
    for (const AxisSpec& axis : other->axes) {
      for (absl::string_view spelling : axis.spellings) {
        std::string token(spelling.substr(1));
        if (!own.contains(token) && listed.insert(token).second) foreign.push_back(token);
      }
    }
  }
  return foreign;
}

void OfferQualifierMutations(const FamilySpec& spec, const Form& legal, const std::vector<std::string>& foreign,
                             size_t serial, NearMissCollector& out) {
  // One axis changed to each other value, or dropped.
  for (int axis = 0; axis < static_cast<int>(spec.axes.size()); ++axis) {
    for (int value = kAbsent; value < static_cast<int>(spec.axes[axis].spellings.size()); ++value) {
      if (legal.qualifiers.Has(axis, value)) continue;
      Form mutated = legal;
      mutated.qualifiers.Set(axis, value);
      out.Offer(ToRaw(mutated));
    }
  }
  const RawInstruction canonical = ToRaw(legal);
  const size_t first = spec.mnemonic.size();
  // One qualifier written twice.
  for (size_t i = first; i < canonical.opcode.size(); ++i) {
    RawInstruction repeated = canonical;
    repeated.opcode.insert(repeated.opcode.begin() + static_cast<long>(i), canonical.opcode[i]);
    out.Offer(std::move(repeated));
  }
  // One qualifier moved to the end (illegal only where placement matters).
  for (size_t i = first; i + 1 < canonical.opcode.size(); ++i) {
    RawInstruction moved = canonical;
    std::string token = moved.opcode[i];
    moved.opcode.erase(moved.opcode.begin() + static_cast<long>(i));
    moved.opcode.push_back(token);
    out.Offer(std::move(moved));
  }
  // One qualifier of another family, rotating through the list.
  RawInstruction foreign_added = canonical;
  foreign_added.opcode.push_back(foreign[serial % foreign.size()]);
  out.Offer(std::move(foreign_added));
}

void OfferOperandMutations(const OperandSignature& signature, const Form& legal, NearMissCollector& out) {
  auto with_operands = [&legal](std::vector<Operand> operands) {
    Form mutated = legal;
    mutated.operands = std::move(operands);
    return ToRaw(mutated);
  };
  const std::vector<Operand>& operands = legal.operands;
  std::vector<std::vector<Operand>> variants;
  // Each vector (destination, source, metadata): one register more or
  // fewer, a scalar, wrong-typed pools, an immediate element, an undeclared
  // name.
  const absl::Span<const SignatureOperand> slots = signature.Operands();
  for (int vector_index = 0; vector_index < static_cast<int>(slots.size()); ++vector_index) {
    const OperandRole role = slots[vector_index].role;
    if (!IsVectorRole(role)) continue;
    const absl::string_view pool = VectorPool(signature, role);
    const int count = signature.VectorLength(role);
    for (int length : {count - 1, count + 1}) {
      if (length < 1) continue;
      variants.push_back(operands);
      variants.back()[vector_index] = VectorOperand{RegisterNames(pool, length)};
    }
    variants.push_back(operands);
    variants.back()[vector_index] = RegisterOperand{absl::StrCat(pool, 0)};
    for (absl::string_view wrong_pool : {"%h", "%f", "%rd"}) {
      if (wrong_pool == pool || (wrong_pool == "%h" && count > 4) || (wrong_pool == "%rd" && count > 2)) continue;
      variants.push_back(operands);
      variants.back()[vector_index] = VectorOperand{RegisterNames(wrong_pool, count)};
    }
    variants.push_back(operands);
    std::get<VectorOperand>(variants.back()[vector_index]).elements.back() = "7";
    variants.push_back(operands);
    std::get<VectorOperand>(variants.back()[vector_index]).elements.back() = "%undeclared";
  }
  // Address: an immediate, a wrong-typed register, variables of each space.
  const int address_index = signature.IndexOf(OperandRole::kAddress);
  for (Operand address : {Operand{AddressOperand{"", 64}}, Operand{AddressOperand{"%f0", 0}},
                          Operand{AddressOperand{"%h0", 0}}, Operand{AddressOperand{"%smem", 0}},
                          Operand{AddressOperand{"%gmem", 0}}, Operand{AddressOperand{"%addr", 0}},
                          Operand{RegisterOperand{"%addr"}}}) {
    variants.push_back(operands);
    variants.back()[address_index] = address;
  }
  // Trailing operands: one extra register, one extra immediate, and the
  // last operand dropped; a stride of the wrong type.
  variants.push_back(operands);
  variants.back().push_back(RegisterOperand{"%stride"});
  variants.push_back(operands);
  variants.back().push_back(ImmediateOperand{16});
  variants.push_back(operands);
  variants.back().pop_back();
  if (signature.stride) {
    variants.push_back(operands);
    variants.back().push_back(RegisterOperand{"%f0"});
  }
  // redval: dropped where required, added where not.
  variants.push_back(operands);
  if (const int redval = signature.IndexOf(OperandRole::kReductionValue); redval >= 0) {
    variants.back().erase(variants.back().begin() + redval);
  } else {
    variants.back().insert(variants.back().begin() + address_index, RegisterOperand{"%redval"});
  }
  for (auto& variant : variants) out.Offer(with_operands(std::move(variant)));
}

}  // namespace

const std::vector<Declaration>& StandardRegisterFile() {
  static const auto* const kFile = new std::vector<Declaration>(BuildRegisterFile());
  return *kFile;
}

std::vector<Declaration> UsedStandardDeclarations(const RawInstruction& instruction) {
  absl::flat_hash_set<std::string> names;
  for (const Operand& operand : instruction.operands) {
    if (const auto* vector = std::get_if<VectorOperand>(&operand)) names.insert(vector->elements.begin(), vector->elements.end());
    if (const auto* reg = std::get_if<RegisterOperand>(&operand)) names.insert(reg->name);
    if (const auto* address = std::get_if<AddressOperand>(&operand)) names.insert(address->base);
  }
  std::vector<Declaration> used;
  for (const Declaration& declaration : StandardRegisterFile()) {
    if (names.contains(declaration.name)) used.push_back(declaration);
  }
  return used;
}

std::vector<OperandStyle> OperandStyles(const OperandSignature& signature) {
  using Address = OperandStyle::Address;
  using Stride = OperandStyle::Stride;
  std::vector<Address> addresses = {Address::kRegister64, Address::kRegister32, Address::kRegisterPlusOffset};
  if (signature.address == AddressKind::kTensorMemory) addresses = {Address::kRegister32, Address::kRegisterPlusOffset};
  std::vector<Stride> strides = {Stride::kNone};
  if (signature.stride) strides = {Stride::kNone, Stride::kRegister, Stride::kImmediate};
  std::vector<OperandStyle> styles;
  for (Address address : addresses) {
    for (Stride stride : strides) styles.push_back({address, stride});
  }
  return styles;
}

namespace {

// StandardAddress is the address operand of `style`.
AddressOperand StandardAddress(const OperandSignature& signature, OperandStyle::Address style) {
  const bool tensor = signature.address == AddressKind::kTensorMemory;
  switch (style) {
    case OperandStyle::Address::kRegister64: return AddressOperand{"%addr", 0};
    case OperandStyle::Address::kRegister32: return AddressOperand{tensor ? "%taddr" : "%addr32", 0};
    case OperandStyle::Address::kRegisterPlusOffset: break;
  }
  return AddressOperand{tensor ? "%taddr" : "%addr", tensor ? 4 : 32};
}

}  // namespace

std::vector<Operand> StandardOperands(const OperandSignature& signature, OperandStyle style) {
  std::vector<Operand> operands;
  for (const SignatureOperand& slot : signature.Operands()) {
    switch (slot.role) {
      case OperandRole::kDestinationVector:
      case OperandRole::kSourceVector:
      case OperandRole::kMetadataVector:
        operands.push_back(
            VectorOperand{RegisterNames(VectorPool(signature, slot.role), signature.VectorLength(slot.role))});
        break;
      case OperandRole::kReductionValue: operands.push_back(RegisterOperand{"%redval"}); break;
      case OperandRole::kAddress: operands.push_back(StandardAddress(signature, style.address)); break;
      case OperandRole::kOffset: operands.push_back(ImmediateOperand{16}); break;
      case OperandRole::kStride:
        if (style.stride == OperandStyle::Stride::kRegister) operands.push_back(RegisterOperand{"%stride"});
        if (style.stride == OperandStyle::Stride::kImmediate) operands.push_back(ImmediateOperand{64});
        break;
    }
  }
  return operands;
}

std::vector<QualifierSet> LegalQualifierSets(const FamilySpec& spec, PtxVersion ptx, Target target) {
  std::vector<QualifierSet> legal;
  QualifierSet current;
  ForEachQualifierSet(spec, current, 0, [&](const QualifierSet& candidate) {
    if (CheckQualifierRules(spec, candidate, ptx, target, nullptr)) legal.push_back(candidate);
  });
  return legal;
}

std::optional<CheckedInstruction> StandardInstruction(const FamilySpec& spec, const QualifierSet& qualifiers,
                                                      PtxVersion ptx, Target target) {
  const std::optional<OperandSignature> signature = spec.Signature(qualifiers);
  if (!signature.has_value()) return std::nullopt;
  const Form form{spec.family, std::nullopt, qualifiers, StandardOperands(*signature, OperandStyles(*signature).front())};
  return Judge(Snippet{StandardRegisterFile(), ToRaw(form)}, ptx, target).checked();
}

std::vector<CheckedInstruction> StandardInstructions(PtxVersion ptx, Target target) {
  std::vector<CheckedInstruction> instructions;
  for (const FamilySpec* spec : AllFamilies()) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, target)) {
      if (std::optional<CheckedInstruction> instruction = StandardInstruction(*spec, qualifiers, ptx, target)) {
        instructions.push_back(*std::move(instruction));
      }
    }
  }
  return instructions;
}

std::vector<Form> LegalForms(PtxVersion ptx, Target target) {
  std::vector<Form> forms;
  if (!TargetExistsIn(target, ptx)) return forms;
  for (const FamilySpec* spec : AllFamilies()) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, target)) {
      const OperandSignature signature = *spec->Signature(qualifiers);
      for (OperandStyle style : OperandStyles(signature)) {
        forms.push_back(Form{spec->family, std::nullopt, qualifiers, StandardOperands(signature, style)});
      }
    }
  }
  return forms;
}

std::vector<RawInstruction> NearMissInstructions(PtxVersion ptx, Target target) {
  NearMissCollector collector(ptx, target);
  if (!TargetExistsIn(target, ptx)) return collector.Take();
  for (const FamilySpec* spec : AllFamilies()) {
    const std::vector<std::string> foreign = ForeignSpellings(*spec);
    size_t serial = 0;
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, target)) {
      const OperandSignature signature = *spec->Signature(qualifiers);
      const Form legal{spec->family, std::nullopt, qualifiers, StandardOperands(signature, OperandStyles(signature)[0])};
      OfferQualifierMutations(*spec, legal, foreign, serial++, collector);
      OfferOperandMutations(signature, legal, collector);
    }
  }
  return collector.Take();
}

}  // namespace matload
