// StartGate: how many worker processes may be starting at once. A worker's
// start (the driver's initialisation and its GPU's context) is serialised
// by the host's driver, about 0.25 s each however many GPUs the host has
// (reports/bench/worker-starts-h100x2-2026-11-26/): starting more at once
// gains nothing and makes the last of them wait inside the driver, on the
// watchdog's clock. On four H200s, 72 confirmations started at once saw 25
// of their workers killed after 30 s "while starting", an infrastructure
// failure that the run then retried
// (reports/bench/multi-gpu-sweep-h200x4-2026-11-29/). So RunIsolated
// (isolated_runner.h) forks a worker only once the gate admits it, and the
// worker holds its place until it says it has started: its first phase
// other than kStarting, its first result, or its end.
#ifndef MATLOAD_HARNESS_GPU_START_GATE_H_
#define MATLOAD_HARNESS_GPU_START_GATE_H_

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace matload {

// StartPriority says which worker starts the gate admits first. With
// several starting at once, each waits 0.8 to 1.9 s from its fork to its
// context, the driver taking them in turn
// (reports/bench/worker-time-h200x2-2026-11-29/), so a GPU whose first
// worker is left for the gate's next places stays idle for seconds while
// the other GPUs work: each GPU's first worker is admitted before any
// other waiting.
enum class StartPriority {
  kFirstOnItsGpu,  // a wave's first worker on its GPU
  kAnother,        // any other worker
};

// kMostWorkerStartsAtOnce is the process's gate: 8 starts at once take
// 0.25 s each, as many as one at a time do, where a start alone takes
// 0.6 s (worker_starts.txt in the report above), so 8 keep the driver busy
// and the last of them waits about 2 s.
inline constexpr int kMostWorkerStartsAtOnce = 8;

class StartGate {
 public:
  // Place is a worker's place in the gate, given back when it is
  // destroyed or Leave() is called, whichever comes first.
  class Place {
   public:
    Place() = default;
    Place(Place&& other) noexcept : gate_(std::exchange(other.gate_, nullptr)) {}
    Place& operator=(Place&& other) noexcept;
    ~Place() { Leave(); }

    // Leave gives the place back: the worker has started.
    void Leave();

   private:
    friend class StartGate;
    explicit Place(StartGate* gate) : gate_(gate) {}
    StartGate* gate_ = nullptr;
  };

  // StartGate admits at most `most_at_once` workers at a time.
  explicit StartGate(int most_at_once) : most_at_once_(most_at_once) {}

  // Enter waits until fewer than most_at_once workers are starting and,
  // for kAnother, no kFirstOnItsGpu start is waiting, and takes a place;
  // or it returns InterruptedError (interrupt.h) when SIGINT or SIGTERM
  // comes first.
  absl::StatusOr<Place> Enter(StartPriority priority = StartPriority::kAnother);

  // starting is how many places are taken now.
  int starting() const;

 private:
  // HasRoom says whether a kFirstOnItsGpu worker may start now, and
  // HasRoomForAnother whether a kAnother one may.
  bool HasRoom() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { return starting_ < most_at_once_; }
  bool HasRoomForAnother() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) { return HasRoom() && firsts_waiting_ == 0; }

  const int most_at_once_;
  mutable absl::Mutex mutex_;
  int starting_ ABSL_GUARDED_BY(mutex_) = 0;
  int firsts_waiting_ ABSL_GUARDED_BY(mutex_) = 0;  // kFirstOnItsGpu starts not yet admitted
};

// WorkerStartGate is the gate every RunIsolated of the process shares:
// kMostWorkerStartsAtOnce. It is the parent's alone: a forked worker
// inherits a copy that still counts the places taken at the fork, its own
// among them, and never gives them back. A worker runs no RunIsolated of
// its own anyway, since it initialises CUDA and RunIsolated's caller must
// not have (isolated_runner.h).
StartGate& WorkerStartGate();

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_START_GATE_H_
