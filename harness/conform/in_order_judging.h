// InOrderJudging: the results of a wave's items arrive from several worker
// threads in any order, and are judged one at a time in item order, as
// soon as each item's turn has come. So a run judges (and can store) what
// has finished while the rest still runs, and the judgement never depends
// on which worker finished first.
#ifndef MATLOAD_HARNESS_CONFORM_IN_ORDER_JUDGING_H_
#define MATLOAD_HARNESS_CONFORM_IN_ORDER_JUDGING_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "harness/gpu/isolated_runner.h"

namespace matload {

class InOrderJudging {
 public:
  // Judge judges item `index`; an error stops all judging after it.
  using Judge = std::function<absl::Status(size_t index, const ItemResult& result)>;

  // InOrderJudging judges items [0, count) with `judge`.
  InOrderJudging(size_t count, Judge judge);

  // Arrive takes item `index`'s result, from any thread, and judges every
  // item whose turn has come.
  void Arrive(size_t index, const ItemResult& result);

  // Finish judges, in order, the items that arrived behind one that never
  // will (an interrupted worker's), and returns the first error of any
  // judgement.
  absl::Status Finish();

 private:
  // JudgeReady judges from the cursor while the next item has arrived.
  void JudgeReady() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const Judge judge_;
  absl::Mutex mutex_;
  std::vector<std::optional<ItemResult>> arrived_ ABSL_GUARDED_BY(mutex_);
  size_t next_ ABSL_GUARDED_BY(mutex_) = 0;  // the first item not yet judged
  absl::Status status_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_IN_ORDER_JUDGING_H_
