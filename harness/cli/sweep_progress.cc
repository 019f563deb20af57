#include "harness/cli/sweep_progress.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace matload {

Progress SweepProgressTo(ProgressReporter& reporter) {
  return [&reporter](const SweepProgress& now) {
    const bool estimated = now.targets_started < now.targets;
    reporter.SetTotal(
        estimated ? now.forms_counted * now.targets / std::max<size_t>(now.targets_started, 1) : now.forms_counted,
        estimated);
    reporter.Update(now.forms_done,
                    absl::StrCat(now.target, ", ", now.targets_started, " of ", now.targets, " targets begun"));
  };
}

}  // namespace matload
