#include "harness/cli/forms_command.h"

#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {

size_t WriteForms(PtxVersion ptx, Target target, bool illegal, std::ostream& out) {
  if (illegal) {
    std::vector<RawInstruction> near_misses = NearMissInstructions(ptx, target);
    for (const RawInstruction& raw : near_misses) out << PrintRaw(raw) << "\n";
    return near_misses.size();
  }
  std::vector<Form> forms = LegalForms(ptx, target);
  for (const Form& form : forms) out << PrintForm(form) << "\n";
  return forms.size();
}

}  // namespace matload
