// `matload forms`: the conformance space of one (PTX version, target).
#ifndef MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_
#define MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_

#include <ostream>

#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// WriteForms prints one canonical spelling per line: every legal form, or
// with `illegal` every near-miss illegal form. It returns how many it wrote.
size_t WriteForms(PtxVersion ptx, Target target, bool illegal, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_FORMS_COMMAND_H_
