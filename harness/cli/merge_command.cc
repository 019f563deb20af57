#include "harness/cli/merge_command.h"

#include <filesystem>
#include <map>
#include <memory>
#include <system_error>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "harness/cli/conform_command.h"
#include "harness/cli/flags.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/support_reports.h"
#include "harness/conform/bundle_writer.h"
#include "harness/conform/conform_merge.h"
#include "harness/conform/conform_recorder.h"
#include "harness/conform/conform_report.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/judged_nothing.h"
#include "harness/runs/registry_in_force.h"
#include "harness/runs/results_store.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/shard_merge.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

namespace fs = std::filesystem;

// kProvenanceKey is the artifact a merged run keeps its shards under.
constexpr char kProvenanceKey[] = "merge/shards";

// Provenance names each shard's run, its store, host and directory.
std::string Provenance(const std::vector<ShardRun>& shards) {
  nlohmann::json json = nlohmann::json::array();
  for (const ShardRun& shard : shards) {
    json.push_back({{"run", shard.run.id},
                    {"shard", shard.run.shard},
                    {"store", shard.store},
                    {"host", shard.run.host},
                    {"directory", shard.run.directory}});
  }
  return json.dump();
}

// CopyDirectory copies a shard's directory `from` to `to`, which the
// shard's run directory must be readable from here for.
absl::Status CopyDirectory(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::exists(from, error)) {
    return absl::FailedPreconditionError(absl::StrCat(from.string(), " is not there: merge where the shards' run ",
                                                      "directories can be read (a shared file system)"));
  }
  if (absl::Status made = CreateDirectories(to.parent_path()); !made.ok()) return made;
  fs::copy(from, to, fs::copy_options::recursive, error);
  if (error) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

// CopyBundle copies `bundle` (relative to its run directory) from `shard`'s
// run directory into `directory`, unless a shard before it gave one of
// that name (support and fuzz name their bundles by what they hold).
absl::Status CopyBundle(const ShardRun& shard, const std::string& bundle, const fs::path& directory) {
  std::error_code error;
  if (fs::exists(directory / bundle, error)) return absl::OkStatus();
  return CopyDirectory(fs::path(RunDirectory(shard.run)) / bundle, directory / bundle);
}

// CopyBundles copies every case's bundle into the merged run's directory,
// where its record says it is.
absl::Status CopyBundles(const std::vector<ShardRun>& shards, const fs::path& directory) {
  for (const ShardRun& shard : shards) {
    for (const CaseRecord& record : shard.cases) {
      if (record.bundle.empty()) continue;
      if (absl::Status copied = CopyBundle(shard, record.bundle, directory); !copied.ok()) return copied;
    }
  }
  return absl::OkStatus();
}

// ShardSeconds is how long the shards ran, together.
double ShardSeconds(const std::vector<ShardRun>& shards) {
  double seconds = 0;
  for (const ShardRun& shard : shards) seconds += absl::ToDoubleSeconds(shard.run.ended - shard.run.started);
  return seconds;
}

// MergeConform records the merged conform run's cases with its totals and
// bundle index, refiles the shards' bundles into its directory, and writes
// the reports an unsharded run writes: summary.md, summary.json,
// results.tsv and bundles/index.tsv.
absl::Status MergeConform(MergedRun merged, const std::vector<ShardRun>& shards, RunJournal& journal,
                          std::map<std::string, std::string> artifacts, std::ostream& out) {
  const fs::path directory = journal.directory();
  absl::StatusOr<MergedConform> conform = MergeConformShards(shards, directory, merged.cases);
  if (!conform.ok()) return conform.status();
  absl::StatusOr<ConformanceOptions> options = ParseConformOptionsJson(merged.run.options);
  if (!options.ok()) return options.status();
  options->run_directory = directory.string();
  conform->totals.identity = absl::StrCat(merged.run.gpu_name, ", ", merged.run.gpu_uuid, ", ", merged.run.driver);
  // Each shard's GPU 0 is another GPU, on its own host: the SMs that judged
  // are on the shards' pages and summaries, never summed here.
  conform->totals.per_sm.clear();
  artifacts[std::string(ConformRecorder::kTotalsKey)] = TotalsJson(conform->totals).dump();
  artifacts[std::string(ConformRecorder::kBundlesKey)] = conform->bundles.dump();
  if (absl::Status recorded = journal.Record(merged.cases, artifacts); !recorded.ok()) return recorded;
  for (const BundleCopy& copy : conform->copies) {
    if (absl::Status copied = CopyDirectory(copy.from, copy.to); !copied.ok()) return copied;
  }
  BundleWriter index((directory / "bundles").string());
  std::vector<absl::Status> written = {index.Restore(conform->bundles), WriteSummaries(*options, conform->totals),
                                       WriteFile(directory / "results.tsv",
                                                 CaseTable(conform->totals.identity, merged.cases))};
  if (!conform->bundles.empty()) written.push_back(index.WriteIndex());
  for (const absl::Status& status : written) {
    if (!status.ok()) return status;
  }
  out << "wrote " << PrintedText((directory / "summary.md").string()) << " and results.tsv\n";
  return absl::OkStatus();
}

