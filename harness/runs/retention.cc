#include "harness/runs/retention.h"

#include <map>

#include "absl/container/flat_hash_map.h"
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
  absl::flat_hash_set<std::string> wholes;  // the runs that are not shards and are pruned
  for (const RunRecord& run : runs) {
    const auto cutoff = since.find(run.command);
    if (run.shard.empty() && cutoff != since.end() && run.started < cutoff->second && run.status != "running") {
      wholes.insert(run.id);
    }
  }
  // By parent name: whether every merged run of those shards is pruned.
  absl::flat_hash_map<std::string, bool> merges_pruned;
  for (const RunRecord& run : runs) {
    if (!run.shard.empty() || run.parent.empty()) continue;
    const auto [merge, first] = merges_pruned.try_emplace(run.parent, true);
    merge->second = merge->second && wholes.contains(run.id);
  }
  std::vector<std::string> pruned;
  for (const RunRecord& run : runs) {
    const auto merge = merges_pruned.find(run.parent);
    const bool shard_of_pruned =
        !run.shard.empty() && merge != merges_pruned.end() && merge->second && run.status != "running";
    if (wholes.contains(run.id) || shard_of_pruned) pruned.push_back(run.id);
  }
  return pruned;
}

}  // namespace matload
