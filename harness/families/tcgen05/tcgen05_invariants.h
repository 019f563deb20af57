// Tcgen05 model invariants (harness/families/model_invariants.h): relocated
// columns (the same cells further on load the same registers) and .num
// prefixes (a smaller .num loads the first registers of a larger one).
#ifndef MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_INVARIANTS_H_
#define MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_INVARIANTS_H_

#include <vector>

#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "reference/legality.h"

namespace matload {

// CheckTcgen05Invariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
void CheckTcgen05Invariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                            std::vector<InvariantViolation>& violations);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_INVARIANTS_H_
