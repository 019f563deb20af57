// WorkerWaves: how a conformance run schedules its work items on its GPUs.
// Each item (CaseWork, conform_case_work.h) runs in a worker process
// (harness/gpu/isolated_runner.h), so that a fault or a hang ends that
// worker, never the run. Items run in waves. A wave's items are a queue
// (harness/gpu/work_queue.h) that `slots` workers at once take from, each
// its next item only once it is free, each slot a series of workers on
// the GPU it names: so workers that start late (starts are serialised
// host-wide, start_gate.h) or meet costly items take fewer, and the GPUs
// finish a wave within about one item of each other. The items of a wave
// are judged in their order as they finish
// (in_order_judging.h), and the run commits what they made final after
// each one, so that a SIGKILL loses only the items in flight. An item that
// an infrastructure failure kept from being judged (a busy or briefly lost
// GPU, a crashed worker) is tried again in a fresh worker on the GPU it
// failed on, one at a time, up to kInfrastructureAttempts times; then the
// run stops with its cause and that GPU. Tried on another GPU, the items
// of a GPU lost after its probe were judged elsewhere, and a run asked to
// check every GPU ended clean without checking that one.
//
// This is the scheduling of conformance_run.cc's Run, which decides what
// the items are and what their verdicts mean.
#ifndef MATLOAD_HARNESS_CONFORM_WORKER_WAVES_H_
#define MATLOAD_HARNESS_CONFORM_WORKER_WAVES_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/conform/conform_case_work.h"
#include "harness/conform/conformance_run.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/gpu/work_queue.h"

namespace matload {

// kInfrastructureAttempts is how often an item that could not be judged
// (an infrastructure failure) is tried, each time in a fresh worker, before
// the run stops with that failure.
inline constexpr int kInfrastructureAttempts = 3;

// kMostItemsPerWorker bounds a wave: at most this many items a slot. Its
// workers take items from the wave's queue until it is drained, each
// setting up its CUDA context and JIT once for all the items it takes.
inline constexpr size_t kMostItemsPerWorker = 128;

// kSingleSlotsPerSlot widens the waves of items of one variant each.
inline constexpr size_t kSingleSlotsPerSlot = 4;

class WorkerWaves {
 public:
  // Judgement judges item `index` of those given to Run, which ran (or
  // faulted or hung) on GPU `device`; it is never told of an
  // infrastructure failure.
  using Judgement =
      std::function<absl::Status(size_t index, const ItemResult& ran, const LaunchOutcome& outcome, int device)>;
  // WorkContext is what a worker on GPU `device` runs `work` with.
  using WorkContext = std::function<CaseWorkContext(const CaseWork& work, int device)>;
  // Commit hands the run's recorder what the judgements made final.
  using Commit = std::function<absl::Status()>;

  // WorkerWaves runs items on the GPUs `devices`, `slots` workers at once
  // (at least one a GPU), timing their kernels with `watchdog`, telling
  // `progress` of each wave, and counting its retries, their causes and
  // each Run's time into `result`.
  WorkerWaves(std::vector<int> devices, size_t slots, Watchdog& watchdog, const ConformanceProgress& progress,
              ConformanceResult& result);

  // slots is how many workers run at once.
  size_t slots() const { return slots_; }

  // Run runs `works` (named `what` in progress and the run's phases), each
  // with `context`, and judges each with `judge` in their order, calling
  // `commit` after each judgement and each wave. It stops at the first
  // error of either, at an interruption once its wave is judged
  // (InterruptedError), and at an item that still cannot be judged after
  // kInfrastructureAttempts.
  absl::Status Run(const std::vector<const CaseWork*>& works, const WorkContext& context, const Judgement& judge,
                   const Commit& commit, const std::string& what);

 private:
  // SlotsFor is how many workers run `works` at once: slots(), or, for
  // items of one variant each (confirmations and faults being pinned,
  // which mostly cost a worker's start and its end), kSingleSlotsPerSlot
  // times as many.
  size_t SlotsFor(const std::vector<const CaseWork*>& works) const;
  // Unjudged is an item an infrastructure failure kept from being judged:
  // its index, the GPU it failed on and why.
  struct Unjudged {
    size_t index = 0;
    int device = 0;
    LaunchOutcome failure;
  };
  // RunWaves runs the items `pending` names, once each, in waves of up to
  // kMostItemsPerWorker items a slot, which `slots` workers at once take
  // from the wave's queue, the slots dealt over the GPUs `devices`. Items
  // that could not be judged go to `unjudged`.
  absl::Status RunWaves(const std::vector<const CaseWork*>& works, const std::vector<size_t>& pending,
                        const std::vector<int>& devices, const WorkContext& context, const Judgement& judge,
                        const Commit& commit, size_t slots, const std::string& what, std::vector<Unjudged>& unjudged);
  // RetryOnTheirGpus runs each item of `failed` again, one at a time, on
  // the GPU it failed on; what still cannot be judged goes to `unjudged`.
  absl::Status RetryOnTheirGpus(const std::vector<const CaseWork*>& works, const std::vector<Unjudged>& failed,
                                const WorkContext& context, const Judgement& judge, const Commit& commit,
                                const std::string& what, std::vector<Unjudged>& unjudged);
  // RunSlot runs items of `wave` taken from `queue` in worker processes on
  // GPU `device`, one worker at a time, telling `finished` of each result
  // as it comes. Its first worker starts with `priority`: a wave's first
  // slot on each GPU goes before the others (StartPriority).
  absl::Status RunSlot(WorkQueue& queue, const std::vector<const CaseWork*>& wave, int device, StartPriority priority,
                       const WorkContext& context, const ItemFinished& finished);
  // NoteRetryCause keeps why a launch must be tried again, once a cause.
  void NoteRetryCause(const LaunchOutcome& failure);

  std::vector<int> devices_;
  size_t slots_;
  Watchdog& watchdog_;
  const ConformanceProgress& progress_;
  ConformanceResult& result_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_WORKER_WAVES_H_
