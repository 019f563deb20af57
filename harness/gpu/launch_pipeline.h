// LaunchPipeline: one form's checked executions at the rate the GPU can run
// them. Two batches of variants take turns: in each round the calling
// thread launches one, while the host threads take the other a chunk of
// blocks at a time, judge each block of its last launch against the model
// and refill the chunk as the next batch. A barrier ends the round and
// swaps the batches. The threads live for the whole run, every buffer is
// kept from round to round, and every judged block of every launch is
// judged exactly once.
//
// What each block runs comes from a BatchSource: a fixed list of a case's
// variants for `matload conform` (conform_case_work.h), or an endless
// stream of seeded batches for the throughput benchmark (RunPipeline).
// Chunks, not fixed slices, so that a thread slowed by anything else on
// the machine holds up no round.
#ifndef MATLOAD_HARNESS_GPU_LAUNCH_PIPELINE_H_
#define MATLOAD_HARNESS_GPU_LAUNCH_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "harness/families/test_program.h"
#include "harness/runs/sm_verdicts.h"
#include "reference/outcome.h"

namespace matload {

// PipelineLaunch runs the program's kernel once per variant of `variants`,
// whose records lie back to back in `records`, and returns every block's
// output, back to back (and for a kernel judged on the device, then the
// verdicts: LaunchOutputBytes). The pipeline alternates two batches, `slot` 0 and
// 1: the output must stay as it is until the same slot launches again, so
// the launch keeps one output buffer per slot (page-locked ones, for a
// GPU: DriverJit::PinnedOutput). It is the GPU's part, which
// DriverJit::LaunchInto does for real.
using PipelineLaunch = std::function<absl::StatusOr<absl::Span<const std::uint8_t>>(
    int slot, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> records)>;

// BatchSource says what every block of every batch runs. Its calls come
// from several host threads at once.
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  // BlocksIn is how many blocks batch `batch` has, at most the run's
  // blocks per launch; 0 means there is no such batch, and the run ends
  // once the batches before it are judged.
  virtual size_t BlocksIn(std::uint64_t batch) const = 0;
  // Fill makes block `block` of batch `batch`: its variant. It returns
  // whether the block is judged: a block that is not (a filler, standing
  // in for a variant that must not share this launch) still runs, so that
  // the batch keeps its shape. `thread` (0 to threads - 1) is the host
  // thread that asks, so that state kept per thread needs no lock.
  virtual bool Fill(int thread, std::uint64_t batch, size_t block, Variant& variant) const = 0;
};

// BlockJudge judges one block on host thread `thread` (0 to threads - 1)
// and says whether it passed. It asks the model for its prediction then,
// while the data are hot: a batch keeps no predictions, since storing one
// for a round costs each execution another kilobyte written to the host's
// memory and read back, on a path the host already runs at its ceiling
// (reports/bench/cores-per-gpu-h100x4-2026-11-27/). Each thread judges its
// own blocks, so state kept per thread needs no lock.
using BlockJudge = std::function<bool(int thread, const Variant& variant, absl::Span<const std::uint8_t> output)>;

// BatchRunOptions size a run of RunBatches.
struct BatchRunOptions {
  int blocks = 65536;  // blocks per launch: the size of both batches' buffers
  int threads = 1;     // host threads that judge and make variants
  // duration: no launch starts after this much time; none: the run ends
  // when the source has no more batches.
  std::optional<absl::Duration> duration;
  // warm_up: launch batch 0 once, untimed and unjudged, before the clock
  // starts, so that the timed launches do not include the module's load.
  bool warm_up = false;
};

// PipelineStats are what a run did. The stages overlap: `launching` is the
// calling thread's time in launches; `judging` and `generating` are the
// host threads' time in each stage, averaged over the threads.
struct PipelineStats {
  std::uint64_t launches = 0;    // timed launches, every judged block of each judged
  std::uint64_t checked = 0;     // blocks judged
  std::uint64_t mismatched = 0;  // judged blocks that did not pass
  // For a program judged on the device (harness/kernels/device_judge.h):
  // the blocks it judged alone (they agreed, and were not sampled), and of
  // those it judged with the host, the ones where the two disagreed.
  std::uint64_t judged_on_device = 0;
  std::uint64_t judges_disagreed = 0;
  // per_sm: for a program judged on the device, each SM's verdicts, indexed
  // by the SM number the verdict word names (device_judge.h).
  std::vector<SmCounts> per_sm;
  double seconds = 0;
  double launching = 0;
  double judging = 0;
  double generating = 0;
};

// RunBatches runs `source`'s batches through `launch`, judging every judged
// block with `judge`: for a program judged on the device, only the blocks
// the device did not judge alone (device_judge.h), and each of those the
// device judged too is held to its verdict. A failed launch ends the run,
// which returns its status; so does an output that is not one block per
// variant (kInternal). A device verdict the host contradicts is kInternal:
// the device's comparison is wrong, and the run judged nothing it can
// stand by. No block or no thread is kInvalidArgument.
absl::StatusOr<PipelineStats> RunBatches(const TestProgram& program, const BatchRunOptions& options,
                                         const BatchSource& source, const PipelineLaunch& launch,
                                         const BlockJudge& judge);

// PipelineOptions size a throughput run (RunPipeline).
struct PipelineOptions {
  int blocks = 65536;                           // variants per launch
  int threads = 1;                              // host threads that judge and make variants
  absl::Duration duration = absl::Seconds(10);  // no launch starts after this much time
  std::uint64_t seed = 1;                       // batch k is seeded seed + k
};

// JudgeBlocks predicts each of `variants` and compares it bit for bit with
// its block of `output` (variant i's at i * frame().output_bytes), counting
// the blocks checked and those that did not pass in `stats`.
void JudgeBlocks(const TestProgram& program, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> output,
                 PipelineStats& stats);

// RunPipeline is the throughput benchmark's run: `program` through `launch`
// for options.duration, block i of batch k being variant i of seed + k
// (TestProgram::MakeVariant), so every block replays from the seed alone.
// A first launch, not timed or counted, compiles and loads the module; its
// batch is launched again in the first timed round.
absl::StatusOr<PipelineStats> RunPipeline(const TestProgram& program, const PipelineOptions& options,
                                          const PipelineLaunch& launch);

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_LAUNCH_PIPELINE_H_
