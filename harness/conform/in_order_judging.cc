#include "harness/conform/in_order_judging.h"

#include <utility>

namespace matload {

InOrderJudging::InOrderJudging(size_t count, Judge judge) : judge_(std::move(judge)), arrived_(count) {}

void InOrderJudging::Arrive(size_t index, const ItemResult& result) {
  absl::MutexLock lock(&mutex_);
  arrived_[index] = result;
  JudgeReady();
}

absl::Status InOrderJudging::Finish() {
  absl::MutexLock lock(&mutex_);
  while (next_ < arrived_.size() && status_.ok()) {
    if (!arrived_[next_].has_value()) ++next_;  // it never ran: nothing to judge
    JudgeReady();
  }
  return status_;
}

void InOrderJudging::JudgeReady() {
  while (status_.ok() && next_ < arrived_.size() && arrived_[next_].has_value()) {
    status_ = judge_(next_, *arrived_[next_]);
    arrived_[next_].reset();  // judged: the output is no longer needed
    ++next_;
  }
}

}  // namespace matload
