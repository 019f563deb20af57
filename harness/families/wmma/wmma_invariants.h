// Wmma model invariants (harness/families/model_invariants.h): layout (a .row
// load of M and a .col load of M-transpose give the same fragment wherever
// the layout's source says the storage order does not change it) and coverage
// (every matrix element is in the fragment, equally often).
#ifndef MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_INVARIANTS_H_
#define MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_INVARIANTS_H_

#include <vector>

#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "reference/legality.h"

namespace matload {

// CheckWmmaInvariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
void CheckWmmaInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                         std::vector<InvariantViolation>& violations);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_INVARIANTS_H_
