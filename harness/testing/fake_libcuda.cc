// A fake libcuda.so.1 for the fault-injection rig (fault_rig_test.cc): the
// entry points matload resolves (harness/gpu/cuda_driver.cc), serving one fake
// sm_90 device from host memory. Its kernels store nothing, so every
// defined case reads back the poison and is a mismatch: what matters here
// is how matload classifies what the driver does, chosen by
// MATLOAD_FAKE_CUDA=MODE[:K[:CODE]], or several such modes joined by ',':
//   normal                 every call succeeds
//   init-fails             cuInit returns CUDA_ERROR_NO_DEVICE (100): no GPU
//   lost-from-launch:K     from launch K on, cuLaunchKernel returns CUDA_ERROR_UNKNOWN
//                          (999) and every later cuInit CUDA_ERROR_NO_DEVICE (100)
//   lost-on-device:D       every launch of a test kernel on device D returns CUDA_ERROR_UNKNOWN
//                          (999), uncounted and unmarked, while the other devices' launches
//                          run: a GPU lost after its probe
//   busy                   exclusive-process mode: one process at a time holds the
//                          device, the others get CUDA_ERROR_DEVICE_UNAVAILABLE (46)
//   busy-always            every context retain returns 46
//   fault-from-launch:K:C  from launch K on, cuCtxSynchronize returns C (700, 716)
//   fault-at-launch:K:C    launch K alone: cuCtxSynchronize returns C, as a flaky GPU would
//   hang-from-launch:K     from launch K on, cuCtxSynchronize never returns
//   slow-jit:MS            cuModuleLoadDataEx takes MS milliseconds
//   jit-error              cuModuleLoadDataEx rejects every test kernel's module (218) with a log
//   segv-from-launch:K     from launch K on, cuLaunchKernel dies of SIGSEGV
//   abort-from-launch:K    from launch K on, cuLaunchKernel aborts
//   signal-at-launch:K:S   launch K sends signal S to the worker's parent, matload, as a
//                          user, Slurm's time limit or the OOM killer would, at a point
//                          that does not depend on the machine's speed
//   lying-judge            a kernel that judges its blocks on the device (harness/kernels/
//                          device_judge.h) calls every block right; without this mode it
//                          calls every block wrong, as a true judge of a kernel that
//                          stores nothing would
//   fault-blocks:N:C       every launch of N blocks, of a kernel whose PTX holds
//                          $MATLOAD_FAKE_CUDA_KERNEL if that is set: cuCtxSynchronize returns
//                          C. The same variants in a launch of another size run: a fault
//                          that depends on what runs, never on how many launches came
//                          before, so that a run interrupted and resumed meets it where an
//                          uninterrupted one does (a case's re-runs of its first
//                          --first_failures variants, say)
// MATLOAD_FAKE_CUDA_DEVICES=N lists N such devices (default 1), ordinals
// 0 to N-1, each with a UUID of its own, so that runs over several GPUs
// can be checked for what they do with them. MATLOAD_FAKE_CUDA_NAME is
// their model's name (default "matload fake GPU").
// Launches of test kernels are counted across processes (every worker is
// one) in the directory MATLOAD_FAKE_CUDA_STATE, under a lock, and each
// device that ran one is marked there by a file "launched-on-ORDINAL"; the
// device probe's empty kernel (kCalibrationEntry, harness/gpu/program_launch.h)
// is neither marked nor failed, and is counted apart, in "calibrations", so
// that a test can tell how often the GPUs were probed.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kDeviceUnavailable = 46;
constexpr CUresult kNoDevice = 100;
constexpr CUresult kInvalidPtx = 218;
constexpr CUresult kUnknown = 999;

// Mode is one mode of MATLOAD_FAKE_CUDA, split: the name, K and CODE.
struct Mode {
  std::string name = "normal";
  long k = 0;
  long code = 0;
};

// ParseMode splits one MODE[:K[:CODE]].
Mode ParseMode(const std::string& value) {
  Mode mode;
  const size_t first = value.find(':');
  mode.name = value.substr(0, first);
  if (first != std::string::npos) {
    mode.k = std::strtol(value.c_str() + first + 1, nullptr, 10);
    const size_t second = value.find(':', first + 1);
    if (second != std::string::npos) mode.code = std::strtol(value.c_str() + second + 1, nullptr, 10);
  }
  return mode;
}

// FindMode is the mode of MATLOAD_FAKE_CUDA called `name`; its name is
// empty when there is none.
Mode FindMode(const char* name) {
  const char* text = std::getenv("MATLOAD_FAKE_CUDA");
  const std::string modes = text != nullptr ? text : "normal";
  for (size_t begin = 0; begin <= modes.size();) {
    const size_t end = std::min(modes.find(',', begin), modes.size());
    const Mode mode = ParseMode(modes.substr(begin, end - begin));
    if (mode.name == name) return mode;
    begin = end + 1;
  }
  return {.name = ""};
}

bool Is(const char* name) { return FindMode(name).name == name; }

