// LdmatrixProgram: the TestProgram of one ldmatrix form (test_program.h).
#ifndef MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_PROGRAM_H_
#define MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_PROGRAM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "harness/families/test_program.h"

namespace matload {

// NewLdmatrixProgram builds the program. With the transposed planted bug it
// fails (kInvalidArgument) when the form has no legal .trans twin.
absl::StatusOr<std::unique_ptr<TestProgram>> NewLdmatrixProgram(const CheckedInstruction& instruction,
                                                                const ProgramOptions& options);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_PROGRAM_H_
