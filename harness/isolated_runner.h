// IsolatedRunner: run a list of GPU work items in forked worker processes,
// so that a fault, a hang or a crash costs one worker and one item, never
// the results already measured.
//
// A sticky CUDA error (a misaligned or illegal address) leaves the context
// unusable for the rest of the process. So the parent never touches CUDA:
// a worker initialises the driver itself, runs items in order and reports
// each result through a pipe. When an item fails, times out or kills its
// worker, that item is recorded against the cause, and a fresh worker
// resumes at the next item.
#ifndef MATLOAD_HARNESS_ISOLATED_RUNNER_H_
#define MATLOAD_HARNESS_ISOLATED_RUNNER_H_

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// ItemResult is what became of one work item.
struct ItemResult {
  enum class Kind : unsigned char {
    kDone,      // the item returned a result
    kFailed,    // the item returned an error (a launch fault, say); its worker was retired
    kTimedOut,  // the item ran past the timeout; its worker was killed
    kCrashed,   // the worker died on the item (a signal or an exit)
  };
  Kind kind = Kind::kDone;
  std::string output;  // the result of kDone; the error or the cause otherwise
};

// ItemKindName spells a kind for reports: "done", "failed", "timed out", "crashed".
const char* ItemKindName(ItemResult::Kind kind);

// RunIsolated runs work(i) for every i in [0, count) in worker processes and
// returns one result per item, in order. `work` runs only in workers, so it
// may initialise CUDA; the calling process must not have. Each item gets
// `timeout`. It fails only if a worker cannot be started.
absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const std::function<absl::StatusOr<std::string>(int)>& work,
                                                    std::chrono::milliseconds timeout);

}  // namespace matload

#endif  // MATLOAD_HARNESS_ISOLATED_RUNNER_H_
