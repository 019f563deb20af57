#include "harness/triage/regression_range.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// Bisection probes each release at most once and remembers what it said.
class Bisection {
 public:
  Bisection(const std::vector<std::string>& names, const std::function<absl::StatusOr<ProbeResult>(int)>& probe)
      : names_(names), probe_(probe) {}

  // State probes release `index`, once.
  absl::StatusOr<ReleaseState> State(int index) {
    if (const auto known = states_.find(index); known != states_.end()) return known->second;
    absl::StatusOr<ProbeResult> result = probe_(index);
    if (!result.ok()) return result.status();
    range_.probed.push_back({.index = index, .state = result->state, .detail = result->detail});
    states_[index] = result->state;
    return result->state;
  }

  // NewestBuilt is the newest release in [from, to] that builds the case,
  // searched from `to` down, or -1.
  absl::StatusOr<int> NewestBuilt(int from, int to) {
    for (int index = to; index >= from; --index) {
      absl::StatusOr<ReleaseState> state = State(index);
      if (!state.ok()) return state.status();
      if (*state != ReleaseState::kNotBuilt) return index;
    }
    return -1;
  }

  // Between is a release strictly between lo and hi not yet found
  // unbuildable, the nearest the middle first, or -1.
  int Between(int lo, int hi) const {
    int best = -1;
    for (int index = lo + 1; index < hi; ++index) {
      const auto known = states_.find(index);
      if (known != states_.end() && known->second == ReleaseState::kNotBuilt) continue;
      if (best < 0 || std::abs(2 * index - lo - hi) < std::abs(2 * best - lo - hi)) best = index;
    }
    return best;
  }

  RegressionRange& range() { return range_; }
  const std::string& Name(int index) const { return names_[index]; }

 private:
  const std::vector<std::string>& names_;
  const std::function<absl::StatusOr<ProbeResult>(int)>& probe_;
  std::map<int, ReleaseState> states_;
  RegressionRange range_;
};

// Transition bisects between lo and hi, whose states differ, and says what it found.
absl::Status Transition(Bisection& bisection, int lo, int hi, ReleaseState lo_state) {
  for (int index = bisection.Between(lo, hi); index >= 0; index = bisection.Between(lo, hi)) {
    absl::StatusOr<ReleaseState> state = bisection.State(index);
    if (!state.ok()) return state.status();
    if (*state == ReleaseState::kNotBuilt) continue;
    if (*state == ReleaseState::kFlaky) {
      bisection.range().verdict =
          absl::StrCat("flaky on ", bisection.Name(index), ": its runs disagree, so the range stops between ",
                       bisection.Name(lo), " and ", bisection.Name(hi));
      return absl::OkStatus();
    }
    (*state == lo_state ? lo : hi) = index;
  }
  RegressionRange& range = bisection.range();
  range.before = lo;
  range.after = hi;
  range.regression = lo_state == ReleaseState::kPasses;
  range.verdict = range.regression ? absl::StrCat("regressed between ", bisection.Name(lo), " (last good) and ",
                                                  bisection.Name(hi), " (first bad)")
                                   : absl::StrCat("fixed between ", bisection.Name(lo), " (last bad) and ",
                                                  bisection.Name(hi), " (first good)");
  if (hi - lo > 1) absl::StrAppend(&range.verdict, "; the releases between them cannot build the case");
  return absl::OkStatus();
}

}  // namespace

const char* ReleaseStateName(ReleaseState state) {
  switch (state) {
    case ReleaseState::kPasses: return "passes";
    case ReleaseState::kFails: return "fails";
    case ReleaseState::kFlaky: return "flaky";
    case ReleaseState::kNotBuilt: return "not built";
  }
  return "?";
}

absl::StatusOr<RegressionRange> FindRegressionRange(const std::vector<std::string>& names,
                                                    const std::function<absl::StatusOr<ProbeResult>(int)>& probe) {
  Bisection bisection(names, probe);
  const int last = static_cast<int>(names.size()) - 1;
  // The endpoints first: the newest and the oldest release that build it.
  absl::StatusOr<int> hi = bisection.NewestBuilt(0, last);
  if (!hi.ok()) return hi.status();
  if (*hi < 0) {
    bisection.range().verdict = "no release could build the case";
    return bisection.range();
  }
  int lo = *hi;
  for (int index = 0; index < *hi; ++index) {
    absl::StatusOr<ReleaseState> state = bisection.State(index);
    if (!state.ok()) return state.status();
    if (*state != ReleaseState::kNotBuilt) {
      lo = index;
      break;
    }
  }
  const ReleaseState lo_state = *bisection.State(lo);
  const ReleaseState hi_state = *bisection.State(*hi);
  RegressionRange& range = bisection.range();
  if (lo_state == ReleaseState::kFlaky || hi_state == ReleaseState::kFlaky) {
    const int flaky = lo_state == ReleaseState::kFlaky ? lo : *hi;
    range.verdict = absl::StrCat("flaky on ", names[flaky], ", an endpoint: no range can be trusted");
  } else if (lo_state == hi_state) {
    range.verdict = absl::StrCat(ReleaseStateName(lo_state), " on both ends, ", names[lo], " and ", names[*hi],
                                 lo == *hi ? " (the only release that builds it)" : "",
                                 ": no transition to bisect among the releases given");
  } else if (absl::Status found = Transition(bisection, lo, *hi, lo_state); !found.ok()) {
    return found;
  }
  return range;
}

}  // namespace matload
