// ShardMerge: the runs of a sharded run (shard.h), read back from one or
// more results stores and joined into what the whole run would have
// recorded (`matload merge`): every case once, each shard's artifacts, the
// options of the whole run, and the exit status that one process judging
// every case would have ended with.
//
// Joining is refused (kInvalidArgument or kFailedPrecondition: exit status
// 2, nothing written) unless the runs are every shard of one parent
// exactly once, each finished (clean or with findings), all made by one
// command with one set of options, by one matload build, with one toolchain
// on one kind of GPU; and no case is in two shards. Each refusal names the
// runs and says what to do.
#ifndef MATLOAD_HARNESS_RUNS_SHARD_MERGE_H_
#define MATLOAD_HARNESS_RUNS_SHARD_MERGE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/runs/case_record.h"

namespace matload {

// ShardRun is one shard's run as its store holds it.
struct ShardRun {
  RunRecord run;
  std::vector<CaseRecord> cases;
  std::map<std::string, std::string> artifacts;  // by key
  std::string store;                             // the results store it was read from, for messages
};

// ReadShardRuns reads from the results stores at `stores` (opened read-only,
// each path once) the runs `references` name: each a run ID, or the ID of
// a parent, which names every run recorded as its shard. A reference that
// names nothing in any store is kNotFound; a run ID that two stores hold is
// kInvalidArgument (name each store once).
absl::StatusOr<std::vector<ShardRun>> ReadShardRuns(const std::vector<std::string>& stores,
                                                    const std::vector<std::string>& references);

// MergedRun is what the whole run would have recorded.
struct MergedRun {
  std::string parent;
  // run: the fields the shards share (command, options, matload version
  // and commit, toolkits, driver, GPU), with every shard's GPU UUID and
  // host; it has no ID, directory, times or status yet.
  RunRecord run;
  std::vector<CaseRecord> cases;                 // every shard's, in case ID order
  std::map<std::string, std::string> artifacts;  // keys one shard holds, or all with one text
  // dropped_artifacts: keys that shards hold with different texts: each
  // shard's own progress (what a resume of that shard would take back),
  // which has no meaning for the merged run.
  std::vector<std::string> dropped_artifacts;
  int exit_status = 0;  // 1 if any shard ended with findings, else 0
};

// MergeShardRuns joins `shards` (see the banner for what it refuses).
absl::StatusOr<MergedRun> MergeShardRuns(const std::vector<ShardRun>& shards);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SHARD_MERGE_H_
