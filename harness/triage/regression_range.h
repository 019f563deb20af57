// RegressionRange: the last good and the first bad toolkit of a failure,
// found by bisection over toolkit releases in release order, as LLVM's
// bisect tools find a culprit commit: the endpoints are checked first (the
// one end must pass and the other fail), and each step is run several
// times, so that one flaky run cannot move the range. A release that cannot
// build the case is stepped over, and said.
//
// The search is pure: the caller's probe builds and runs the case with one
// release, so the logic is tested on the CPU and runs unchanged on a GPU.
#ifndef MATLOAD_HARNESS_TRIAGE_REGRESSION_RANGE_H_
#define MATLOAD_HARNESS_TRIAGE_REGRESSION_RANGE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// ReleaseState is what one release's repeated runs of the case did.
enum class ReleaseState : unsigned char {
  kPasses,    // every run passed
  kFails,     // every run failed, the same way
  kFlaky,     // the runs disagreed
  kNotBuilt,  // this release cannot build the case (a PTX version it does not speak, say)
};

// ReleaseStateName spells a state: "passes", "fails", "flaky", "not built".
const char* ReleaseStateName(ReleaseState state);

// ReleaseProbe is one probed release.
struct ReleaseProbe {
  int index = 0;  // in the caller's release order
  ReleaseState state = ReleaseState::kNotBuilt;
  std::string detail;  // how it failed, or why it was not built
};

// ProbeResult is what a probe says of one release.
struct ProbeResult {
  ReleaseState state = ReleaseState::kNotBuilt;
  std::string detail;
};

// RegressionRange is what the bisection found.
struct RegressionRange {
  std::vector<ReleaseProbe> probed;  // in the order probed
  // The transition: `before` is the newest release in the older state and
  // `after` the oldest in the newer one (last good and first bad for a
  // regression; last bad and first good for a fix). Empty when there is none.
  std::optional<int> before;
  std::optional<int> after;
  bool regression = false;  // the older state passes and the newer fails
  std::string verdict;      // one sentence, naming releases by the caller's names
};

// FindRegressionRange bisects releases 0..names.size()-1 (oldest first).
// `probe` runs the case on one release; its error (an infrastructure
// failure, an interrupt) ends the search with that error.
absl::StatusOr<RegressionRange> FindRegressionRange(const std::vector<std::string>& names,
                                                    const std::function<absl::StatusOr<ProbeResult>(int)>& probe);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_REGRESSION_RANGE_H_
