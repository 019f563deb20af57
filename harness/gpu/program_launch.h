// ProgramLaunch: run a TestProgram's variants on the GPU, one block each, in
// one launch, through either compile path. Only worker processes launch
// (isolated_runner.h): a fault leaves the CUDA context unusable.
#ifndef MATLOAD_HARNESS_GPU_PROGRAM_LAUNCH_H_
#define MATLOAD_HARNESS_GPU_PROGRAM_LAUNCH_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/families/test_program.h"
#include "harness/gpu/cuda_driver.h"

namespace matload {

// CompilePath is how a kernel reaches the GPU.
enum class CompilePath : unsigned char {
  kDriverJit,      // the PTX text, compiled by the driver's JIT
  kPtxasCubin,     // a cubin from the toolkit's ptxas, loaded by the driver
  kNvJitLinkCubin, // a cubin from the toolkit's libnvJitLink, in process, loaded by the driver
};

// kCompilePaths lists every path, in the order reports show them.
inline constexpr CompilePath kCompilePaths[] = {CompilePath::kDriverJit, CompilePath::kPtxasCubin,
                                                CompilePath::kNvJitLinkCubin};

// CompilePathName spells a path: "driver-jit", "ptxas-cubin", "nvjitlink-cubin".
absl::string_view CompilePathName(CompilePath path);
absl::StatusOr<CompilePath> ParseCompilePath(absl::string_view name);

// OfflineToolchain names the compiler of an offline path as the discrepancy
// registry names toolchains ("ptxas 13.0.88", "nvJitLink 13.0"), or says
// why it is not there. The driver JIT path has none: it is kInvalidArgument.
absl::StatusOr<std::string> OfflineToolchain(CompilePath path);

// OfflineDialect is the newest PTX ISA version the compiler of an offline
// path speaks (harness/compile/ptx_dialect.h), asked once per process. The
// driver JIT path has none here: the device probe asks it (DeviceProbe::jit).
absl::StatusOr<PtxDialect> OfflineDialect(CompilePath path);

// WorkerJit is this process's driver JIT on device `ordinal`, opened on
// first use and kept: the calling process must be a worker.
absl::StatusOr<DriverJit*> WorkerJit(int ordinal);

// DeviceProbe is what a worker reports of device `ordinal`.
struct DeviceProbe {
  Target target;          // the device's own architecture (sm_90 on an H100)
  std::string toolchain;  // "driver JIT CUDA 13.0; ...", as the registry names toolchains
  std::string identity;   // "NVIDIA H100 80GB HBM3, GPU-..., driver JIT CUDA 13.0; ..."
  std::string name;       // "NVIDIA H100 80GB HBM3"
  std::string uuid;       // "GPU-..."
  PtxDialect jit;         // the newest PTX ISA version the driver JIT speaks
  // calibration is how long a kernel that does nothing took to launch and
  // finish (kCalibrationEntry): what a run's watchdog scales from before
  // any test kernel has finished.
  std::chrono::microseconds calibration{0};
};

// kCalibrationEntry names the probe's empty kernel.
inline constexpr char kCalibrationEntry[] = "matload_calibrate";

// ProbeDevice asks a worker process about device `ordinal`, so that the
// calling process never initialises CUDA. With no usable GPU it is
// NoGpuError (compile-only); a GPU that is busy or lost, or a probe that
// hangs or crashes, is an infrastructure error (infrastructure.h). The
// probe also asks the JIT which PTX ISA version it speaks and times an
// empty kernel of that version (DeviceProbe::jit, ::calibration).
absl::StatusOr<DeviceProbe> ProbeDevice(int ordinal, std::chrono::milliseconds timeout);

// CountDevices asks a worker process how many GPUs the driver lists, so
// that the calling process never initialises CUDA. With no usable GPU it is
// NoGpuError; a probe that hangs or crashes is an infrastructure error.
absl::StatusOr<int> CountDevices(std::chrono::milliseconds timeout);

// KernelLaunchFor is the launch of `program` over `blocks` variants, one
// block each, whose records lie back to back in `records`.
DriverJit::KernelLaunch KernelLaunchFor(const TestProgram& program, size_t blocks,
                                        absl::Span<const std::uint8_t> records);

// ProgramImage is what the driver loads for `program` on `path`: its PTX
// text for the JIT, or a cubin from the toolkit's compiler. A toolkit
// compiler that cannot be opened is a harness failure (kInternal), never a
// rejection: conform checks each path's compiler before it starts.
absl::StatusOr<std::string> ProgramImage(const TestProgram& program, CompilePath path);
// KernelImage is ProgramImage of any kernel text of `target`'s, such as a
// program's sweep kernel (TestProgram::SweepKernel).
absl::StatusOr<std::string> KernelImage(const std::string& kernel, Target target, CompilePath path);

// LaunchProgram runs in a worker: it runs `variants` (block i runs
// variants[i]) on device `ordinal` and returns the output of every block,
// block after block, as the bytes of a string (what a worker reports). A
// module the compiler rejects is kFailedPrecondition; a fault is kAborted
// (cuda_driver.h).
absl::StatusOr<std::string> LaunchProgram(int ordinal, const TestProgram& program,
                                          absl::Span<const Variant* const> variants, CompilePath path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_PROGRAM_LAUNCH_H_
