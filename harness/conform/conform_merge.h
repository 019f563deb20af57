// ConformMerge: the conform half of `matload merge` (harness/cli/merge_command.h).
//
// Each shard of a conform run numbers its bundles on its own, so two shards
// can both hold a "001-ldmatrix-mismatch" with different divergences in it,
// and one divergence can have a bundle in each. Merging therefore files
// every bundle signature once, under a number of the merged run's, points
// every case at it, and adds up the shards' totals (harness/conform/conform_report.h)
// into the summary one run over every case would have written.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_MERGE_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_MERGE_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/conform/conformance_run.h"
#include "harness/runs/case_record.h"
#include "harness/runs/shard_merge.h"
#include "nlohmann/json.hpp"

namespace matload {

// BundleCopy is one shard's bundle directory and where the merged run keeps it.
struct BundleCopy {
  std::filesystem::path from;
  std::filesystem::path to;
};

// MergedConform is what the merged run records beyond its cases.
struct MergedConform {
  ConformanceResult totals;  // every shard's counts, added up
  nlohmann::json bundles;    // the bundle index (BundleWriter::State) of the merged run
  std::vector<BundleCopy> copies;
};

// MergeConformShards adds up `shards`' totals and refiles their bundles
// under `directory`/bundles, in shard order, one per signature. It rewrites
// the bundle of each of `cases` (the shards' cases, joined) to match. A
// shard whose recorded totals or bundle index do not read back, or whose
// case names a bundle its index lacks, is kDataLoss.
absl::StatusOr<MergedConform> MergeConformShards(const std::vector<ShardRun>& shards,
                                                 const std::filesystem::path& directory,
                                                 std::vector<CaseRecord>& cases);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_MERGE_H_
