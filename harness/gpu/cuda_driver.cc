#include "harness/gpu/cuda_driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/gpu/cuda_result.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/kernels/device_judge.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/outside_text.h"

namespace matload {
namespace {

// The parts of cuda.h matload uses, declared here so that nothing links
// against the driver (CUDA 13.0 cuda.h).
constexpr int kSuccess = 0;
constexpr int kErrorStubLibrary = 34;    // CUDA_ERROR_STUB_LIBRARY
constexpr int kErrorNoDevice = 100;      // CUDA_ERROR_NO_DEVICE
constexpr int kJitInfoLogBuffer = 3;     // CU_JIT_INFO_LOG_BUFFER
constexpr int kJitInfoLogSize = 4;       // CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES
constexpr int kJitErrorLogBuffer = 5;    // CU_JIT_ERROR_LOG_BUFFER
constexpr int kJitErrorLogSize = 6;      // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
constexpr int kComputeMajor = 75;        // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeMinor = 76;        // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr int kMultiprocessors = 16;     // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr unsigned int kScheduleBlockingSync = 0x04;  // CU_CTX_SCHED_BLOCKING_SYNC
constexpr size_t kLogBytes = 1 << 20;

}  // namespace

struct CudaDriver::Api {
  int (*init)(unsigned int);
  int (*driver_version)(int*);
  int (*device_count)(int*);
  int (*device_get)(int*, int);
  int (*device_name)(char*, int, int);
  int (*device_attribute)(int*, int, int);
  int (*device_uuid)(unsigned char*, int);
  int (*primary_set_flags)(int, unsigned int);
  int (*primary_retain)(void**, int);
  int (*primary_release)(int);
  int (*context_set_current)(void*);
  int (*module_load)(void**, const void*, unsigned int, int*, void**);
  int (*module_unload)(void*);
  int (*error_string)(int, const char**);
  int (*module_function)(void**, void*, const char*);
  int (*mem_alloc)(std::uint64_t*, size_t);
  int (*mem_free)(std::uint64_t);
  int (*host_alloc)(void**, size_t, unsigned int);
  int (*host_free)(void*);
  int (*copy_to_device)(std::uint64_t, const void*, size_t);
  int (*copy_to_host)(void*, std::uint64_t, size_t);
  int (*memset_d8)(std::uint64_t, unsigned char, size_t);
  int (*launch)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**);
  int (*synchronize)();

  // Describe spells a CUresult as "CUDA_ERROR_INVALID_PTX (218)".
  std::string Describe(int result) const {
    const char* text = nullptr;
    if (error_string != nullptr && error_string(result, &text) == kSuccess && text != nullptr) {
      return absl::StrCat(text, " (", result, ")");
    }
    return absl::StrCat("CUresult ", result);
  }
};

CudaDriver::CudaDriver(std::shared_ptr<SharedLibrary> library, std::unique_ptr<Api> api)
    : library_(std::move(library)), api_(std::move(api)) {}

CudaDriver::~CudaDriver() = default;

