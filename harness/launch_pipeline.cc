#include "harness/launch_pipeline.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/case_judge.h"

namespace matload {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds is the time since `start`.
double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Batch is one launch's variants, their records back to back, and the
// output of its last launch.
struct Batch {
  int slot = 0;           // which of the launch's two output buffers is this batch's
  bool launched = false;  // whether `output` is this batch's
  std::vector<Variant> variants;
  std::vector<std::uint8_t> records;
  absl::Span<const std::uint8_t> output;  // in the launch's buffer for `slot`
};

// Chunks hands out a batch's blocks to the host threads, kChunkBlocks at
// a time, so that a thread slowed by anything else on the machine takes
// fewer of them rather than holding up the round. A thread judges and
// refills the chunk it takes, so no block is refilled before it is judged.
class Chunks {
 public:
  // kChunkBlocks is small enough to balance the threads, and large enough
  // that taking a chunk costs nothing next to judging it.
  static constexpr size_t kChunkBlocks = 512;

  // Reset hands out the blocks of a batch of `blocks` afresh.
  void Reset(size_t blocks) {
    blocks_ = blocks;
    next_.store(0, std::memory_order_relaxed);
  }
  // ForEach runs work(begin, end) on chunks until none is left.
  template <typename Work>
  void ForEach(const Work& work) {
    for (size_t begin = next_.fetch_add(kChunkBlocks); begin < blocks_; begin = next_.fetch_add(kChunkBlocks)) {
      work(begin, std::min(blocks_, begin + kChunkBlocks));
    }
  }

 private:
  size_t blocks_ = 0;
  std::atomic<size_t> next_ = 0;
};

// FillBlocks refills blocks [begin, end) of `batch`, seeded `seed`, in
// place: variant i of the seed for block i, and its record.
void FillBlocks(const TestProgram& program, std::uint64_t seed, size_t begin, size_t end, Batch& batch) {
  const size_t record_bytes = program.frame().record_bytes;
  for (size_t i = begin; i < end; ++i) {
    batch.variants[i] = program.MakeVariant(seed, static_cast<int>(i), false);
    program.WriteRecord(batch.variants[i], absl::MakeSpan(batch.records).subspan(i * record_bytes, record_bytes));
  }
}

}  // namespace

void JudgeBlocks(const TestProgram& program, absl::Span<const Variant> variants, absl::Span<const std::uint8_t> output,
                 PipelineStats& stats) {
  const size_t block_bytes = program.frame().output_bytes;
  std::uint64_t mismatched = 0;  // counted here, so that threads' stats are written once a call
  for (size_t i = 0; i < variants.size(); ++i) {
    const CaseVerdict verdict = JudgeOutput(program.Expect(variants[i]), output.subspan(i * block_bytes, block_bytes));
    if (verdict.kind != CaseClass::kPass) ++mismatched;
  }
  stats.checked += variants.size();
  stats.mismatched += mismatched;
}

absl::StatusOr<PipelineStats> RunPipeline(const TestProgram& program, const PipelineOptions& options,
                                          const PipelineLaunch& launch) {
  const int threads = options.threads;
  if (threads < 1 || options.blocks < 1) {
    return absl::InvalidArgumentError(absl::StrCat("a pipeline needs at least one thread and one block; asked for ",
                                                   options.blocks, " blocks and ", threads, " threads"));
  }
  const size_t blocks = options.blocks;
  const size_t block_bytes = program.frame().output_bytes;
  Batch current{.slot = 0};
  Batch previous{.slot = 1};
  for (Batch* batch : {&current, &previous}) {
    batch->variants.resize(blocks);
    batch->records.resize(blocks * program.frame().record_bytes);
  }
  const auto launch_batch = [&](Batch& batch) -> absl::Status {
    batch.launched = true;
    absl::StatusOr<absl::Span<const std::uint8_t>> output = launch(batch.slot, batch.variants, batch.records);
    if (!output.ok()) return output.status();
    if (output->size() != blocks * block_bytes) {
      return absl::InternalError(absl::StrCat("the launch returned ", output->size(), " bytes of output for ", blocks,
                                              " blocks of ", block_bytes));
    }
    batch.output = *output;
    return absl::OkStatus();
  };
  FillBlocks(program, options.seed, 0, blocks, current);
  if (absl::Status warm = launch_batch(current); !warm.ok()) return warm;
  current.launched = false;

  PipelineStats stats;
  // Each thread's stats on a cache line of its own.
  struct alignas(64) ThreadStats {
    PipelineStats stats;
  };
  std::vector<ThreadStats> per_thread(threads);
  std::uint64_t refill_seed = options.seed + 1;  // the batch the threads make this round
  Chunks chunks;
  chunks.Reset(blocks);
  absl::Status launch_status;
  bool draining = false;  // time is up: this round only judges the last launch
  bool stop = false;
  const double seconds = absl::ToDoubleSeconds(options.duration);
  const Clock::time_point start = Clock::now();
  // Runs once a round, when every thread has arrived and before any goes on.
  std::barrier round_end(threads + 1, [&]() noexcept {
    if (draining || !launch_status.ok()) {
      stop = true;
      return;
    }
    ++stats.launches;
    previous.launched = false;  // refilled: its output is the last batch's
    std::swap(current, previous);
    ++refill_seed;
    draining = Seconds(start) >= seconds;
    chunks.Reset(blocks);
  });
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int thread = 0; thread < threads; ++thread) {
    pool.emplace_back([&, thread] {
      PipelineStats& mine = per_thread[thread].stats;
      while (!stop) {
        // A chunk is judged, then refilled, by the thread that took it.
        chunks.ForEach([&](size_t begin, size_t end) {
          const Clock::time_point judge_start = Clock::now();
          if (previous.launched) {
            JudgeBlocks(program, absl::MakeConstSpan(previous.variants).subspan(begin, end - begin),
                        previous.output.subspan(begin * block_bytes), mine);
          }
          const Clock::time_point generate_start = Clock::now();
          mine.judging += std::chrono::duration<double>(generate_start - judge_start).count();
          if (!draining) FillBlocks(program, refill_seed, begin, end, previous);
          mine.generating += Seconds(generate_start);
        });
        round_end.arrive_and_wait();
      }
    });
  }
  while (!stop) {
    if (!draining) {
      const Clock::time_point launch_start = Clock::now();
      launch_status = launch_batch(current);
      stats.launching += Seconds(launch_start);
    }
    round_end.arrive_and_wait();
  }
  for (std::thread& thread : pool) thread.join();
  if (!launch_status.ok()) return launch_status;
  stats.seconds = Seconds(start);
  for (const auto& [mine] : per_thread) {
    stats.checked += mine.checked;
    stats.mismatched += mine.mismatched;
    stats.judging += mine.judging / threads;
    stats.generating += mine.generating / threads;
  }
  return stats;
}

}  // namespace matload
