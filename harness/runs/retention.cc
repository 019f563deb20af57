#include "harness/runs/retention.h"

#include <map>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "harness/runs/run_journal.h"

namespace matload {
namespace {

// KeptSince is, for each command with more than `keep` finished runs that
// are not shards, the start of the oldest one of them that is kept.
std::map<std::string, absl::Time> KeptSince(absl::Span<const RunRecord> runs, size_t keep) {
  std::map<std::string, std::vector<absl::Time>> finished;
  for (const RunRecord& run : runs) {
    if (Finished(run) && run.shard.empty()) finished[run.command].push_back(run.started);
  }
  std::map<std::string, absl::Time> since;
  for (const auto& [command, starts] : finished) {
    if (starts.size() > keep) since[command] = starts[starts.size() - keep];
  }
  return since;
}

}  // namespace

std::vector<std::string> RunsToPrune(absl::Span<const RunRecord> runs, size_t keep) {
  const std::map<std::string, absl::Time> since = KeptSince(runs, keep);
  // The runs that are not shards and are pruned; a shard goes with its
  // merged run, so one whose merged run is not in the store stays.
  absl::flat_hash_set<std::string> wholes;
  for (const RunRecord& run : runs) {
    const auto cutoff = since.find(run.command);
    if (run.shard.empty() && cutoff != since.end() && run.started < cutoff->second && run.status != "running") {
      wholes.insert(run.id);
    }
  }
  std::vector<std::string> pruned;
  for (const RunRecord& run : runs) {
    const bool shard_of_pruned = !run.shard.empty() && wholes.contains(run.parent) && run.status != "running";
    if (wholes.contains(run.id) || shard_of_pruned) pruned.push_back(run.id);
  }
  return pruned;
}

}  // namespace matload