// StatePath is a file in the shared state directory.
std::string StatePath(const char* file) {
  const char* directory = std::getenv("MATLOAD_FAKE_CUDA_STATE");
  return std::string(directory != nullptr ? directory : "/tmp") + "/" + file;
}

// CountOne adds one to the count kept in the state file `file`, across
// processes, and returns the new count, from 1.
long CountOne(const char* file) {
  const int fd = open(StatePath(file).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return 0;
  flock(fd, LOCK_EX);
  char text[32] = {};
  const ssize_t got = pread(fd, text, sizeof text - 1, 0);
  const long count = (got > 0 ? std::strtol(text, nullptr, 10) : 0) + 1;
  const int length = std::snprintf(text, sizeof text, "%ld\n", count);
  if (pwrite(fd, text, length, 0) != length) std::abort();
  flock(fd, LOCK_UN);
  close(fd);
  return count;
}

// NextLaunch counts this launch of a test kernel and returns its number, from 1.
long NextLaunch() { return CountOne("launches"); }

// FromLaunch says whether the mode `name` is on and this launch is its K or later.
bool FromLaunch(const char* name, long launch) { return Is(name) && launch >= FindMode(name).k; }

long current_launch = 0;  // this process's last launch, for cuCtxSynchronize; 0 for the calibration kernel
bool current_faults = false;  // whether this process's last launch is one that fault-blocks fails
int retained_device = -1;  // the ordinal whose primary context this process last retained

// FakeModule is a loaded module: whether its PTX holds
// $MATLOAD_FAKE_CUDA_KERNEL (Chosen), and the PTX (empty for a cubin).
struct FakeModule {
  bool chosen = false;
  std::string ptx;
};

// TestFunction is a test kernel's handle: whether its module is chosen,
// and whether it judges its blocks on the device (its module declares the
// kernel's plan table, harness/kernels/device_judge.h), so that a launch
// has a fourth parameter, the verdicts.
struct TestFunction {
  bool chosen = false;
  bool judged = false;
};
const TestFunction kTestFunctions[2][2] = {{{false, false}, {false, true}}, {{true, false}, {true, true}}};

// The probe's calibration kernel's handle.
void* const kCalibrationFunction = reinterpret_cast<void*>(0x3);

// WriteVerdicts writes the device judge's verdict for each of `blocks`
// blocks to `verdicts`: 1 (agree) under lying-judge, else 2 (disagree).
void WriteVerdicts(std::uint64_t verdicts, unsigned blocks) {
  const std::uint32_t verdict = Is("lying-judge") ? 1 : 2;
  for (unsigned block = 0; block < blocks; ++block) {
    std::memcpy(reinterpret_cast<char*>(verdicts) + 4 * static_cast<size_t>(block), &verdict, 4);
  }
}

// Chosen says whether a module's PTX holds $MATLOAD_FAKE_CUDA_KERNEL (any
// module when that is not set), for fault-blocks.
bool Chosen(const char* image) {
  const char* text = std::getenv("MATLOAD_FAKE_CUDA_KERNEL");
  return text == nullptr || std::strstr(image, text) != nullptr;
}

// DeviceCount is MATLOAD_FAKE_CUDA_DEVICES, 1 when it is not set.
int DeviceCount() {
  const char* text = std::getenv("MATLOAD_FAKE_CUDA_DEVICES");
  return text == nullptr ? 1 : std::atoi(text);
}

}  // namespace

