#include "harness/gpu/launch_pipeline.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/judge/case_judge.h"
#include "harness/kernels/device_judge.h"
#include "harness/platform/seconds_since.h"

namespace matload {
namespace {

using Clock = std::chrono::steady_clock;

// Batch is one launch's blocks: their variants and records, which of them
// are judged, and the output of its launch. Batch b lives in
// buffer b % 2: it is made in round b, launched in round b + 1 and judged
// in round b + 2, by the threads that then make batch b + 2 in its place.
struct Batch {
  int slot = 0;  // which of the launch's two output buffers is this batch's
  std::uint64_t number = 0;
  size_t used = 0;        // blocks this batch has; 0 for none
  bool launched = false;  // whether `output` is this batch's
  size_t launched_blocks = 0;  // the blocks `output` holds: `used` when it was launched
  std::vector<Variant> variants;
  std::vector<std::uint8_t> judged;  // per block: 1 if it is judged
  std::vector<std::uint8_t> records;
  absl::Span<const std::uint8_t> output;  // in the launch's buffer for `slot`
};

// Chunks hands out a round's blocks to the host threads, kChunkBlocks at
// a time, so that a thread slowed by anything else on the machine takes
// fewer of them rather than holding up the round. A thread judges and
// refills the chunk it takes, so no block is refilled before it is judged.
class Chunks {
 public:
  // kChunkBlocks is small enough to balance the threads, and large enough
  // that taking a chunk costs nothing next to judging it.
  static constexpr size_t kChunkBlocks = 512;

  // Reset hands out `blocks` blocks afresh.
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

// Round is what one round does: the batch the calling thread launches, the
// batch the host threads judge (its first `judge_blocks` blocks), and the
// one they make, each or none.
struct Round {
  Batch* launch = nullptr;
  Batch* judge = nullptr;
  size_t judge_blocks = 0;
  Batch* fill = nullptr;
};

// Pipeline is one run of RunBatches: its two batches and its rounds.
class Pipeline {
 public:
  Pipeline(const TestProgram& program, const BatchRunOptions& options, const BatchSource& source,
           const PipelineLaunch& launch, const BlockJudge& judge);

  absl::StatusOr<PipelineStats> Run();

 private:
  // Plan plans round `round` from what the last one left, and says whether
  // it has anything to do.
  bool Plan(std::uint64_t round);
  // Launch launches `batch`, counting it when `timed`; a failure is kept
  // in launch_status_.
  void Launch(Batch& batch, bool timed);
  // Work is host thread `thread`'s part of the current round.
  void Work(int thread);
  // JudgeBlock judges block `i` of `batch` on host thread `thread`, into
  // `mine`: on the host, unless the device judged it alone (device_judge.h:
  // it agreed and is not sampled); a block the device judged too must get
  // the host's verdict.
  void JudgeBlock(int thread, const Batch& batch, size_t i, PipelineStats& mine) const;

