// WmmaProgram: the TestProgram of one wmma.load form (test_program.h).
#ifndef MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_PROGRAM_H_
#define MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_PROGRAM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "harness/families/test_program.h"

namespace matload {

// NewWmmaProgram builds the program. A form with no known layout on its
// target is kNotFound (the model cannot predict it).
absl::StatusOr<std::unique_ptr<TestProgram>> NewWmmaProgram(const CheckedInstruction& instruction,
                                                            const ProgramOptions& options);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_PROGRAM_H_
