// LaunchPipeline: one form's checked executions at the rate the GPU can run
// them. Two batches of variants take turns: in each round the calling
// thread launches one, while the host threads take the other a chunk of
// blocks at a time, judge each block of its last launch against the model
// and refill the chunk as the next batch. A barrier ends the round and
// swaps the batches. The threads live for the whole run, every buffer is
// kept from round to round, and every block of every launch is judged.
//
// Chunks, not fixed slices, so that a thread slowed by anything else on
// the machine holds up no round. Block i of batch k is
// variant i of seed + k (TestProgram::MakeVariant), whichever thread makes
// it, so every block replays from the seed alone.
#ifndef MATLOAD_HARNESS_LAUNCH_PIPELINE_H_
#define MATLOAD_HARNESS_LAUNCH_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "harness/test_program.h"

namespace matload {

// PipelineOptions size a run.
struct PipelineOptions {
  int blocks = 65536;  // variants per launch
  int threads = 1;     // host threads that judge and make variants
  absl::Duration duration = absl::Seconds(10);  // no launch starts after this much time
  std::uint64_t seed = 1;                       // batch k is seeded seed + k
};

// PipelineLaunch runs the program's kernel once per variant of `variants`,
// whose records lie back to back in `records`, and returns every block's
// output, back to back. The pipeline alternates two batches, `slot` 0 and
// 1: the output must stay as it is until the same slot launches again, so
// the launch keeps one output buffer per slot (page-locked ones, for a
// GPU: DriverJit::PinnedOutput). It is the GPU's part, which
// DriverJit::LaunchInto does for real.
using PipelineLaunch = std::function<absl::StatusOr<absl::Span<const std::uint8_t>>(
    int slot, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> records)>;

// PipelineStats are what a run did. The stages overlap: `launching` is the
// calling thread's time in launches; `judging` and `generating` are the
// host threads' time in each stage, averaged over the threads.
struct PipelineStats {
  std::uint64_t launches = 0;  // timed launches, every block of each judged
  std::uint64_t checked = 0;   // blocks judged
  std::uint64_t mismatched = 0;  // judged blocks that did not pass
  double seconds = 0;
  double launching = 0;
  double judging = 0;
  double generating = 0;
};

// JudgeBlocks predicts each of `variants` and compares it bit for bit with
// its block of `output` (variant i's at i * frame().output_bytes), counting
// the blocks checked and those that did not pass in `stats`.
void JudgeBlocks(const TestProgram& program, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> output,
                 PipelineStats& stats);

// RunPipeline runs `program` through `launch` for options.duration. A first
// launch, not timed or counted, compiles and loads the module; its batch is
// launched again in the first timed round. A failed launch ends the run,
// which returns its status. No block or no thread is kInvalidArgument.
absl::StatusOr<PipelineStats> RunPipeline(const TestProgram& program, const PipelineOptions& options,
                                          const PipelineLaunch& launch);

}  // namespace matload

#endif  // MATLOAD_HARNESS_LAUNCH_PIPELINE_H_
