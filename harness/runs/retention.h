// Retention: which runs `matload prune` deletes from a results store, so
// that a store a nightly job writes to stops growing. A night's support
// sweep adds about 20 MB of cases; a year of them would be gigabytes.
//
// For each command, a store keeps its `keep` newest finished runs that are
// not shards: the runs COMMAND@latest-finished to
// COMMAND@latest-finished~(keep - 1) name, so that a nightly diff still
// finds the last night that finished. It also keeps every run of
// that command that started after the oldest of those (one still going, or
// interrupted and resumable), every run marked running, whatever its age
// (the caller marks one whose process is gone otherwise: `matload prune`
// calls it "killed"), and the shards of every merged run it keeps (matload merge gives a
// merged run its shards' parent name). A shard with no merged run in the
// store is kept too: its merge may not have run yet (or was made before
// merged runs named their parent, 2026-11-27). A command with no more than
// `keep` finished runs loses nothing.
#ifndef MATLOAD_HARNESS_RUNS_RETENTION_H_
#define MATLOAD_HARNESS_RUNS_RETENTION_H_

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// RunsToPrune is the IDs of `runs` (every run of one store, as
// ResultsStore::Runs lists them, oldest first) that the policy above no
// longer keeps, oldest first. `keep` is at least 1.
std::vector<std::string> RunsToPrune(absl::Span<const RunRecord> runs, size_t keep);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_RETENTION_H_
