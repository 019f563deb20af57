// Tcgen05Program: the TestProgram of one tcgen05.ld form (test_program.h).
// It runs only on a GPU with Tensor Memory (sm_100a, sm_103a, sm_110a).
#ifndef MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_PROGRAM_H_
#define MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_PROGRAM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "harness/families/test_program.h"

namespace matload {

// NewTcgen05Program builds the program. The transposed planted bug has no
// meaning here (kInvalidArgument).
absl::StatusOr<std::unique_ptr<TestProgram>> NewTcgen05Program(const CheckedInstruction& instruction,
                                                               const ProgramOptions& options);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_PROGRAM_H_
