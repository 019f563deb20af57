// WorkQueue: the items of one RunIsolated call (isolated_runner.h), handed
// out first come, first served to the workers that share them. A worker
// takes its next item only once it is free, so workers that start late or
// meet slow items take fewer, and all of them finish within about one
// item of each other, where items dealt up front left some workers with a
// queue while others were done. The parent takes each item for a worker
// (never the worker itself), so it always knows which item a worker that
// faults, hangs or dies was on.
#ifndef MATLOAD_HARNESS_GPU_WORK_QUEUE_H_
#define MATLOAD_HARNESS_GPU_WORK_QUEUE_H_

#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace matload {

class WorkQueue {
 public:
  // WorkQueue holds items [0, count), to be taken in order.
  explicit WorkQueue(int count) : count_(count) {}

  // Take hands out the next item no one has taken, or nullopt once every
  // item is taken or the queue was stopped. Safe from any thread.
  std::optional<int> Take();

  // Drained says whether Take would give nothing now: a worker need not be
  // started for it.
  bool Drained() const;

  // Stop hands out no more items, because of `why` (an interruption): the
  // items not taken are not run. The first reason given is kept.
  void Stop(const absl::Status& why);

  // stopped is why the queue was stopped, or OK if it was not.
  absl::Status stopped() const;

 private:
  const int count_;
  mutable absl::Mutex mutex_;
  int next_ ABSL_GUARDED_BY(mutex_) = 0;  // the first item not taken
  absl::Status stopped_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_WORK_QUEUE_H_
