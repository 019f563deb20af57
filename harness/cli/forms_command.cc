#include "harness/cli/forms_command.h"

#include "harness/families/family_runtime.h"
#include "harness/runs/case_id.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/printer.h"

namespace matload {

size_t WriteForms(PtxVersion ptx, Target target, const FormsListing& listing, std::ostream& out) {
  std::vector<RawInstruction> instructions;
  if (listing.illegal) {
    instructions = NearMissInstructions(ptx, target);
  } else {
    for (const Form& form : LegalForms(ptx, target)) instructions.push_back(ToRaw(form));
  }
  size_t written = 0;
  for (const RawInstruction& raw : instructions) {
    const std::string id = SupportCaseId(target, raw);
    if (!listing.filter.Selects(id)) continue;
    if (listing.ids) out << id << "\t";
    out << PrintRaw(raw) << "\n";
    ++written;
  }
  return written;
}

void WriteFamilies(std::ostream& out) {
  for (const FamilyRuntime* runtime : AllFamilyRuntimes()) out << SpecOf(runtime->family()).MnemonicText() << "\n";
}

}  // namespace matload