  const TestProgram& program_;
  const BatchRunOptions& options_;
  const BatchSource& source_;
  const PipelineLaunch& launch_;
  const BlockJudge& judge_;
  Batch batches_[2];
  Round round_;
  Chunks chunks_;
  bool draining_ = false;  // time is up: no batch is launched any more
  absl::Status launch_status_;
  Clock::time_point start_ = Clock::now();
  PipelineStats stats_;
  // Each thread's stats on a cache line of its own.
  struct alignas(64) ThreadStats {
    PipelineStats stats;
  };
  std::vector<ThreadStats> per_thread_;
};

Pipeline::Pipeline(const TestProgram& program, const BatchRunOptions& options, const BatchSource& source,
                   const PipelineLaunch& launch, const BlockJudge& judge)
    : program_(program),
      options_(options),
      source_(source),
      launch_(launch),
      judge_(judge),
      per_thread_(options.threads) {
  for (int slot = 0; slot < 2; ++slot) {
    Batch& batch = batches_[slot];
    batch.slot = slot;
    batch.variants.resize(options.blocks);
    batch.judged.resize(options.blocks);
    batch.records.resize(static_cast<size_t>(options.blocks) * program.frame().record_bytes);
  }
}

bool Pipeline::Plan(std::uint64_t round) {
  if (!launch_status_.ok()) return false;
  if (HasElapsed(start_, options_.duration)) draining_ = true;
  Batch& current = batches_[round % 2];         // holds batch round - 2: judged, then made anew
  Batch& previous = batches_[(round + 1) % 2];  // holds batch round - 1: launched now
  round_ = Round{};
  if (round >= 1 && previous.used > 0 && !draining_) round_.launch = &previous;
  if (current.launched) {
    round_.judge = &current;
    round_.judge_blocks = current.used;
    current.launched = false;
  }
  current.used = draining_ ? 0 : std::min<size_t>(source_.BlocksIn(round), options_.blocks);
  current.number = round;
  if (current.used > 0) round_.fill = &current;
  chunks_.Reset(std::max(round_.judge_blocks, current.used));
  return round_.launch != nullptr || round_.judge != nullptr || round_.fill != nullptr;
}

void Pipeline::Launch(Batch& batch, bool timed) {
  const Clock::time_point launch_start = Clock::now();
  const size_t block_bytes = program_.frame().output_bytes;
  absl::StatusOr<absl::Span<const std::uint8_t>> output =
      launch_(batch.slot, absl::MakeConstSpan(batch.variants).first(batch.used),
              absl::MakeConstSpan(batch.records).first(batch.used * program_.frame().record_bytes));
  if (!output.ok()) {
    launch_status_ = output.status();
    return;
  }
  if (output->size() != LaunchOutputBytes(program_.frame(), batch.used)) {
    launch_status_ = absl::InternalError(absl::StrCat("the launch returned ", output->size(), " bytes of output for ",
                                                      batch.used, " blocks of ", block_bytes));
    return;
  }
  batch.output = *output;
  batch.launched_blocks = batch.used;
  batch.launched = timed;
  if (!timed) return;
  ++stats_.launches;
  stats_.launching += SecondsSince(launch_start);
}

void Pipeline::JudgeBlock(int thread, const Batch& batch, size_t i, PipelineStats& mine) const {
  const size_t block_bytes = program_.frame().output_bytes;
  ++mine.checked;
  std::optional<DeviceVerdict> device;
  if (program_.frame().judged_on_device) {
    std::uint32_t word = 0;
    std::memcpy(&word, batch.output.data() + batch.launched_blocks * block_bytes + 4 * i, 4);
    const VerdictWord read = ReadVerdictWord(word);
    device = read.verdict;
    if (device.has_value()) {
      if (read.sm >= mine.per_sm.size()) mine.per_sm.resize(read.sm + 1);
      ++mine.per_sm[read.sm].blocks;
      mine.per_sm[read.sm].disagreed += *device == DeviceVerdict::kDisagree;
    }
    if (device == DeviceVerdict::kAgree && !SampledBlock(i)) {
      ++mine.judged_on_device;
      return;
    }
  }
  const bool passed = judge_(thread, batch.variants[i], batch.output.subspan(i * block_bytes, block_bytes));
  mine.mismatched += !passed;
  if (device.has_value() && passed != (*device == DeviceVerdict::kAgree)) ++mine.judges_disagreed;
}

void Pipeline::Work(int thread) {
  PipelineStats& mine = per_thread_[thread].stats;
  const size_t record_bytes = program_.frame().record_bytes;
  // A chunk is judged, then refilled, by the thread that took it.
  chunks_.ForEach([&](size_t begin, size_t end) {
    const Clock::time_point judge_start = Clock::now();
    if (Batch* judged = round_.judge; judged != nullptr) {
      for (size_t i = begin; i < std::min(end, round_.judge_blocks); ++i) {
        if (judged->judged[i]) JudgeBlock(thread, *judged, i, mine);
      }
    }
    const Clock::time_point generate_start = Clock::now();
    mine.judging += std::chrono::duration<double>(generate_start - judge_start).count();
    if (Batch* made = round_.fill; made != nullptr) {
      for (size_t i = begin; i < std::min(end, made->used); ++i) {
        made->judged[i] = source_.Fill(thread, made->number, i, made->variants[i]) ? 1 : 0;
        program_.WriteRecord(made->variants[i], absl::MakeSpan(made->records).subspan(i * record_bytes, record_bytes));
      }
    }
    mine.generating += SecondsSince(generate_start);
  });
}

absl::StatusOr<PipelineStats> Pipeline::Run() {
  std::uint64_t round = 0;
  bool stop = !Plan(round);
  // Runs once a round, when every thread has arrived and before any goes on.
  std::barrier round_end(options_.threads + 1, [&]() noexcept { stop = !Plan(++round); });
  std::vector<std::thread> pool;
  pool.reserve(options_.threads);
  for (int thread = 0; thread < options_.threads; ++thread) {
    pool.emplace_back([&, thread] {
      while (!stop) {
        Work(thread);
        round_end.arrive_and_wait();
      }
    });
  }
  while (!stop) {
    if (Batch* batch = round_.launch; batch != nullptr) {
      if (batch->number == 0 && options_.warm_up) {
        Launch(*batch, /*timed=*/false);
        start_ = Clock::now();
      }
      if (launch_status_.ok()) Launch(*batch, /*timed=*/true);
    }
    round_end.arrive_and_wait();
  }
  for (std::thread& thread : pool) thread.join();
  if (!launch_status_.ok()) return launch_status_;
  stats_.seconds = SecondsSince(start_);
  for (const auto& [mine] : per_thread_) {
    stats_.checked += mine.checked;
    stats_.mismatched += mine.mismatched;
    stats_.judged_on_device += mine.judged_on_device;
    stats_.judges_disagreed += mine.judges_disagreed;
    if (mine.per_sm.size() > stats_.per_sm.size()) stats_.per_sm.resize(mine.per_sm.size());
    for (size_t sm = 0; sm < mine.per_sm.size(); ++sm) stats_.per_sm[sm].Add(mine.per_sm[sm]);
    stats_.judging += mine.judging / options_.threads;
    stats_.generating += mine.generating / options_.threads;
  }
  return stats_;
}

// SeededBatches are the throughput benchmark's batches: block i of batch k
// is variant i of seed + k, every block judged, for as long as the run
// lasts.
class SeededBatches : public BatchSource {
 public:
  SeededBatches(const TestProgram& program, const PipelineOptions& options) : program_(program), options_(options) {}

