// ProgramLaunch: run a TestProgram's variants on the GPU, one block each, in
// one launch, through either compile path. Only worker processes call it
// (isolated_runner.h): a fault leaves the CUDA context unusable.
#ifndef MATLOAD_HARNESS_PROGRAM_LAUNCH_H_
#define MATLOAD_HARNESS_PROGRAM_LAUNCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/cuda_driver.h"
#include "harness/test_program.h"

namespace matload {

// CompilePath is how a kernel reaches the GPU.
enum class CompilePath : unsigned char {
  kDriverJit,   // the PTX text, compiled by the driver's JIT
  kPtxasCubin,  // a cubin from the toolkit's ptxas, loaded by the driver
};

// CompilePathName spells a path: "driver-jit", "ptxas-cubin".
absl::string_view CompilePathName(CompilePath path);
absl::StatusOr<CompilePath> ParseCompilePath(absl::string_view name);

// WorkerJit is this process's driver JIT on device `ordinal`, opened on
// first use and kept: the calling process must be a worker.
absl::StatusOr<DriverJit*> WorkerJit(int ordinal);

// LaunchProgram runs `variants` (block i runs variants[i]) and returns the
// output of every block, block after block. A module the compiler rejects
// is kFailedPrecondition; a fault is kAborted (cuda_driver.h).
absl::StatusOr<std::vector<std::uint8_t>> LaunchProgram(const DriverJit& jit, const TestProgram& program,
                                                        absl::Span<const Variant* const> variants, CompilePath path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PROGRAM_LAUNCH_H_
