// SweepProgressTo: how `matload support` and `matload history` show a
// support sweep's progress on their one progress line.
#ifndef MATLOAD_HARNESS_CLI_SWEEP_PROGRESS_H_
#define MATLOAD_HARNESS_CLI_SWEEP_PROGRESS_H_

#include "harness/cli/progress_reporter.h"
#include "harness/support/support_sweep.h"

namespace matload {

// SweepProgressTo passes a sweep's progress to `reporter`: the total counts
// the forms of the targets started so far and, until every target has,
// estimates the rest from their mean.
Progress SweepProgressTo(ProgressReporter& reporter);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_SWEEP_PROGRESS_H_