  size_t BlocksIn(std::uint64_t) const override { return options_.blocks; }
  bool Fill(int, std::uint64_t batch, size_t block, Variant& variant) const override {
    variant = program_.MakeVariant(options_.seed + batch, static_cast<int>(block), false);
    return true;
  }

 private:
  const TestProgram& program_;
  const PipelineOptions& options_;
};

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

absl::StatusOr<PipelineStats> RunBatches(const TestProgram& program, const BatchRunOptions& options,
                                         const BatchSource& source, const PipelineLaunch& launch,
                                         const BlockJudge& judge) {
  if (options.threads < 1 || options.blocks < 1) {
    return absl::InvalidArgumentError(absl::StrCat("a pipeline needs at least one thread and one block; asked for ",
                                                   options.blocks, " blocks and ", options.threads, " threads"));
  }
  Pipeline pipeline(program, options, source, launch, judge);
  absl::StatusOr<PipelineStats> stats = pipeline.Run();
  if (stats.ok() && stats->judges_disagreed > 0) {
    return absl::InternalError(
        absl::StrCat("the device judge and the model disagreed about ", stats->judges_disagreed, " of the ",
                     stats->checked - stats->judged_on_device,
                     " blocks both judged: the device's comparison is wrong, so no verdict of this run stands "
                     "(harness/kernels/device_judge.h)"));
  }
  return stats;
}

absl::StatusOr<PipelineStats> RunPipeline(const TestProgram& program, const PipelineOptions& options,
                                          const PipelineLaunch& launch) {
  const SeededBatches source(program, options);
  const BlockJudge judge = [&program](int, const Variant& variant, absl::Span<const std::uint8_t> output) {
    return JudgeOutput(program.Expect(variant), output).kind == CaseClass::kPass;
  };
  return RunBatches(
      program, {.blocks = options.blocks, .threads = options.threads, .duration = options.duration, .warm_up = true},
      source, launch, judge);
}

}  // namespace matload
