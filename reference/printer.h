// Printer: instructions and snippets back to PTX text.
#ifndef MATLOAD_REFERENCE_PRINTER_H_
#define MATLOAD_REFERENCE_PRINTER_H_

#include <string>
#include <vector>

#include "reference/form.h"
#include "reference/raw_instruction.h"

namespace matload {

// PrintRaw spells an instruction as written, qualifiers in their order:
// "ldmatrix.sync.aligned.x1.m8n8.b16 {%r0}, [%addr];".
std::string PrintRaw(const RawInstruction& instruction);

// PrintForm spells a form canonically: qualifiers in the order of the spec's
// Syntax block, operands separated by ", ".
std::string PrintForm(const Form& form);

// PrintOpcode spells a qualifier set canonically, without operands or
// guard: "ldmatrix.sync.aligned.m8n8.x4.shared.b16". Reports and the
// discrepancy registry name forms this way.
std::string PrintOpcode(Family family, const QualifierSet& qualifiers);

// PrintDeclarations spells declarations one per statement, grouping nothing:
// ".reg .b32 d0; .reg .b64 addr;".
std::string PrintDeclarations(const std::vector<Declaration>& declarations);

// PrintSnippet spells declarations followed by the instruction on one line.
std::string PrintSnippet(const Snippet& snippet);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_PRINTER_H_
