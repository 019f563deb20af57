#include "reference/printer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {

std::string PrintOpcode(Family family, const QualifierSet& qualifiers) {
  return absl::StrJoin(ToRaw(Form{family, std::nullopt, qualifiers, {}}).opcode, ".");
}

std::string PrintRaw(const RawInstruction& instruction) {
  std::string text;
  if (instruction.guard.has_value()) absl::StrAppend(&text, "@", *instruction.guard, " ");
  absl::StrAppend(&text, absl::StrJoin(instruction.opcode, "."));
  if (!instruction.operands.empty()) {
    absl::StrAppend(&text, " ",
                    absl::StrJoin(instruction.operands, ", ",
                                  [](std::string* out, const Operand& op) { out->append(OperandToString(op)); }));
  }
  absl::StrAppend(&text, ";");
  return text;
}

std::string PrintForm(const Form& form) { return PrintRaw(ToRaw(form)); }

std::string PrintDeclarations(const std::vector<Declaration>& declarations) {
  return absl::StrJoin(declarations, " ", [](std::string* out, const Declaration& d) {
    absl::StrAppend(out, d.state_space, " ", d.type, " ", d.name, ";");
  });
}

std::string PrintSnippet(const Snippet& snippet) {
  if (snippet.declarations.empty()) return PrintRaw(snippet.instruction);
  return absl::StrCat(PrintDeclarations(snippet.declarations), " ", PrintRaw(snippet.instruction));
}

}  // namespace matload