absl::StatusOr<std::shared_ptr<CudaDriver>> CudaDriver::Open(const std::string& path) {
  absl::StatusOr<std::shared_ptr<SharedLibrary>> library =
      SharedLibrary::Open(path.empty() ? std::vector<std::string>{"libcuda.so.1", "libcuda.so"}
                                       : std::vector<std::string>{path});
  if (!library.ok()) {
    return NoGpuError(absl::StrCat("no CUDA driver: ", library.status().message(), "; running in compile-only mode"));
  }
  auto api = std::make_unique<Api>();
  absl::Status resolved = (*library)->Resolve(
      std::pair{"cuInit", &api->init}, std::pair{"cuDriverGetVersion", &api->driver_version},
      std::pair{"cuDeviceGetCount", &api->device_count}, std::pair{"cuDeviceGet", &api->device_get},
      std::pair{"cuDeviceGetName", &api->device_name}, std::pair{"cuDeviceGetAttribute", &api->device_attribute},
      std::pair{"cuDeviceGetUuid_v2", &api->device_uuid},
      std::pair{"cuDevicePrimaryCtxSetFlags_v2", &api->primary_set_flags},
      std::pair{"cuDevicePrimaryCtxRetain", &api->primary_retain},
      std::pair{"cuDevicePrimaryCtxRelease_v2", &api->primary_release},
      std::pair{"cuCtxSetCurrent", &api->context_set_current}, std::pair{"cuModuleLoadDataEx", &api->module_load},
      std::pair{"cuModuleUnload", &api->module_unload}, std::pair{"cuGetErrorString", &api->error_string},
      std::pair{"cuModuleGetFunction", &api->module_function}, std::pair{"cuMemAlloc_v2", &api->mem_alloc},
      std::pair{"cuMemFree_v2", &api->mem_free}, std::pair{"cuMemHostAlloc", &api->host_alloc},
      std::pair{"cuMemFreeHost", &api->host_free}, std::pair{"cuMemcpyHtoD_v2", &api->copy_to_device},
      std::pair{"cuMemcpyDtoH_v2", &api->copy_to_host}, std::pair{"cuMemsetD8_v2", &api->memset_d8},
      std::pair{"cuLaunchKernel", &api->launch},
      std::pair{"cuCtxSynchronize", &api->synchronize});
  if (!resolved.ok()) return NoGpuError(absl::StrCat(resolved.message(), "; compile-only mode"));
  const int init = api->init(0);
  if (init == kErrorStubLibrary) {
    return NoGpuError(absl::StrCat((*library)->name(), " is the toolkit's stub, not a driver; compile-only mode"));
  }
  if (init == kErrorNoDevice) return NoGpuError("the CUDA driver sees no GPU; compile-only mode");
  if (init != kSuccess) return CudaResultStatus(init, DriverCall::kOther, absl::StrCat("cuInit: ", api->Describe(init)));
  std::shared_ptr<CudaDriver> driver(new CudaDriver(*std::move(library), std::move(api)));
  const Api& calls = *driver->api_;
  int version = 0;
  calls.driver_version(&version);
  driver->version_ = absl::StrCat(version / 1000, ".", version % 1000 / 10);
  if (std::ifstream proc("/proc/driver/nvidia/version"); proc) {
    std::string line;
    std::getline(proc, line);
    driver->release_ = OutsideText(absl::StripAsciiWhitespace(line));
  }
  int count = 0;
  calls.device_count(&count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    int device = 0;
    if (calls.device_get(&device, ordinal) != kSuccess) continue;
    DeviceInfo info{.ordinal = ordinal};
    char name[256] = {};
    calls.device_name(name, sizeof(name) - 1, device);
    info.name = OutsideText(name);  // a driver's bytes: text with no tab or newline to split a line
    calls.device_attribute(&info.compute_major, kComputeMajor, device);
    calls.device_attribute(&info.compute_minor, kComputeMinor, device);
    calls.device_attribute(&info.multiprocessors, kMultiprocessors, device);
    unsigned char uuid[16] = {};
    if (calls.device_uuid(uuid, device) == kSuccess) {
      info.uuid = absl::StrFormat("GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                                  uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9],
                                  uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
    }
    driver->devices_.push_back(info);
  }
  if (driver->devices_.empty()) return NoGpuError("the CUDA driver lists no GPU; compile-only mode");
  return driver;
}

absl::StatusOr<std::unique_ptr<DriverJit>> DriverJit::Open(std::shared_ptr<CudaDriver> driver, int ordinal) {
  if (ordinal < 0 || ordinal >= static_cast<int>(driver->devices().size())) {
    return absl::InvalidArgumentError(absl::StrCat("no device ", ordinal, "; the driver lists ",
                                                   driver->devices().size()));
  }
  int device = 0;
  const CudaDriver::Api& api = driver->api();
  int result = api.device_get(&device, ordinal);
  void* context = nullptr;
  // A thread waiting for the GPU sleeps rather than spins: the host threads
  // that judge a launch need every core while it runs.
  if (result == kSuccess) result = api.primary_set_flags(device, kScheduleBlockingSync);
  if (result == kSuccess) result = api.primary_retain(&context, device);
  if (result != kSuccess) {
    return CudaResultStatus(result, DriverCall::kOther,
                            absl::StrCat("cannot open device ", ordinal, ": ", api.Describe(result)));
  }
  return std::unique_ptr<DriverJit>(new DriverJit(std::move(driver), ordinal, context));
}

DriverJit::~DriverJit() {
  for (const KeptBuffer& kept : kept_buffers_) {
    if (kept.address != 0) driver_->api().mem_free(kept.address);
  }
  for (const absl::Span<std::uint8_t> pinned : pinned_outputs_) {
    if (pinned.data() != nullptr) driver_->api().host_free(pinned.data());
  }
  for (const auto& [image, module] : modules_) driver_->api().module_unload(module);
  int device = 0;
  if (driver_->api().device_get(&device, ordinal_) == kSuccess) driver_->api().primary_release(device);
}

std::string DriverJit::Version() const {
  return driver_->release().empty() ? absl::StrCat("CUDA ", driver_->version())
                                    : absl::StrCat("CUDA ", driver_->version(), "; ", driver_->release());
}

bool DriverJit::Supports(Target target) const {
  return target.sm == device().BaseTarget().sm && target.variant != TargetVariant::kFamilySpecific;
}

absl::StatusOr<AssembleResult> DriverJit::Assemble(absl::string_view module_text, Target target) const {
  if (!Supports(target)) {
    return absl::UnimplementedError(absl::StrCat("device ", ordinal_, " (", device().name, ") cannot run ",
                                                 target.Name(), " code"));
  }
  const CudaDriver::Api& api = driver_->api();
  int result = api.context_set_current(context_);
  if (result != kSuccess) {
    return CudaResultStatus(result, DriverCall::kOther, absl::StrCat("cuCtxSetCurrent: ", api.Describe(result)));
  }
  std::string error_log(kLogBytes, '\0');
  std::string info_log(kLogBytes, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogSize, kJitInfoLogBuffer, kJitInfoLogSize};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(kLogBytes), info_log.data(),
                    reinterpret_cast<void*>(kLogBytes)};
  const std::string text(module_text);  // cuModuleLoadDataEx needs the terminating NUL
  void* module = nullptr;
  result = api.module_load(&module, text.c_str(), 4, options, values);
  if (result != kSuccess) {
    // Only a rejection is a verdict; a JIT that could not run says nothing of the module.
    if (absl::Status status = CudaResultStatus(result, DriverCall::kModuleLoad,
                                               absl::StrCat("cuModuleLoadDataEx: ", api.Describe(result)));
        status.code() != absl::StatusCode::kFailedPrecondition) {
      return status;
    }
  }
  AssembleResult assembled{.accepted = result == kSuccess};
  if (module != nullptr) api.module_unload(module);
  error_log.resize(error_log.find('\0'));
  assembled.diagnostics = ParsePtxasDiagnostics(error_log);
  if (!assembled.accepted && assembled.diagnostics.empty()) {
    assembled.diagnostics.push_back({Diagnostic::Severity::kError, 0,
                                     absl::StrCat("cuModuleLoadDataEx: ", api.Describe(result), " with no log")});
  }
  return assembled;
}

