// CudaDriver: the CUDA driver API, loaded at run time (dlopen of libcuda),
// never linked. The same matload binary runs on a machine with no driver,
// where Open says so plainly and matload works in compile-only mode.
#ifndef MATLOAD_HARNESS_GPU_CUDA_DRIVER_H_
#define MATLOAD_HARNESS_GPU_CUDA_DRIVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "harness/compile/compile_oracle.h"
#include "harness/platform/shared_library.h"

namespace matload {

// DeviceInfo describes one GPU.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  std::string uuid;  // GPU-xxxxxxxx-xxxx-...
  int multiprocessors = 0;  // its SMs: what sizes a persistent kernel's grid (device_sweep.h)

  // BaseTarget is the device's own architecture as a baseline target: sm_90
  // for compute capability 9.0 (an H100 runs sm_90a code too).
  Target BaseTarget() const { return Target{compute_major * 10 + compute_minor}; }
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

  // KernelLaunch describes one launch of a test kernel.
  struct KernelLaunch {
    std::string entry;             // the kernel's name
    unsigned blocks = 1;           // grid size (x)
    unsigned threads = 32;         // block size (x)
    std::vector<absl::Span<const std::uint8_t>> inputs;  // copied to device buffers, in parameter order
    size_t scratch_bytes = 0;      // then an uninitialised buffer of this size
    size_t output_bytes = 0;       // then the output, poisoned with 0xA5
    // For a kernel judged on the device (harness/kernels/device_judge.h):
    // then its verdict words, one per block, poisoned too. Only they, and
    // the output of the blocks whose verdict the host must see, are copied
    // back: the block_output_bytes slices of the output of each block that
    // did not agree or is sampled. 0 for other kernels.
    size_t verdict_bytes = 0;
    size_t block_output_bytes = 0;
    // For a sweep (harness/kernels/device_sweep.h): the output's first
    // head_bytes start zeroed, not poisoned (the kernel adds its counts to
    // them), and only they come back, then as many of the bytes after them
    // as bytes_after_head says, given the head. 0 for other kernels: all
    // of the output comes back.
    size_t head_bytes = 0;
    std::function<size_t(absl::Span<const std::uint8_t> head)> bytes_after_head;

    // HostOutputBytes is what the launch returns: the output, then the verdicts.
    size_t HostOutputBytes() const { return output_bytes + verdict_bytes; }
  };

  // Launch loads `image` (PTX text for the driver JIT, or a cubin), launches
  // it as `launch` says with one buffer parameter per input, then scratch,
  // then output, and returns the output. Failures are CudaResultStatus's
  // (cuda_result.h): a module the driver rejects is kFailedPrecondition with
  // the JIT's error log, a kernel fault kAborted, and a device or driver
  // failure an infrastructure error. In a worker it marks its phases
  // (compiling, running the kernel, finishing) for the watchdog. A fault is
  // sticky: it leaves the context unusable, so callers that may fault run
  // this in a worker process.
  // Loaded modules are kept (up to kCachedModules), so launching an image
  // again costs no second JIT compile, and so are the device buffers, so a
  // launch no larger than the last allocates nothing. Launches may come from
  // any thread; they run one at a time.
  absl::StatusOr<std::vector<std::uint8_t>> Launch(absl::string_view image, const KernelLaunch& launch) const;
  // LaunchInto is Launch writing the output into `host_output`, resized to fit:
  // a caller that launches again and again keeps one buffer, and its pages,
  // instead of a fresh allocation per launch.
  absl::Status LaunchInto(absl::string_view image, const KernelLaunch& launch,
                          std::vector<std::uint8_t>& host_output) const;
  // LaunchInto, with `host_output` exactly launch.HostOutputBytes() long. Where
  // it is page-locked (PinnedOutput), the copy back is one DMA, with no
  // staging copy on a core.
  absl::Status LaunchInto(absl::string_view image, const KernelLaunch& launch,
                          absl::Span<std::uint8_t> host_output) const;
  // PinnedOutput is page-locked host memory of `bytes` bytes for output
  // slot `slot`, kept (and grown as needed) for the life of this DriverJit,
  // so that a caller that alternates between a few output buffers
  // allocates each once. A later call for the same slot may move it.
  absl::StatusOr<absl::Span<std::uint8_t>> PinnedOutput(int slot, size_t bytes) const;

  // LoadingSeconds is the time this DriverJit's launches have spent loading
  // modules (cuModuleLoadDataEx: a JIT compile, or a hit in the JIT's disk
  // cache), so that a worker can say how much of its launches it was.
  double LoadingSeconds() const;

  // kCachedModules bounds the modules Launch keeps loaded; past it, they are
  // all unloaded and the cache starts again.
  static constexpr size_t kCachedModules = 64;

 private:
  DriverJit(std::shared_ptr<CudaDriver> driver, int ordinal, void* context)
      : driver_(std::move(driver)), ordinal_(ordinal), context_(context) {}

  // LoadedModule loads `image`, or finds it loaded already; the lookup
  // copies nothing (a kernel set's module is tens of kilobytes).
  absl::StatusOr<void*> LoadedModule(absl::string_view image) const;
  // CopyJudgedBack copies a device-judged launch's verdicts, then the output
  // of each block the host must see (KernelLaunch::verdict_bytes), into
  // `host_output`; the other blocks' output is left as it was.
  // CopyHeadBack copies a sweep's head, then the bytes after it that
  // launch.bytes_after_head asks for, into `host_output`.
  absl::Status CopyHeadBack(const KernelLaunch& launch, std::uint64_t output,
                            absl::Span<std::uint8_t> host_output) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(launch_mutex_);
  absl::Status CopyJudgedBack(const KernelLaunch& launch, std::uint64_t output, std::uint64_t verdicts,
                              absl::Span<std::uint8_t> host_output) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(launch_mutex_);

  // KeptBuffer is a device buffer kept between launches for one parameter,
  // so that launches of the same sizes allocate nothing.
  struct KeptBuffer {
    std::uint64_t address = 0;  // a CUdeviceptr; 0 for none
    size_t bytes = 0;
  };

  std::shared_ptr<CudaDriver> driver_;
  int ordinal_;
  void* context_;
  mutable absl::Mutex mutex_;
  mutable absl::flat_hash_map<std::string, void*> modules_ ABSL_GUARDED_BY(mutex_);  // image -> CUmodule
  mutable double loading_seconds_ ABSL_GUARDED_BY(mutex_) = 0;                       // LoadingSeconds
  mutable absl::Mutex launch_mutex_;  // one launch at a time
  mutable std::vector<KeptBuffer> kept_buffers_ ABSL_GUARDED_BY(launch_mutex_);
  // pinned_outputs_ are PinnedOutput's buffers, by slot.
  mutable std::vector<absl::Span<std::uint8_t>> pinned_outputs_ ABSL_GUARDED_BY(launch_mutex_);
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_CUDA_DRIVER_H_
