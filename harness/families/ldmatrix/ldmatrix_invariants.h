// Ldmatrix model invariants (harness/families/model_invariants.h): relocated
// rows (the same bytes at another address load the same registers), .num
// prefixes (a smaller .num loads the first registers of a larger one) and
// .trans (the transposed load holds the transpose).
#ifndef MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_INVARIANTS_H_
#define MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_INVARIANTS_H_

#include <vector>

#include "harness/families/model_invariants.h"
#include "harness/families/runtime_inputs.h"
#include "reference/legality.h"

namespace matload {

// CheckLdmatrixInvariants runs the model on a legal form at a case's inputs and
// adds every invariant it breaks to `violations`. A form the model cannot
// predict, or inputs it calls undefined, add nothing.
void CheckLdmatrixInvariants(const CheckedInstruction& instruction, const RuntimeInputs& runtime,
                             std::vector<InvariantViolation>& violations);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_INVARIANTS_H_
