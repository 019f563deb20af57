#include "harness/gpu/cuda_result.h"

#include "gtest/gtest.h"
#include "harness/platform/infrastructure.h"

namespace matload {
namespace {

// The CUresult numbers below are copied by hand from CUDA 13.0's cuda.h.

TEST(CudaResultTest, TheJitRejectingAModuleIsAVerdict) {
  for (int rejected : {200, 209, 218, 222}) {
    const absl::Status status = CudaResultStatus(rejected, DriverCall::kModuleLoad, "cuModuleLoadDataEx");
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << rejected;
    EXPECT_EQ(InfrastructureCauseOf(status), std::nullopt) << rejected;
  }
}

TEST(CudaResultTest, AKernelFaultIsTheGpusDoingFromAnyCall) {
  for (int fault : {700, 702, 714, 715, 716, 717, 718, 719}) {
    EXPECT_TRUE(IsKernelFault(CudaResultStatus(fault, DriverCall::kOther, "cuCtxSynchronize"))) << fault;
    EXPECT_TRUE(IsKernelFault(CudaResultStatus(fault, DriverCall::kModuleLoad, "cuModuleLoadDataEx"))) << fault;
  }
}

TEST(CudaResultTest, ABusyOrLostDeviceIsInfrastructure) {
  EXPECT_EQ(InfrastructureCauseOf(CudaResultStatus(46, DriverCall::kOther, "cuDevicePrimaryCtxRetain")),
            InfrastructureCause::kGpuBusy);
  for (int lost : {3, 4, 100, 101, 214, 709, 802, 803, 999}) {
    const absl::Status status = CudaResultStatus(lost, DriverCall::kOther, "cuLaunchKernel");
    EXPECT_EQ(InfrastructureCauseOf(status), InfrastructureCause::kGpuLost) << lost;
    EXPECT_FALSE(IsKernelFault(status)) << lost;
  }
}

TEST(CudaResultTest, AnythingElseIsADriverErrorNeverAVerdict) {
  // Out of memory, an invalid value, and a rejection code from a call that
  // compiles nothing.
  for (int other : {1, 2, 201, 218}) {
    EXPECT_EQ(InfrastructureCauseOf(CudaResultStatus(other, DriverCall::kOther, "cuMemAlloc")),
              InfrastructureCause::kDriverError)
        << other;
  }
}

}  // namespace
}  // namespace matload
