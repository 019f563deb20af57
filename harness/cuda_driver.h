// CudaDriver: the CUDA driver API, loaded at run time (dlopen of libcuda),
// never linked. The same matload binary runs on a machine with no driver,
// where Open says so plainly and matload works in compile-only mode.
#ifndef MATLOAD_HARNESS_CUDA_DRIVER_H_
#define MATLOAD_HARNESS_CUDA_DRIVER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile_oracle.h"
#include "harness/shared_library.h"

namespace matload {

// DeviceInfo describes one GPU.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  std::string uuid;  // GPU-xxxxxxxx-xxxx-...
};

// CudaDriver is a loaded and initialised driver.
class CudaDriver {
 public:
  // Open loads libcuda (`path` if given, else libcuda.so.1) and calls cuInit.
  // No library is kNotFound; the toolkit's stub library, or a driver with no
  // usable device, is kFailedPrecondition; each message says "compile-only".
  static absl::StatusOr<std::shared_ptr<CudaDriver>> Open(const std::string& path = "");
  ~CudaDriver();

  // version is the CUDA version the driver supports, e.g. "13.0"; release
  // is the kernel module's own version line when readable, else empty.
  const std::string& version() const { return version_; }
  const std::string& release() const { return release_; }
  const std::vector<DeviceInfo>& devices() const { return devices_; }

  struct Api;  // the entry points, resolved once
  const Api& api() const { return *api_; }

 private:
  CudaDriver(std::shared_ptr<SharedLibrary> library, std::unique_ptr<Api> api);

  std::shared_ptr<SharedLibrary> library_;
  std::unique_ptr<Api> api_;
  std::string version_;
  std::string release_;
  std::vector<DeviceInfo> devices_;
};

// DriverJit compiles PTX with the driver's JIT (cuModuleLoadDataEx) for one
// device, in that device's primary context, and reads the JIT's error log.
class DriverJit : public CompileOracle {
 public:
  static absl::StatusOr<std::unique_ptr<DriverJit>> Open(std::shared_ptr<CudaDriver> driver, int ordinal);
  ~DriverJit() override;

  std::string Tool() const override { return "driver JIT"; }
  std::string Version() const override;
  // Supports says whether `target` is this device's own architecture
  // (sm_90 or sm_90a on an H100).
  bool Supports(Target target) const override;
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;

  const DeviceInfo& device() const { return driver_->devices()[ordinal_]; }

  // LaunchOneBlock loads `module_text`, copies each input to a device buffer,
  // appends an output buffer of `output_bytes` poisoned with 0xA5, launches
  // `entry` once with `threads` threads and those buffers as its parameters
  // (in order), and returns the output. A sticky fault leaves the context
  // unusable; callers that expect faults run this in a worker process.
  absl::StatusOr<std::vector<std::uint8_t>> LaunchOneBlock(absl::string_view module_text, const std::string& entry,
                                                           const std::vector<std::vector<std::uint8_t>>& inputs,
                                                           size_t output_bytes, unsigned threads) const;

 private:
  DriverJit(std::shared_ptr<CudaDriver> driver, int ordinal, void* context)
      : driver_(std::move(driver)), ordinal_(ordinal), context_(context) {}

  std::shared_ptr<CudaDriver> driver_;
  int ordinal_;
  void* context_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CUDA_DRIVER_H_