extern "C" {

CUresult cuInit(unsigned int) {
  if (Is("init-fails") || access(StatePath("lost").c_str(), F_OK) == 0) return kNoDevice;
  return kSuccess;
}
CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return kSuccess;
}
CUresult cuDeviceGetCount(int* count) {
  *count = DeviceCount();
  return kSuccess;
}
CUresult cuDeviceGet(int* device, int ordinal) {
  if (ordinal < 0 || ordinal >= DeviceCount()) return kInvalidValue;
  *device = ordinal;
  return kSuccess;
}
CUresult cuDeviceGetName(char* name, int length, int) {
  const char* model = std::getenv("MATLOAD_FAKE_CUDA_NAME");
  std::snprintf(name, length, "%s", model != nullptr ? model : "matload fake GPU");
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0;  // compute capability 9.0
  return kSuccess;
}
CUresult cuDeviceGetUuid_v2(unsigned char* uuid, int device) {
  for (int i = 0; i < 16; ++i) uuid[i] = static_cast<unsigned char>(0xf0 + i);
  uuid[15] = static_cast<unsigned char>(uuid[15] - device);
  return kSuccess;
}
CUresult cuDevicePrimaryCtxSetFlags_v2(int, unsigned int) { return kSuccess; }
CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  if (Is("busy-always")) return kDeviceUnavailable;
  if (Is("busy")) {
    // The lock is held until this process exits, as an exclusive context is.
    const int fd = open(StatePath("exclusive.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) return kDeviceUnavailable;
  }
  *context = reinterpret_cast<void*>(0x1);
  retained_device = device;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return kSuccess; }
CUresult cuCtxSetCurrent(void*) { return kSuccess; }
CUresult cuModuleLoadDataEx(void** module, const void* image, unsigned int options, int* keys, void** values) {
  if (Is("slow-jit")) usleep(static_cast<useconds_t>(FindMode("slow-jit").k) * 1000);
  if (Is("jit-error") && std::strstr(static_cast<const char*>(image), "matload_calibrate") == nullptr) {
    for (unsigned int i = 0; i < options; ++i) {
      if (keys[i] == 5) {  // CU_JIT_ERROR_LOG_BUFFER
        std::snprintf(static_cast<char*>(values[i]), 256, "ptxas application ptx input, line 9; error   : %s",
                      "Unknown modifier '.fake'");
      }
    }
    return kInvalidPtx;
  }
  const char* text = static_cast<const char*>(image);
  *module = new FakeModule{.chosen = Chosen(text), .ptx = std::strstr(text, ".entry") != nullptr ? text : ""};
  return kSuccess;
}
CUresult cuModuleUnload(void* module) {
  delete static_cast<FakeModule*>(module);
  return kSuccess;
}
CUresult cuGetErrorString(CUresult result, const char** text) {
  switch (result) {
    case kDeviceUnavailable: *text = "CUDA_ERROR_DEVICE_UNAVAILABLE"; break;
    case kNoDevice: *text = "CUDA_ERROR_NO_DEVICE"; break;
    case kInvalidPtx: *text = "CUDA_ERROR_INVALID_PTX"; break;
    case 700: *text = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
    case 716: *text = "CUDA_ERROR_MISALIGNED_ADDRESS"; break;
    case kUnknown: *text = "CUDA_ERROR_UNKNOWN"; break;
    default: *text = "fake CUDA error"; break;
  }
  return kSuccess;
}
CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  const auto* loaded = static_cast<const FakeModule*>(module);
  if (std::strcmp(name, "matload_calibrate") == 0) {
    *function = kCalibrationFunction;
    return kSuccess;
  }
  const bool judged = loaded->ptx.find(std::string(name) + "_plan[") != std::string::npos;
  *function = const_cast<TestFunction*>(&kTestFunctions[loaded->chosen][judged]);
  return kSuccess;
}
CUresult cuMemAlloc_v2(std::uint64_t* address, size_t bytes) {
  *address = reinterpret_cast<std::uint64_t>(std::malloc(bytes));
  return kSuccess;
}
CUresult cuMemFree_v2(std::uint64_t address) {
  std::free(reinterpret_cast<void*>(address));
  return kSuccess;
}
CUresult cuMemHostAlloc(void** memory, size_t bytes, unsigned int) {
  *memory = std::malloc(bytes);
  return kSuccess;
}
CUresult cuMemFreeHost(void* memory) {
  std::free(memory);
  return kSuccess;
}
CUresult cuMemcpyHtoD_v2(std::uint64_t to, const void* from, size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(to), from, bytes);
  return kSuccess;
}
CUresult cuMemcpyDtoH_v2(void* to, std::uint64_t from, size_t bytes) {
  std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
  return kSuccess;
}
CUresult cuMemsetD8_v2(std::uint64_t to, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void*>(to), value, bytes);
  return kSuccess;
}
CUresult cuLaunchKernel(void* function, unsigned blocks, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        void*, void** parameters, void**) {
  current_launch = 0;
  if (function == kCalibrationFunction) {
    CountOne("calibrations");
    return kSuccess;
  }
  if (Is("lost-on-device") && retained_device == FindMode("lost-on-device").k) return kUnknown;
  const auto* test = static_cast<const TestFunction*>(function);
  current_launch = NextLaunch();
  current_faults = test->chosen && Is("fault-blocks") && blocks == FindMode("fault-blocks").k;
  if (test->judged) WriteVerdicts(*static_cast<const std::uint64_t*>(parameters[3]), blocks);
  if (Is("signal-at-launch") && current_launch == FindMode("signal-at-launch").k) {
    kill(getppid(), static_cast<int>(FindMode("signal-at-launch").code));
  }
  const std::string mark = StatePath(("launched-on-" + std::to_string(retained_device)).c_str());
  close(open(mark.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
  if (FromLaunch("segv-from-launch", current_launch)) raise(SIGSEGV);
  if (FromLaunch("abort-from-launch", current_launch)) std::abort();
  if (FromLaunch("lost-from-launch", current_launch)) {
    close(open(StatePath("lost").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
    return kUnknown;
  }
  return kSuccess;
}
CUresult cuCtxSynchronize() {
  if (current_launch == 0) return kSuccess;
  if (FromLaunch("hang-from-launch", current_launch)) pause();
  if (FromLaunch("fault-from-launch", current_launch)) return static_cast<CUresult>(FindMode("fault-from-launch").code);
  const Mode at = FindMode("fault-at-launch");
  if (at.name == "fault-at-launch" && current_launch == at.k) return static_cast<CUresult>(at.code);
  if (current_faults) return static_cast<CUresult>(FindMode("fault-blocks").code);
  return kSuccess;
}

}  // extern "C"
