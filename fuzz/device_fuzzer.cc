// The `device` fuzz target: the GPU differential under random forms and
// run-time inputs. Each input is one launch: its form, judged for the GPU's
// own target (the case's target line is ignored), built into a test kernel
// that runs the input's own variant and kBatch - 1 more that the form's
// program draws from the input's data stream, one block each, so the GPU
// never waits on one input at a time. Every register of every lane of
// every block is compared with the reference model.
//
// Only variants the model predicts run: undefined ones and faults the
// registry predicts are left out, so a fault is always news. A fault
// leaves the CUDA context unusable, so after filing it the process exits
// and libFuzzer's -fork starts a fresh job. Without a GPU every input is
// still decoded and judged, and the target says once why nothing ran.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/finding_store.h"
#include "fuzz/fuzz_case.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/families/family_runtime.h"
#include "harness/families/test_program.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/kernels/reproducer.h"
#include "reference/printer.h"

namespace matload {
namespace {

// kBatch is the number of variants (blocks) per input and launch.
constexpr int kBatch = 64;

// Throughput counts this process's work, printed when it exits: the device
// target's checked executions per second, as a benchmark figure.
struct Throughput {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::int64_t inputs = 0;
  std::int64_t launches = 0;
  std::int64_t checked = 0;  // blocks run and every register compared
};

Throughput& Counters() {
  static Throughput* const kCounters = [] {
    auto* counters = new Throughput;
    std::atexit([] {
      const Throughput& c = Counters();
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
      std::cerr << "device_fuzzer: " << c.inputs << " inputs, " << c.launches << " launches, " << c.checked
                << " checked executions in " << seconds << " s: " << (seconds > 0 ? c.checked / seconds : 0)
                << " checked executions/s\n";
    });
    return counters;
  }();
  return *kCounters;
}

// Device is the GPU every input runs on, opened once per process.
struct Device {
  DriverJit* jit = nullptr;  // null without a usable GPU
  Target target;
  std::string toolchain;  // "driver JIT CUDA 13.0", as the registry names it
  PtxVersion ptx;         // the newest PTX ISA version the JIT speaks: no case declares a later one
  DiscrepancyRegistry registry;
};

const Device& TheDevice() {
  static const Device* const kDevice = [] {
    auto* device = new Device;
    absl::StatusOr<DriverJit*> jit = WorkerJit(0);
    if (!jit.ok()) {
      std::cerr << "device_fuzzer: needs a GPU: " << jit.status().message()
                << "; inputs are decoded and judged, nothing runs\n";
      return device;
    }
    device->jit = *jit;
    const DeviceInfo& info = device->jit->device();
    device->target = info.BaseTarget();
    device->toolchain = device->jit->Toolchain();
    absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(*device->jit);
    if (!dialect.ok()) {
      std::cerr << "device_fuzzer: asking the JIT its PTX ISA version: " << dialect.status() << "\n";
      std::exit(4);
    }
    device->ptx = dialect->Judged();
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
    if (!registry.ok()) {
      std::cerr << "device_fuzzer: " << registry.status() << "\n";
      std::exit(2);
    }
    device->registry = *std::move(registry);
    std::cerr << "device_fuzzer: " << info.name << " (" << device->target.Name() << "), " << device->toolchain << "\n";
    return device;
  }();
  return *kDevice;
}

// Batch is the input's own variant (when the model predicts it) and
// variants of the form's program, each with its prediction.
struct Batch {
  std::vector<Variant> variants;
  std::vector<Outcome> expected;
};

Batch MakeBatch(const Device& device, const TestProgram& program, const FuzzCase& fuzz_case) {
  std::vector<Variant> candidates = program.Variants(kBatch, fuzz_case.runtime.stream, /*undefined=*/false);
  candidates[0] = VariantFor(program.instruction(), fuzz_case.runtime);
  Batch batch;
  for (Variant& variant : candidates) {
    Outcome expected = program.Expect(variant);
    if (!std::holds_alternative<LaneValues>(expected)) continue;
    if (device.registry.Find(program.FaultCaseText(variant), device.target, Direction::kDeviceFaults,
                             device.toolchain) != nullptr) {
      continue;
    }
    variant.index = static_cast<int>(batch.variants.size());
    batch.variants.push_back(std::move(variant));
    batch.expected.push_back(std::move(expected));
  }
  return batch;
}

// ReplayOf is the case whose own variant is `variant` of `program`: its
// input replays the variant as block 0 of the same batch.
FuzzCase ReplayOf(const TestProgram& program, const FuzzCase& fuzz_case, const Variant& variant) {
  FuzzCase replay = fuzz_case;
  replay.runtime = {.pattern = variant.pattern, .stream = variant.stream, .placement = variant.placement};
  RuntimeOf(program.instruction().form().family).SetInputs(variant, replay.runtime);
  return replay;
}

// FileCase files one case of a batch; `replay` is the input that shows it.
void FileCase(const TestProgram& program, const FuzzCase& replay, const Variant& variant, const CaseVerdict& verdict,
              const Outcome& expected, absl::Span<const std::uint8_t> actual) {
  const std::vector<std::uint8_t> record = program.Record(variant);
  const std::vector<std::uint8_t> expected_bytes = ExpectedBytes(std::get<LaneValues>(expected));
  const std::string pattern =
      verdict.kind == CaseClass::kMismatch ? MismatchPattern(verdict, std::get<LaneValues>(expected)) : "fault";
  ReportFinding({.signature = absl::StrCat("device/", program.instruction().spec().MnemonicText(), "/",
                                           CaseClassName(verdict.kind), "/", pattern),
                 .summary = absl::StrCat(program.Label(), " on ", program.instruction().target().Name(), ": ",
                                         CaseClassName(verdict.kind), ". ", verdict.detail, "\nVariant: ", variant.kind),
                 .case_text = EncodeFuzzCase(replay),
                 .files = {{"kernel.ptx", program.kernel()},
                           {"record.bin", std::string(record.begin(), record.end())},
                           {"expected.bin", std::string(expected_bytes.begin(), expected_bytes.end())},
                           {"actual.bin", std::string(actual.begin(), actual.end())},
                           {"repro.cpp", ReproducerSource(program.Label(), program.entry(), program.frame())}}});
}

}  // namespace
}  // namespace matload

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace matload;
  absl::StatusOr<FuzzCase> fuzz_case = DecodeFuzzInput(data, size);
  if (!fuzz_case.ok()) return -1;
  const Device& device = TheDevice();
  ++Counters().inputs;
  const Target target = device.jit != nullptr ? device.target : fuzz_case->target;
  // A case of a version the JIT does not speak runs at the newest it does.
  const PtxVersion ptx = device.jit != nullptr ? std::min(fuzz_case->ptx, device.ptx) : fuzz_case->ptx;
  const Verdict verdict = Judge(fuzz_case->snippet, ptx, target);
  if (!verdict.legal() || device.jit == nullptr) return 0;
  absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(*verdict.checked(), ProgramOptions{});
  if (!program.ok()) return 0;  // no layout known on this target: nothing to predict
  const Batch batch = MakeBatch(device, **program, *fuzz_case);
  if (batch.variants.empty()) return 0;
  std::vector<const Variant*> pointers;
  for (const Variant& variant : batch.variants) pointers.push_back(&variant);
  absl::StatusOr<std::string> output = LaunchProgram(0, **program, pointers, CompilePath::kDriverJit);
  if (!output.ok()) {
    const LaunchOutcome outcome = ClassifyLaunchError(output.status());
    if (outcome.kind == LaunchOutcome::Kind::kInfrastructure) {
      // Not a finding: the device or driver could not serve the job. The
      // line is what `matload fuzz` and a person read in the job's log.
      std::cerr << "device_fuzzer: infrastructure failure, not a finding: " << outcome.detail << "\n";
      std::_Exit(0);  // -fork starts a fresh job
    }
    const bool faulted = outcome.kind == LaunchOutcome::Kind::kKernelFault;
    // Which block faulted is unknown: the whole input is the reproducer.
    const CaseVerdict fault{faulted ? CaseClass::kUnexpectedFault : CaseClass::kLegalRejected, {},
                            absl::StrCat("in a batch of ", batch.variants.size(), ": ", outcome.detail)};
    FileCase(**program, *fuzz_case, batch.variants[0], fault, batch.expected[0], {});
    if (faulted) std::_Exit(0);  // the context is gone; -fork starts a fresh job
    return 0;
  }
  ++Counters().launches;
  Counters().checked += static_cast<std::int64_t>(batch.variants.size());
  const size_t block_bytes = (*program)->frame().output_bytes;
  const absl::Span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(output->data()), output->size());
  for (size_t i = 0; i < batch.variants.size(); ++i) {
    const absl::Span<const std::uint8_t> block = bytes.subspan(i * block_bytes, block_bytes);
    const CaseVerdict case_verdict = JudgeOutput(batch.expected[i], block);
    if (IsFinding(case_verdict.kind)) {
      FileCase(**program, ReplayOf(**program, *fuzz_case, batch.variants[i]), batch.variants[i], case_verdict,
               batch.expected[i], block);
    }
  }
  return 0;
}
