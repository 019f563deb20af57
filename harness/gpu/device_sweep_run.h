// DeviceSweepRun: a form's defined variants drawn, run and judged on the
// GPU by its sweep kernel (harness/kernels/device_sweep.h), launch after
// launch, with the host judging in full, by the model, every variant the
// device kept: each one it called wrong, and the sample. While the GPU runs
// one launch, host threads judge the last one's kept variants.
//
// The host holds the device to the model in two ways. A kept variant's
// operands, as the device drew them, must be those MakeVariant draws for
// its index; and its verdict must be the model's. Either failing means the
// device's draw or its judge is wrong, not the GPU's load: the run ends
// with kInternal (an infrastructure outcome) and none of its verdicts
// stands (docs/gpu-judge.md).
#ifndef MATLOAD_HARNESS_GPU_DEVICE_SWEEP_RUN_H_
#define MATLOAD_HARNESS_GPU_DEVICE_SWEEP_RUN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "harness/families/test_program.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/case_summary.h"
#include "harness/kernels/device_sweep.h"
#include "harness/runs/sm_verdicts.h"

namespace matload {

// SweepLaunch runs the sweep kernel once for `request` into output slot
// `slot` (0 or 1; the output must stay as it is until the same slot
// launches again) and returns the output: the counts, the SM counts and at
// least the slots the kernel claimed, up to request.slots
// (device_sweep.h). DeviceSweepLaunch does it on a GPU.
using SweepLaunch =
    std::function<absl::StatusOr<absl::Span<const std::uint8_t>>(int slot, const SweepRequest& request)>;

// DeviceSweepLaunch is the SweepLaunch of `program`'s sweep kernel `kernel`
// on `jit`, `blocks` blocks a launch, into page-locked output.
SweepLaunch DeviceSweepLaunch(const DriverJit& jit, const TestProgram& program, std::string kernel, unsigned blocks);

// SweepOptions say what a sweep runs.
struct SweepOptions {
  std::uint64_t seed = 1;
  std::uint64_t first = 1;  // variants [first, end); variant 0, the tagged one, is never swept
  std::uint64_t end = 1;
  std::uint64_t variants_per_launch = std::uint64_t{1} << 26;
  // duration: no launch starts after this much time (the benchmark); none:
  // the sweep runs every variant asked for.
  std::optional<absl::Duration> duration;
  std::uint32_t kept_disagreements = 64;  // slots a launch keeps for disagreements, past its sample
  // skipped_classes: the fault classes (TestProgram::FaultClassOf) whose
  // variants the device counts and never runs, bit c for class c.
  std::uint64_t skipped_classes = 0;
  int threads = 1;                        // host threads that judge kept variants
  // on_kept, where set, hears of each kept variant once the host has judged
  // it and held the device to it: the host thread (0 to threads - 1), the
  // variant, the model's verdict and the registers the device kept.
  std::function<void(int thread, const Variant& variant, const CaseVerdict& verdict,
                     absl::Span<const std::uint8_t> registers)>
      on_kept;
};

// SweepStats are what a sweep did.
struct SweepStats {
  std::uint64_t launches = 0;
  std::uint64_t next = 0;         // the first variant not run
  std::uint64_t agreed = 0;       // variants the device judged to agree with the plan
  std::uint64_t disagreed = 0;    // and to disagree
  std::uint64_t rejudged = 0;     // kept variants the host judged in full
  std::uint64_t kept_agreed = 0;  // of those, the ones both judges called right
  // failing: the variants the device called wrong and the model confirmed,
  // by index, as many as the launches kept; unseen: disagreements past the
  // slots, which no host judged.
  std::vector<std::uint64_t> failing;
  std::uint64_t unseen = 0;
  std::vector<LeftOut> skipped;  // by fault class: the variants skipped, and the first
  std::vector<SmCounts> per_sm;  // by SM number
  double seconds = 0;
  double launching = 0;  // the calling thread's time in launches
  double judging = 0;    // the host threads' time judging kept variants (each thread's, averaged)
};

// RunSweep runs `options`' variants of `program` through `launch`. A
// failed launch ends it with that status; an output too short for what it
// says, or whose counts are not the variants it was given, is kInternal,
// and so is a kept variant the device drew or judged otherwise than the
// host, or ran though its class is skipped (above). A program without a
// plan, a first variant of 0, or a skipped class the program does not
// have, is kInvalidArgument.
absl::StatusOr<SweepStats> RunSweep(const TestProgram& program, const SweepOptions& options, const SweepLaunch& launch);

// KeptVariant is one kept slot, judged by the host.
struct KeptVariant {
  Variant variant;
  CaseVerdict verdict;                       // the model's
  absl::Span<const std::uint8_t> registers;  // the slot's
};

// JudgeKeptVariant judges one kept slot of a sweep of `program` seeded
// `seed` (SweepSlotBytes long) with the model, where the host agrees with
// the device about it; kInternal where the device's draw or verdict is not
// the host's, or where the variant's class is among `skipped_classes`.
absl::StatusOr<KeptVariant> JudgeKeptVariant(const TestProgram& program, const LoadPlan& plan, std::uint64_t seed,
                                             std::uint64_t skipped_classes, absl::Span<const std::uint8_t> slot);

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_DEVICE_SWEEP_RUN_H_
