#include "harness/gpu/program_launch.h"

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/nvjitlink.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "reference/ptx_version.h"

namespace matload {
namespace {

// ToolkitPtxas and ToolkitNvJitLink are the offline compilers, opened once
// per process.
const absl::StatusOr<Ptxas>& ToolkitPtxas() {
  static const absl::StatusOr<Ptxas>* const kPtxas = new absl::StatusOr<Ptxas>(Ptxas::Open(Ptxas::DefaultPath()));
  return *kPtxas;
}
const absl::StatusOr<std::unique_ptr<NvJitLink>>& ToolkitNvJitLink() {
  static const absl::StatusOr<std::unique_ptr<NvJitLink>>* const kNvJitLink =
      new absl::StatusOr<std::unique_ptr<NvJitLink>>(NvJitLink::Open());
  return *kNvJitLink;
}


// CalibrationKernel is a kernel that does nothing, with the two buffer
// parameters a launch without inputs passes (scratch and output).
std::string CalibrationKernel(Target target, PtxVersion ptx) {
  return absl::StrCat(".version ", ptx.ToString(), "\n.target ", target.Name(),
                      "\n.address_size 64\n\n.visible .entry ", kCalibrationEntry,
                      "(.param .u64 scratch, .param .u64 out)\n{\n  ret;\n}\n");
}

// TimeCalibrationKernel launches CalibrationKernel twice, compiling it on
// the first launch, and returns how long the second took.
absl::StatusOr<std::chrono::microseconds> TimeCalibrationKernel(const DriverJit& jit, PtxVersion ptx) {
  const std::string kernel = CalibrationKernel(jit.device().BaseTarget(), ptx);
  const DriverJit::KernelLaunch launch{.entry = kCalibrationEntry};
  if (absl::StatusOr<std::vector<std::uint8_t>> first = jit.Launch(kernel, launch); !first.ok()) return first.status();
  const auto start = std::chrono::steady_clock::now();
  if (absl::StatusOr<std::vector<std::uint8_t>> second = jit.Launch(kernel, launch); !second.ok()) {
    return second.status();
  }
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
}

}  // namespace

absl::string_view CompilePathName(CompilePath path) {
  switch (path) {
    case CompilePath::kDriverJit:
      return "driver-jit";
    case CompilePath::kPtxasCubin:
      return "ptxas-cubin";
    case CompilePath::kNvJitLinkCubin:
      return "nvjitlink-cubin";
  }
  return "unknown";
}

absl::StatusOr<CompilePath> ParseCompilePath(absl::string_view name) {
  std::vector<absl::string_view> names;
  for (CompilePath path : kCompilePaths) {
    if (name == CompilePathName(path)) return path;
    names.push_back(CompilePathName(path));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown compile path '", name, "' (", absl::StrJoin(names, ", "), ")"));
}

absl::StatusOr<std::string> OfflineToolchain(CompilePath path) {
  switch (path) {
    case CompilePath::kDriverJit:
      return absl::InvalidArgumentError("the driver JIT is named by the device, not the toolkit");
    case CompilePath::kPtxasCubin:
      if (!ToolkitPtxas().ok()) return ToolkitPtxas().status();
      return ToolkitPtxas()->Toolchain();
    case CompilePath::kNvJitLinkCubin:
      if (!ToolkitNvJitLink().ok()) return ToolkitNvJitLink().status();
      return (*ToolkitNvJitLink())->Toolchain();
  }
  return absl::InternalError("unknown compile path");
}

absl::StatusOr<PtxDialect> OfflineDialect(CompilePath path) {
  static absl::flat_hash_map<CompilePath, absl::StatusOr<PtxDialect>>* const kDialects =
      new absl::flat_hash_map<CompilePath, absl::StatusOr<PtxDialect>>();
  static absl::Mutex* const kMutex = new absl::Mutex();
  absl::MutexLock lock(kMutex);
  if (auto known = kDialects->find(path); known != kDialects->end()) return known->second;
  absl::StatusOr<PtxDialect> dialect = absl::InvalidArgumentError("the driver JIT's dialect is the device probe's");
  if (path == CompilePath::kPtxasCubin) {
    dialect = ToolkitPtxas().ok() ? ProbePtxDialect(*ToolkitPtxas()) : ToolkitPtxas().status();
  } else if (path == CompilePath::kNvJitLinkCubin) {
    dialect = ToolkitNvJitLink().ok() ? ProbePtxDialect(**ToolkitNvJitLink()) : ToolkitNvJitLink().status();
  }
  return kDialects->emplace(path, dialect).first->second;
}

absl::StatusOr<DriverJit*> WorkerJit(int ordinal) {
  static absl::StatusOr<std::unique_ptr<DriverJit>>* jit = [ordinal] {
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    return new absl::StatusOr<std::unique_ptr<DriverJit>>(
        driver.ok() ? DriverJit::Open(*driver, ordinal) : absl::StatusOr<std::unique_ptr<DriverJit>>(driver.status()));
  }();
  if (!jit->ok()) return jit->status();
  return jit->value().get();
}

namespace {

// AskWorker runs `question` in a worker process, so that the calling
// process never initialises CUDA, and returns its answer. With no usable
// GPU it is NoGpuError; a worker that hangs or crashes is an
// infrastructure error naming `what`.
absl::StatusOr<std::string> AskWorker(const std::function<absl::StatusOr<std::string>()>& question,
                                      std::chrono::milliseconds timeout, absl::string_view what) {
  absl::StatusOr<std::vector<ItemResult>> asked = RunIsolated(1, [&](int) { return question(); }, timeout);
  if (!asked.ok()) return asked.status();
  const ItemResult& answer = (*asked)[0];
  switch (answer.kind) {
    case ItemResult::Kind::kDone:
      return answer.output;
    case ItemResult::Kind::kFailed:
      if (!IsNoGpu(answer.error)) return answer.error;  // busy, lost, broken: infrastructure
      return NoGpuError(absl::StrCat("no GPU to run on (", answer.error.message(),
                                     "); `matload support` is the compile-only sweep"));
    case ItemResult::Kind::kTimedOut:
      return InfrastructureError(InfrastructureCause::kHarnessTimeout, absl::StrCat(what, ": ", answer.output));
    case ItemResult::Kind::kCrashed:
      return InfrastructureError(InfrastructureCause::kWorkerCrashed, absl::StrCat(what, ": ", answer.output));
    case ItemResult::Kind::kNotRun:
      break;
  }
  return InterruptedError(PendingInterrupt());
}

}  // namespace

absl::StatusOr<int> CountDevices(std::chrono::milliseconds timeout) {
  absl::StatusOr<std::string> answer = AskWorker(
      []() -> absl::StatusOr<std::string> {
        absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
        if (!driver.ok()) return driver.status();
        return absl::StrCat((*driver)->devices().size());
      },
      timeout, "counting the GPUs");
  if (!answer.ok()) return answer.status();
  int count = 0;
  if (!absl::SimpleAtoi(*answer, &count)) return absl::InternalError(absl::StrCat("the GPU count came back as '", *answer, "'"));
  return count;
}

absl::StatusOr<DeviceProbe> ProbeDevice(int ordinal, std::chrono::milliseconds timeout) {
  absl::StatusOr<std::string> answer = AskWorker(
      [ordinal]() -> absl::StatusOr<std::string> {
        absl::StatusOr<DriverJit*> jit = WorkerJit(ordinal);
        if (!jit.ok()) return jit.status();
        const DeviceInfo& device = (*jit)->device();
        const std::string toolchain = (*jit)->Toolchain();
        absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(**jit);
        if (!dialect.ok()) {
          return InfrastructureError(InfrastructureCause::kDriverError,
                                     absl::StrCat("asking the JIT its PTX ISA version: ", dialect.status().message()));
        }
        absl::StatusOr<std::chrono::microseconds> calibration = TimeCalibrationKernel(**jit, dialect->Judged());
        if (!calibration.ok()) {
          // Not a verdict on any form: a driver that cannot run an empty
          // kernel can judge nothing.
          return InfrastructureError(InfrastructureCause::kDriverError,
                                     absl::StrCat("the empty calibration kernel: ", calibration.status().message()));
        }
        return absl::StrCat(device.BaseTarget().sm, "\t", calibration->count(), "\t", dialect->spoken.ToString(), "\t",
                            dialect->from_message ? 1 : 0, "\t", toolchain, "\t", device.name, "\t", device.uuid);
      },
      timeout, "the device probe");
  if (!answer.ok()) return answer.status();
  const std::vector<std::string> fields = absl::StrSplit(*answer, absl::MaxSplits('\t', 6));
  int sm = 0;
  std::int64_t calibration = 0;
  absl::StatusOr<PtxVersion> spoken =
      fields.size() == 7 ? ParsePtxVersionNumbers(fields[2]) : absl::StatusOr<PtxVersion>();
  if (fields.size() != 7 || !absl::SimpleAtoi(fields[0], &sm) || !absl::SimpleAtoi(fields[1], &calibration) ||
      !spoken.ok()) {
    return absl::InternalError(absl::StrCat("the device probe said '", *answer, "'"));
  }
  return DeviceProbe{.target = Target{sm},
                     .toolchain = fields[4],
                     .identity = absl::StrCat(fields[5], ", ", fields[6], ", ", fields[4]),
                     .name = fields[5],
                     .uuid = fields[6],
                     .jit = {.spoken = *spoken, .from_message = fields[3] == "1"},
                     .calibration = std::chrono::microseconds(calibration)};
}

DriverJit::KernelLaunch KernelLaunchFor(const TestProgram& program, size_t blocks,
                                        absl::Span<const std::uint8_t> records) {
  const KernelFrame& frame = program.frame();
  return {.entry = program.entry(),
          .blocks = static_cast<unsigned>(blocks),
          .threads = kWarpLanes,
          .inputs = {records},
          .scratch_bytes = blocks * frame.window_bytes,
          .output_bytes = blocks * frame.output_bytes,
          .verdict_bytes = LaunchOutputBytes(frame, blocks) - blocks * frame.output_bytes,
          .block_output_bytes = static_cast<size_t>(frame.output_bytes)};
}

absl::StatusOr<std::string> KernelImage(const std::string& kernel, Target target, CompilePath path) {
  MarkWorkerPhase(WorkerPhase::kCompiling);
  switch (path) {
    case CompilePath::kDriverJit: return kernel;
    case CompilePath::kPtxasCubin:
      if (!ToolkitPtxas().ok()) return absl::InternalError(ToolkitPtxas().status().message());
      return ToolkitPtxas()->CompileToCubin(kernel, target);
    case CompilePath::kNvJitLinkCubin:
      if (!ToolkitNvJitLink().ok()) return absl::InternalError(ToolkitNvJitLink().status().message());
      return (*ToolkitNvJitLink())->CompileToCubin(kernel, target);
  }
  return absl::InternalError("unknown compile path");
}

absl::StatusOr<std::string> ProgramImage(const TestProgram& program, CompilePath path) {
  return KernelImage(program.kernel(), program.instruction().target(), path);
}

absl::StatusOr<std::string> LaunchProgram(int ordinal, const TestProgram& program,
                                          absl::Span<const Variant* const> variants, CompilePath path) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(ordinal);
  if (!jit.ok()) return jit.status();
  absl::StatusOr<std::string> image = ProgramImage(program, path);
  if (!image.ok()) return image.status();
  std::vector<std::uint8_t> records;
  for (const Variant* variant : variants) {
    const std::vector<std::uint8_t> record = program.Record(*variant);
    records.insert(records.end(), record.begin(), record.end());
  }
  absl::StatusOr<std::vector<std::uint8_t>> output =
      (*jit)->Launch(*image, KernelLaunchFor(program, variants.size(), records));
  if (!output.ok()) return output.status();
  return std::string(output->begin(), output->end());
}

}  // namespace matload
