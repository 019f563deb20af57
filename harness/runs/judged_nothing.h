// JudgedNothing: a run that judged no case is never green. A nightly job
// whose case filter has a typo, or names cases in another command's shape
// (a support case ID given to conform: docs/case-ids.md), would otherwise
// end clean, exit 0, having tested nothing. Every command that runs cases
// (support, conform, soak, fuzz) and matload merge ends such a run with this
// error (exit status 2, harness/platform/exit_status.h) instead of a
// verdict. A shard may take no case of its own: the caller asks only of a
// whole run, and of the run a merge joins from shards.
#ifndef MATLOAD_HARNESS_RUNS_JUDGED_NOTHING_H_
#define MATLOAD_HARNESS_RUNS_JUDGED_NOTHING_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// JudgedNothing is the error of a run of `command` ("support", "conform",
// "fuzz") that recorded no case. When `filtered` (its case filters, or
// its shards, leave cases out) it is kInvalidArgument saying that they
// take no case, with the flags and the shape of the case IDs of support
// and conform; otherwise kFailedPrecondition saying that the run judged
// nothing.
absl::Status JudgedNothing(absl::string_view command, bool filtered);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_JUDGED_NOTHING_H_