// FillMergedRun records the merged run's description, cases and artifacts
// in `journal`, gives its directory the shards' bundles and its reports,
// and says what it did on `out`.
absl::Status FillMergedRun(const MergedRun& merged, const std::vector<ShardRun>& shards, RunJournal& journal,
                           std::ostream& out) {
  const RunRecord& run = merged.run;
  if (absl::Status described = journal.Describe(run.toolkits, run.driver, run.gpu_name, run.gpu_uuid);
      !described.ok()) {
    return described;
  }
  std::map<std::string, std::string> artifacts = merged.artifacts;
  artifacts[kProvenanceKey] = Provenance(shards);
  if (run.command == "conform") return MergeConform(merged, shards, journal, std::move(artifacts), out);
  if (!merged.dropped_artifacts.empty()) {
    out << "left with their shards (each shard's own progress): " << absl::StrJoin(merged.dropped_artifacts, ", ")
        << "\n";
  }
  if (absl::Status recorded = journal.Record(merged.cases, artifacts); !recorded.ok()) return recorded;
  if (absl::Status copied = CopyBundles(shards, journal.directory()); !copied.ok()) return copied;
  if (run.command != "support") return absl::OkStatus();
  return RenderSupportRun(journal, absl::StrCat(shards.size(), " shards on ", run.host), ShardSeconds(shards), out);
}

// CheckMergeRegistry refuses to merge shards with another discrepancy
// registry than the one that judged them (the merged run records it, and
// its reports explain with it); shards an older matload stored recorded
// none, and are merged with the registry in force.
absl::Status CheckMergeRegistry(const MergedRun& merged) {
  const RegistryText& in_force = RegistryInForce();
  if (merged.run.registry_digest.empty() || merged.run.registry_digest == in_force.digest) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("the shards of ", merged.parent, " were judged by the discrepancy registry with SHA-256 ",
                   merged.run.registry_digest, ", and ", in_force.origin, " has ", in_force.digest,
                   ": merge them with the registry that judged them (--registry FILE)"));
}

}  // namespace

int RunMergeCommand(const std::vector<std::string>& arguments, const std::string& command_line, std::ostream& out,
                    std::ostream& err) {
  if (arguments.empty()) {
    return ReportFailure(err,
                         absl::InvalidArgumentError("merge takes the shard runs: their run IDs, or their parent's ID"));
  }
  const std::string db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db));
  std::vector<std::string> stores = absl::GetFlag(FLAGS_from);
  if (stores.empty()) stores.push_back(db);
  absl::StatusOr<std::vector<ShardRun>> shards = ReadShardRuns(stores, arguments);
  if (!shards.ok()) return ReportFailure(err, shards.status());
  absl::StatusOr<MergedRun> merged = MergeShardRuns(*shards);
  if (!merged.ok()) return ReportFailure(err, merged.status());
  if (merged->cases.empty()) return ReportFailure(err, JudgedNothing(merged->run.command, /*filtered=*/true));
  if (absl::Status judged = CheckMergeRegistry(*merged); !judged.ok()) return ReportFailure(err, judged);
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start({.command = merged->run.command,
                                                                           .command_line = command_line,
                                                                           .options = merged->run.options,
                                                                           .out = absl::GetFlag(FLAGS_out),
                                                                           .db = db,
                                                                           .parent = merged->parent});
  if (!journal.ok()) return ReportFailure(err, journal.status());
  out << "run " << (*journal)->run().id << " in " << PrintedText((*journal)->directory()) << ": the " << shards->size()
      << " shards of " << merged->parent << ", " << merged->cases.size() << " cases\n";
  const absl::Status filled = FillMergedRun(*merged, *shards, **journal, out);
  const int exit_status = filled.ok() ? merged->exit_status : ReportFailure(err, filled);
  if (absl::Status finished = FinishWithReport(**journal, exit_status); !finished.ok()) {
    return ReportFailure(err, finished);
  }
  return exit_status;
}

}  // namespace matload
