#include "reference/raw_instruction.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {

std::string OperandToString(const Operand& operand) {
  struct Printer {
    std::string operator()(const VectorOperand& v) const { return absl::StrCat("{", absl::StrJoin(v.elements, ", "), "}"); }
    std::string operator()(const RegisterOperand& r) const { return r.name; }
    std::string operator()(const ImmediateOperand& i) const { return absl::StrCat(i.value); }
    std::string operator()(const AddressOperand& a) const {
      if (a.base.empty()) return absl::StrCat("[", a.offset, "]");
      if (a.offset == 0) return absl::StrCat("[", a.base, "]");
      return absl::StrCat("[", a.base, "+", a.offset, "]");
    }
  };
  return std::visit(Printer{}, operand);
}

const Declaration* Snippet::FindDeclaration(const std::string& name) const {
  for (const Declaration& declaration : declarations) {
    if (declaration.name == name) return &declaration;
  }
  return nullptr;
}

}  // namespace matload