absl::StatusOr<void*> DriverJit::LoadedModule(absl::string_view image) const {
  absl::MutexLock lock(&mutex_);
  if (auto it = modules_.find(image); it != modules_.end()) return it->second;
  const CudaDriver::Api& api = driver_->api();
  if (modules_.size() >= kCachedModules) {
    for (const auto& [text, module] : modules_) api.module_unload(module);
    modules_.clear();
  }
  std::string error_log(kLogBytes, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogSize};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(kLogBytes)};
  void* module = nullptr;
  // PTX text needs its terminating NUL, which std::string keeps.
  std::string text(image);
  MarkWorkerPhase(WorkerPhase::kCompiling);
  const absl::Time start = absl::Now();
  const int result = api.module_load(&module, text.c_str(), 2, options, values);
  loading_seconds_ += absl::ToDoubleSeconds(absl::Now() - start);
  if (result != kSuccess) {
    error_log.resize(error_log.find('\0'));
    return CudaResultStatus(
        result, DriverCall::kModuleLoad,
        absl::StrCat("cuModuleLoadDataEx: ", api.Describe(result), error_log.empty() ? "" : ": ", error_log));
  }
  modules_.emplace(std::move(text), module);
  return module;
}

double DriverJit::LoadingSeconds() const {
  absl::MutexLock lock(&mutex_);
  return loading_seconds_;
}

absl::StatusOr<std::vector<std::uint8_t>> DriverJit::Launch(absl::string_view image,
                                                            const KernelLaunch& launch) const {
  std::vector<std::uint8_t> output;
  if (absl::Status status = LaunchInto(image, launch, output); !status.ok()) return status;
  return output;
}

absl::Status DriverJit::LaunchInto(absl::string_view image, const KernelLaunch& launch,
                                   std::vector<std::uint8_t>& host_output) const {
  host_output.resize(launch.HostOutputBytes());
  return LaunchInto(image, launch, absl::MakeSpan(host_output));
}

