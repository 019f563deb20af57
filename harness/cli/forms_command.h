// `matload forms`: the conformance space of one (PTX version, target).
#ifndef MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_
#define MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_

#include <ostream>

#include "harness/runs/case_filter.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// FormsListing says what `matload forms` prints.
struct FormsListing {
  bool illegal = false;  // the near-miss illegal forms instead of the legal ones
  bool ids = false;      // each line starts with the form's case ID (as `matload support` names it) and a tab
  CaseFilter filter;     // only the forms whose case ID it selects
};

// WriteForms prints one canonical spelling per line, as `listing` says,
// and returns how many it wrote.
size_t WriteForms(PtxVersion ptx, Target target, const FormsListing& listing, std::ostream& out);

// WriteFamilies prints every family's mnemonic ("wmma.load"), one per line,
// in the order conform runs them (AllFamilyRuntimes()), so that scripts
// (scripts/make-fuzz-seeds.sh) take the family list from the registry
// instead of naming the families.
void WriteFamilies(std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_
