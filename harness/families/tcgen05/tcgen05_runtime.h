// Tcgen05Runtime: tcgen05.ld's run-time descriptor (harness/families/family_runtime.h).
#ifndef MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_RUNTIME_H_
#define MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_RUNTIME_H_

#include "harness/families/family_runtime.h"

namespace matload {

// Tcgen05Runtime is the one tcgen05.ld descriptor; family_runtime.cc registers it.
const FamilyRuntime& Tcgen05Runtime();

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_RUNTIME_H_