absl::StatusOr<absl::Span<std::uint8_t>> DriverJit::PinnedOutput(int slot, size_t bytes) const {
  absl::MutexLock lock(&launch_mutex_);
  const CudaDriver::Api& api = driver_->api();
  if (slot < 0) return absl::InvalidArgumentError(absl::StrCat("no output slot ", slot));
  if (static_cast<size_t>(slot) >= pinned_outputs_.size()) pinned_outputs_.resize(slot + 1);
  absl::Span<std::uint8_t>& pinned = pinned_outputs_[slot];
  if (pinned.size() >= bytes && pinned.data() != nullptr) return pinned.first(bytes);
  if (const int result = api.context_set_current(context_); result != kSuccess) {
    return CudaResultStatus(result, DriverCall::kOther, absl::StrCat("cuCtxSetCurrent: ", api.Describe(result)));
  }
  if (pinned.data() != nullptr) api.host_free(pinned.data());
  pinned = {};
  void* memory = nullptr;
  if (const int result = api.host_alloc(&memory, std::max<size_t>(bytes, 1), 0); result != kSuccess) {
    return CudaResultStatus(result, DriverCall::kOther,
                            absl::StrCat("cuMemHostAlloc of ", bytes, " bytes: ", api.Describe(result)));
  }
  pinned = absl::MakeSpan(static_cast<std::uint8_t*>(memory), bytes);
  return pinned;
}

absl::Status DriverJit::LaunchInto(absl::string_view image, const KernelLaunch& launch,
                                   absl::Span<std::uint8_t> host_output) const {
  if (host_output.size() != launch.HostOutputBytes()) {
    return absl::InvalidArgumentError(absl::StrCat("the host output holds ", host_output.size(),
                                                   " bytes; the launch writes ", launch.HostOutputBytes()));
  }
  // One launch at a time, so that no other launch evicts this one's module
  // or reuses its buffers.
  absl::MutexLock lock(&launch_mutex_);
  const CudaDriver::Api& api = driver_->api();
  auto fault = [&api](int result, absl::string_view what) -> absl::Status {
    if (result == kSuccess) return absl::OkStatus();
    return CudaResultStatus(result, DriverCall::kOther, absl::StrCat(what, ": ", api.Describe(result)));
  };
  if (absl::Status status = fault(api.context_set_current(context_), "cuCtxSetCurrent"); !status.ok()) return status;
  absl::StatusOr<void*> module = LoadedModule(image);
  if (!module.ok()) return module.status();
  void* function = nullptr;
  if (absl::Status status = fault(api.module_function(&function, *module, launch.entry.c_str()), "cuModuleGetFunction");
      !status.ok()) {
    return status;
  }
  // Parameter `slot` gets a buffer of at least `size` bytes, kept from the
  // last launch where it is large enough.
  std::vector<std::uint64_t> buffers;
  auto buffer_for = [&](size_t slot, size_t size) -> absl::StatusOr<std::uint64_t> {
    if (slot >= kept_buffers_.size()) kept_buffers_.resize(slot + 1);
    KeptBuffer& kept = kept_buffers_[slot];
    if (kept.bytes < std::max<size_t>(size, 1)) {
      if (kept.address != 0) api.mem_free(kept.address);
      kept = {};
      if (absl::Status status = fault(api.mem_alloc(&kept.address, std::max<size_t>(size, 1)), "cuMemAlloc");
          !status.ok()) {
        return status;
      }
      kept.bytes = std::max<size_t>(size, 1);
    }
    buffers.push_back(kept.address);
    return kept.address;
  };
  for (const absl::Span<const std::uint8_t> input : launch.inputs) {
    absl::StatusOr<std::uint64_t> address = buffer_for(buffers.size(), input.size());
    if (!address.ok()) return address.status();
    if (absl::Status status = fault(api.copy_to_device(*address, input.data(), input.size()), "cuMemcpyHtoD");
        !status.ok()) {
      return status;
    }
  }
  if (absl::StatusOr<std::uint64_t> scratch = buffer_for(buffers.size(), launch.scratch_bytes); !scratch.ok()) {
    return scratch.status();
  }
  absl::StatusOr<std::uint64_t> output = buffer_for(buffers.size(), launch.output_bytes);
  if (!output.ok()) return output.status();
  // Every byte the kernel skips stays 0xA5; a sweep's head starts at 0.
  if (absl::Status status = launch.head_bytes > 0
                                ? fault(api.memset_d8(*output, 0, launch.head_bytes), "cuMemsetD8")
                                : fault(api.memset_d8(*output, 0xA5, launch.output_bytes), "cuMemsetD8");
      !status.ok()) {
    return status;
  }
  std::uint64_t verdicts = 0;
  if (launch.verdict_bytes > 0) {
    absl::StatusOr<std::uint64_t> buffer = buffer_for(buffers.size(), launch.verdict_bytes);
    if (!buffer.ok()) return buffer.status();
    verdicts = *buffer;
    if (absl::Status status = fault(api.memset_d8(verdicts, 0xA5, launch.verdict_bytes), "cuMemsetD8"); !status.ok()) {
      return status;
    }
  }
  std::vector<void*> parameters;
  for (std::uint64_t& buffer : buffers) parameters.push_back(&buffer);
  MarkWorkerPhase(WorkerPhase::kRunningKernel);
  if (absl::Status status = fault(api.launch(function, launch.blocks, 1, 1, launch.threads, 1, 1, 0, nullptr,
                                             parameters.data(), nullptr),
                                  "cuLaunchKernel");
      !status.ok()) {
    return status;
  }
  if (absl::Status status = fault(api.synchronize(), "cuCtxSynchronize"); !status.ok()) return status;
  MarkWorkerPhase(WorkerPhase::kFinishing);
  if (launch.head_bytes > 0) return CopyHeadBack(launch, *output, host_output);
  if (launch.verdict_bytes == 0) {
    return fault(api.copy_to_host(host_output.data(), *output, host_output.size()), "cuMemcpyDtoH");
  }
  return CopyJudgedBack(launch, *output, verdicts, host_output);
}

