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
#include "harness/cli/flags.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/support_reports.h"
#include "harness/conform_report.h"
#include "harness/exit_status.h"
#include "harness/output_files.h"
#include "harness/runs/results_store.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/shard_merge.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

namespace fs = std::filesystem;

// kProvenanceKey is the artifact a merged run keeps its shards under.
constexpr char kProvenanceKey[] = "merge/shards";

// Failed reports `status` and returns its exit status.
int Failed(std::ostream& err, const absl::Status& status) {
  err << "matload: " << status.message() << "\n";
  return ExitStatusFor(status);
}

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

// CopyBundle copies `bundle` (relative to its run directory) from `shard`'s
// run directory into `directory`, unless a shard before it gave one of
// that name (bundles are named by what they hold).
absl::Status CopyBundle(const ShardRun& shard, const std::string& bundle, const fs::path& directory) {
  const fs::path source = fs::path(shard.run.directory) / bundle;
  const fs::path target = directory / bundle;
  std::error_code error;
  if (fs::exists(target, error)) return absl::OkStatus();
  if (!fs::exists(source, error)) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", shard.run.id, "'s bundle ", bundle, " is not at ", source.string(),
                     ": merge where the shards' run directories can be read (a shared file system)"));
  }
  if (absl::Status made = CreateDirectories(target.parent_path()); !made.ok()) return made;
  fs::copy(source, target, fs::copy_options::recursive, error);
  if (error) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot copy ", source.string(), " to ", target.string(), ": ", error.message()));
  }
  return absl::OkStatus();
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

// RenderReports writes the reports the unsharded command writes into the
// merged run's directory.
absl::Status RenderReports(const MergedRun& merged, const std::vector<ShardRun>& shards, RunJournal& journal,
                           std::ostream& out) {
  const std::string machine = absl::StrCat(shards.size(), " shards on ", merged.run.host);
  if (merged.run.command == "support") return RenderSupportRun(journal, machine, ShardSeconds(shards), out);
  if (merged.run.command != "conform") return absl::OkStatus();
  const std::string identity = absl::StrCat(merged.run.gpu_name, ", ", merged.run.gpu_uuid, ", ", merged.run.driver);
  const fs::path table = fs::path(journal.directory()) / "results.tsv";
  if (absl::Status written = WriteFile(table, CaseTable(identity, merged.cases)); !written.ok()) return written;
  out << "wrote " << table.string() << "\n";
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
  if (absl::Status recorded = journal.Record(merged.cases, artifacts); !recorded.ok()) return recorded;
  if (!merged.dropped_artifacts.empty()) {
    out << "left with their shards (each shard's own progress): " << absl::StrJoin(merged.dropped_artifacts, ", ")
        << "\n";
  }
  if (absl::Status copied = CopyBundles(shards, journal.directory()); !copied.ok()) return copied;
  return RenderReports(merged, shards, journal, out);
}

}  // namespace

int RunMergeCommand(const std::vector<std::string>& arguments, const std::string& command_line, std::ostream& out,
                    std::ostream& err) {
  if (arguments.empty()) {
    return Failed(err, absl::InvalidArgumentError("merge takes the shard runs: their run IDs, or their parent's ID"));
  }
  const std::string db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db));
  std::vector<std::string> stores = absl::GetFlag(FLAGS_from);
  if (stores.empty()) stores.push_back(db);
  absl::StatusOr<std::vector<ShardRun>> shards = ReadShardRuns(stores, arguments);
  if (!shards.ok()) return Failed(err, shards.status());
  absl::StatusOr<MergedRun> merged = MergeShardRuns(*shards);
  if (!merged.ok()) return Failed(err, merged.status());
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start({.command = merged->run.command,
                                                                           .command_line = command_line,
                                                                           .options = merged->run.options,
                                                                           .out = absl::GetFlag(FLAGS_out),
                                                                           .db = db});
  if (!journal.ok()) return Failed(err, journal.status());
  out << "run " << (*journal)->run().id << " in " << (*journal)->directory() << ": the " << shards->size()
      << " shards of " << merged->parent << ", " << merged->cases.size() << " cases\n";
  const absl::Status filled = FillMergedRun(*merged, *shards, **journal, out);
  const int exit_status = filled.ok() ? merged->exit_status : Failed(err, filled);
  if (absl::Status finished = FinishWithReport(**journal, exit_status); !finished.ok()) return Failed(err, finished);
  return exit_status;
}

}  // namespace matload
