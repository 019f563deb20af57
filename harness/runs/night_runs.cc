#include "harness/runs/night_runs.h"

#include "absl/container/flat_hash_set.h"

namespace matload {

std::vector<RunRecord> NightRuns(absl::Span<const RunRecord> runs) {
  absl::flat_hash_set<std::string> merged;  // the parents that a merged run stands for
  for (const RunRecord& run : runs) {
    if (run.shard.empty() && !run.parent.empty()) merged.insert(run.parent);
  }
  std::vector<RunRecord> nights;
  for (const RunRecord& run : runs) {
    if (run.shard.empty() || !merged.contains(run.parent)) nights.push_back(run);
  }
  return nights;
}

}  // namespace matload