namespace {

// CopyToHost copies `bytes` device bytes at `from` to `to`.
absl::Status CopyToHost(const CudaDriver::Api& api, std::uint8_t* to, std::uint64_t from, size_t bytes) {
  const int result = api.copy_to_host(to, from, bytes);
  if (result == kSuccess) return absl::OkStatus();
  return CudaResultStatus(result, DriverCall::kOther, absl::StrCat("cuMemcpyDtoH: ", api.Describe(result)));
}

}  // namespace

absl::Status DriverJit::CopyHeadBack(const KernelLaunch& launch, std::uint64_t output,
                                     absl::Span<std::uint8_t> host_output) const {
  const CudaDriver::Api& api = driver_->api();
  const size_t head = std::min(launch.head_bytes, launch.output_bytes);
  if (absl::Status status = CopyToHost(api, host_output.data(), output, head); !status.ok()) return status;
  const size_t more = std::min(launch.bytes_after_head(host_output.first(head)), launch.output_bytes - head);
  if (more == 0) return absl::OkStatus();
  return CopyToHost(api, host_output.data() + head, output + head, more);
}

absl::Status DriverJit::CopyJudgedBack(const KernelLaunch& launch, std::uint64_t output, std::uint64_t verdicts,
                                       absl::Span<std::uint8_t> host_output) const {
  const CudaDriver::Api& api = driver_->api();
  std::uint8_t* const host_verdicts = host_output.data() + launch.output_bytes;
  if (absl::Status status = CopyToHost(api, host_verdicts, verdicts, launch.verdict_bytes); !status.ok()) return status;
  std::vector<size_t> wanted;  // the blocks whose registers the host must see
  for (size_t block = 0; block < launch.verdict_bytes / 4; ++block) {
    std::uint32_t verdict = 0;
    std::memcpy(&verdict, host_verdicts + 4 * block, 4);
    if (ReadVerdictWord(verdict).verdict != DeviceVerdict::kAgree || SampledBlock(block)) wanted.push_back(block);
  }
  // One copy per block is cheap while few are wanted; past one in
  // kCopyAllAbove, one copy of the whole output is cheaper.
  constexpr size_t kCopyAllAbove = 64;
  if (wanted.size() * kCopyAllAbove > launch.verdict_bytes / 4)
    return CopyToHost(api, host_output.data(), output, launch.output_bytes);
  const size_t slice = launch.block_output_bytes;
  for (const size_t block : wanted) {
    if (absl::Status status = CopyToHost(api, host_output.data() + block * slice, output + block * slice, slice);
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

}  // namespace matload
