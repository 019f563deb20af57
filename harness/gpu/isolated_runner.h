// IsolatedRunner: run a list of GPU work items in forked worker processes,
// so that a fault, a hang or a crash costs one worker and one item, never
// the results already measured.
//
// A sticky CUDA error (a misaligned or illegal address) leaves the context
// unusable for the rest of the process. So the parent never touches CUDA:
// a worker initialises the driver itself and runs the items the parent
// hands it over its channel (a socket pair), one at a time, each taken
// from a queue (work_queue.h) only once the worker is free. It reports
// each result over the same channel as a typed record: the status code,
// its infrastructure mark (infrastructure.h) and the phase the worker was
// in. The phase lets the parent tell a kernel that hangs (the GPU's doing)
// from a compiler or driver call that hangs (the environment's), and a
// worker that dies in either. Since the parent chose each item, it knows
// which one a worker was on: when an item fails, times out or kills its
// worker, that item is recorded against the cause, and a fresh worker
// goes on taking items from the queue.
//
// Workers lead process groups of their own, die with the parent
// (PR_SET_PDEATHSIG), hold no file descriptor of the parent but their own
// channel (so no worker keeps another's open), and are killed, group and
// all, when they hang or the parent is interrupted (interrupt.h).
#ifndef MATLOAD_HARNESS_GPU_ISOLATED_RUNNER_H_
#define MATLOAD_HARNESS_GPU_ISOLATED_RUNNER_H_

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "harness/gpu/start_gate.h"
#include "harness/gpu/work_queue.h"

namespace matload {

// WorkerPhase is what a worker is doing on its item, as it last said.
enum class WorkerPhase : unsigned char {
  kStarting,       // initialising the driver, opening the device
  kCompiling,      // a compiler or the driver's JIT is at work
  kRunningKernel,  // a kernel was launched and has not finished
  kFinishing,      // copying results back, judging, reporting
};

// WorkerPhaseName spells a phase for messages: "starting", "compiling", ...
const char* WorkerPhaseName(WorkerPhase phase);

// MarkWorkerPhase tells the parent, from inside a worker's item, what the
// worker does next. Outside a worker it does nothing.
void MarkWorkerPhase(WorkerPhase phase);

// ItemResult is what became of one work item.
struct ItemResult {
  enum class Kind : unsigned char {
    kDone,      // the item returned a result
    kFailed,    // the item returned an error (a launch fault, say); its worker was retired
    kTimedOut,  // the item ran past the watchdog; its worker was killed
    kCrashed,   // the worker died on the item (a signal or an exit)
    kNotRun,    // SIGINT or SIGTERM came first (interrupt.h): the item was not run or not finished
  };
  Kind kind = Kind::kDone;
  std::string output;                          // the result of kDone; a description of what happened otherwise
  absl::Status error;                          // kFailed: the item's own status, code and infrastructure mark intact
  WorkerPhase phase = WorkerPhase::kStarting;  // the phase the item ended in
};

// ItemKindName spells a kind for reports: "done", "failed", "timed out",
// "crashed", "not run".
const char* ItemKindName(ItemResult::Kind kind);

// Watchdog decides how long a worker may stay in one phase. Outside a
// kernel the limit is fixed. A kernel's limit starts there too and, once a
// kernel has been seen to finish, becomes kKernelFactor times the longest
// kernel seen, but never under kKernelFloor: so a hung kernel costs seconds,
// not the whole limit, once the run has calibrated itself on real launches.
// Shared by the threads of one run.
class Watchdog {
 public:
  static constexpr std::chrono::milliseconds kKernelFloor{2000};
  static constexpr int kKernelFactor = 20;

  // A Watchdog with `calibrate` false keeps `limit` for kernels too.
  explicit Watchdog(std::chrono::milliseconds limit, bool calibrate = true) : limit_(limit), calibrate_(calibrate) {}

  // Limit is how long a worker may stay in `phase`.
  std::chrono::milliseconds Limit(WorkerPhase phase) const;
  // ObserveKernel records a kernel that finished after `elapsed`.
  void ObserveKernel(std::chrono::milliseconds elapsed);

 private:
  const std::chrono::milliseconds limit_;
  const bool calibrate_;
  mutable absl::Mutex mutex_;
  std::chrono::milliseconds longest_kernel_ ABSL_GUARDED_BY(mutex_){-1};
};

// ItemFinished hears of each item's result as soon as it is known, on the
// thread that called RunIsolated, so that a caller can judge and store
// items while later ones still run (a SIGKILL then loses only those).
using ItemFinished = std::function<void(int item, const ItemResult& result)>;

// ItemWork runs one item in a worker and returns its result.
using ItemWork = std::function<absl::StatusOr<std::string>(int item)>;

// RunIsolated runs work(i) for every i in [0, count) in worker processes and
// returns one result per item, in order; `finished`, when given, hears of
// each result that is not kNotRun as it comes. `work` runs only in workers,
// so it may initialise CUDA; the calling process must not have. `watchdog`
// sets each phase's time limit. It fails only if a worker cannot be started
// (kInternal). When SIGINT or SIGTERM arrives (interrupt.h), the worker is
// killed, the items finished so far keep their results, and the rest are
// kNotRun: the caller judges what finished, then stops. A worker is forked
// only once `gate` admits it (start_gate.h), and the watchdog's clock
// starts then. It is the queue form below, on a queue of its own that one
// worker at a time takes from.
absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const ItemWork& work, Watchdog& watchdog,
                                                    const ItemFinished& finished = {},
                                                    StartGate& gate = WorkerStartGate());

// RunIsolated with a fixed `timeout` for every phase of every item.
absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const ItemWork& work, std::chrono::milliseconds timeout);

// RunIsolated runs items taken from `queue` in worker processes, one worker
// at a time, until the queue is drained or stopped, telling `finished` of
// each result. Several calls, each on a thread of its own and with a
// `work` of its own (for a GPU of its own, say), may share one queue: each
// worker takes its next item only when it is free. A worker is forked only
// once `gate` admits it and an item is left for it. When SIGINT or SIGTERM
// arrives, the worker is killed and the queue stopped (WorkQueue::Stop):
// `finished` never hears of the item it was on, nor of those not taken.
// It fails only if a worker cannot be started (kInternal). Its first
// worker enters the gate with `first_start` (a wave's first worker on its
// GPU goes before the others); a fresh worker after one ended, with
// kAnother.
absl::Status RunIsolated(WorkQueue& queue, const ItemWork& work, Watchdog& watchdog, const ItemFinished& finished,
                         StartPriority first_start = StartPriority::kAnother, StartGate& gate = WorkerStartGate());

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_ISOLATED_RUNNER_H_
