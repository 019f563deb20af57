#include "reference/implicit_declarations.h"

#include <cctype>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "reference/families.h"
#include "reference/form.h"
#include "reference/register_class.h"

namespace matload {

std::vector<Declaration> ImplicitDeclarations(const RawInstruction& instruction) {
  std::vector<Declaration> declarations;
  absl::flat_hash_set<std::string> declared;
  auto declare = [&](const std::string& name, absl::string_view type) {
    if (name.empty() || name == "_" || !declared.insert(name).second) return;
    if (std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-') return;
    declarations.push_back({".reg", std::string(type), name});
  };
  const FamilySpec* spec = FindFamily(instruction.opcode);
  std::optional<OperandSignature> signature;
  if (spec != nullptr) signature = spec->Signature(DecodeQualifiers(*spec, instruction.opcode).qualifiers);
  const bool tensor = spec != nullptr && spec->operands.address == AddressKind::kTensorMemory;
  const bool wide = signature.has_value() && RegisterClassBits(signature->destination_class) == 64;
  if (instruction.guard.has_value()) {
    declare(instruction.guard->front() == '!' ? instruction.guard->substr(1) : *instruction.guard, ".pred");
  }
  for (const Operand& operand : instruction.operands) {
    if (const auto* vector = std::get_if<VectorOperand>(&operand)) {
      for (const std::string& element : vector->elements) declare(element, wide ? ".b64" : ".b32");
    } else if (const auto* reg = std::get_if<RegisterOperand>(&operand)) {
      declare(reg->name, ".b32");
    } else if (const auto* address = std::get_if<AddressOperand>(&operand)) {
      declare(address->base, tensor ? ".b32" : ".b64");
    }
  }
  return declarations;
}

}  // namespace matload
