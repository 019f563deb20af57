#include "harness/gpu/work_queue.h"

namespace matload {

std::optional<int> WorkQueue::Take() {
  absl::MutexLock lock(&mutex_);
  if (!stopped_.ok() || next_ >= count_) return std::nullopt;
  return next_++;
}

bool WorkQueue::Drained() const {
  absl::MutexLock lock(&mutex_);
  return !stopped_.ok() || next_ >= count_;
}

void WorkQueue::Stop(const absl::Status& why) {
  absl::MutexLock lock(&mutex_);
  if (stopped_.ok()) stopped_ = why;
}

absl::Status WorkQueue::stopped() const {
  absl::MutexLock lock(&mutex_);
  return stopped_;
}

}  // namespace matload
