// WmmaRuntime: wmma.load's run-time descriptor (harness/families/family_runtime.h).
#ifndef MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_RUNTIME_H_
#define MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_RUNTIME_H_

#include "harness/families/family_runtime.h"

namespace matload {

// WmmaRuntime is the one wmma.load descriptor; family_runtime.cc registers it.
const FamilyRuntime& WmmaRuntime();

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_RUNTIME_H_
