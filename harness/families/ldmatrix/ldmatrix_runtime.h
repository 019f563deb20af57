// LdmatrixRuntime: ldmatrix's run-time descriptor (harness/families/family_runtime.h).
#ifndef MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_RUNTIME_H_
#define MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_RUNTIME_H_

#include "harness/families/family_runtime.h"

namespace matload {

// LdmatrixRuntime is the one ldmatrix descriptor; family_runtime.cc registers it.
const FamilyRuntime& LdmatrixRuntime();

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_RUNTIME_H_
