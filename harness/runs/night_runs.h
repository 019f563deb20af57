// NightRuns: the runs of a store that each stand for one night's result,
// for every view across nights (a case's history, the runs index's trends).
// A sharded night is stored as its shards and, once `matload merge` joined
// them, as the merged run as well; counting both would count it twice.
#ifndef MATLOAD_HARNESS_RUNS_NIGHT_RUNS_H_
#define MATLOAD_HARNESS_RUNS_NIGHT_RUNS_H_

#include <vector>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// NightRuns are `runs`, in their order, less each shard whose merged run
// (a run that is no shard, with the shard's parent) is among them: a
// shard stands for its night until its shards are merged, then the merged
// run does.
std::vector<RunRecord> NightRuns(absl::Span<const RunRecord> runs);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_NIGHT_RUNS_H_
