// CudaResult: what a failed CUDA driver call means for the case that made
// it. Only two kinds of failure are verdicts on a case: the JIT rejecting a
// module (the toolchain's), and a kernel fault (the GPU's). Every other
// failure says the device or the driver could not serve the harness, and
// is an infrastructure failure (infrastructure.h), never a finding.
//
// The numbers are CUresult values from CUDA 13.0's cuda.h
// (/usr/local/cuda/include/cuda.h); matload declares what it uses instead
// of including cuda.h, so that nothing links against the driver.
#ifndef MATLOAD_HARNESS_GPU_CUDA_RESULT_H_
#define MATLOAD_HARNESS_GPU_CUDA_RESULT_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// DriverCall says which kind of call returned a CUresult.
enum class DriverCall : unsigned char {
  kModuleLoad,  // cuModuleLoadDataEx: the JIT compiling or loading an image
  kOther,       // anything else: a context, an allocation, a copy, a launch
};

// CudaResultStatus is the status of a call that returned `result` (not
// CUDA_SUCCESS); `description` names the call and the error, as
// "cuCtxSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)".
//  - a module the JIT rejects (INVALID_IMAGE 200, NO_BINARY_FOR_GPU 209,
//    INVALID_PTX 218, UNSUPPORTED_PTX_VERSION 222) from a kModuleLoad:
//    kFailedPrecondition, the compiler's verdict;
//  - a kernel fault (ILLEGAL_ADDRESS 700, LAUNCH_TIMEOUT 702, 714 to 719:
//    stack, instruction, alignment, address space, PC, launch failure), from
//    any call, since a fault is sticky: kAborted, the GPU's doing;
//  - DEVICE_UNAVAILABLE 46 (another process holds an exclusive device):
//    InfrastructureError kGpuBusy;
//  - the device or driver gone (NOT_INITIALIZED 3, DEINITIALIZED 4,
//    NO_DEVICE 100, INVALID_DEVICE 101, ECC_UNCORRECTABLE 214,
//    CONTEXT_IS_DESTROYED 709, SYSTEM_NOT_READY 802, SYSTEM_DRIVER_MISMATCH
//    803, UNKNOWN 999): InfrastructureError kGpuLost;
//  - anything else (out of memory, an invalid value): InfrastructureError
//    kDriverError.
absl::Status CudaResultStatus(int result, DriverCall call, absl::string_view description);

// IsKernelFault says whether a status is CudaResultStatus's kernel fault.
bool IsKernelFault(const absl::Status& status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_CUDA_RESULT_H_
