#include "harness/cli/store_commands.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/cli/flags.h"
#include "harness/cli/run_reports.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/input_files.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/report/runs_index.h"
#include "harness/runs/export_marker.h"
#include "harness/runs/exports.h"
#include "harness/runs/junit_export.h"
#include "harness/runs/night_runs.h"
#include "harness/runs/results_store.h"
#include "harness/runs/retention.h"
#include "harness/runs/run_diff.h"
#include "harness/runs/run_journal.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// kBaselineLinesListed is how many regressed or fixed cases a run's
// baseline check names; the store, the diff and the exports have them all.
constexpr size_t kBaselineLinesListed = 50;

// UnfinishedError says that `run` did not judge everything (Finished),
// how it ended, and what follows for the command (`consequence`), when it
// did not; export, diff and baseline then exit 2, unless they were asked
// for COMMAND@latest-finished.
absl::Status UnfinishedError(const RunRecord& run, absl::string_view consequence) {
  if (Finished(run)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("run ", run.id, " did not finish: it ", HowItEnded(run), ". ",
                                                    consequence, " (", run.command,
                                                    "@latest-finished names the newest run that finished)"));
}

// RunAndCases is a run and its cases.
struct RunAndCases {
  RunRecord run;
  std::vector<CaseRecord> cases;
};

// ReadRun finds the run `reference` names in `store` and reads its cases.
absl::StatusOr<RunAndCases> ReadRun(ResultsStore& store, const std::string& reference) {
  absl::StatusOr<RunRecord> run = FindRun(store, reference);
  if (!run.ok()) return run.status();
  absl::StatusOr<std::vector<CaseRecord>> cases = store.Cases(run->id);
  if (!cases.ok()) return cases.status();
  return RunAndCases{*std::move(run), *std::move(cases)};
}

// Findings counts the cases that need a person.
size_t Findings(const std::vector<CaseRecord>& cases) {
  size_t findings = 0;
  for (const CaseRecord& record : cases) findings += record.finding ? 1 : 0;
  return findings;
}

// WriteNew writes `text` to `path`, which must not exist yet.
absl::Status WriteNew(const std::string& path, const std::string& text) {
  std::error_code error;
  if (std::filesystem::exists(path, error)) {
    return absl::AlreadyExistsError(absl::StrCat(path, " exists; a baseline is never written over (remove it first)"));
  }
  return WriteFile(path, text);
}

// kCsvStart is how a CSV export begins. A CSV file has no place for an
// export marker (export_marker.h) that every reader skips, so a CSV export
// replaces a file only if it begins so: never the results store, a run's
// results or a baseline.
constexpr absl::string_view kCsvStart = "case,outcome,duration_s\n";

// CheckCsvPath says why `path` may not take a CSV export: it exists and
// does not begin as one.
absl::Status CheckCsvPath(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return absl::OkStatus();
  std::ifstream file(path, std::ios::binary);
  std::string head(kCsvStart.size(), '\0');
  if (std::filesystem::is_regular_file(path, error) &&
      file.read(head.data(), static_cast<std::streamsize>(head.size())) && head == kCsvStart) {
    return absl::OkStatus();
  }
  return absl::AlreadyExistsError(
      absl::StrCat(path, " exists and is not an earlier CSV export; an export never writes over another file"));
}

// JunitPartPath is where part `number` (from 2) of a JUnit export to
// `path` goes: "out/junit.xml" -> "out/junit-2.xml".
std::string JunitPartPath(const std::string& path, size_t number) {
  const std::filesystem::path whole(path);
  return (whole.parent_path() / absl::StrCat(whole.stem().string(), "-", number, whole.extension().string())).string();
}

// WriteJunit writes the documents (JunitXml) of run `run_id`'s JUnit
// export: the first to `path`, which the caller checked, and each other to
// its JunitPartPath, which may hold only an earlier JUnit export of the
// run (CheckReplaceable); it names on `out` each part it wrote after the
// first.
absl::Status WriteJunit(const std::string& path, const std::string& run_id, const std::vector<std::string>& documents,
                        std::ostream& out) {
  for (size_t number = 2; number <= documents.size(); ++number) {
    if (absl::Status free = CheckReplaceable(JunitPartPath(path, number), ExportKind::kJunit, run_id); !free.ok()) {
      return free;
    }
  }
  for (size_t number = 1; number <= documents.size(); ++number) {
    const std::string part = number == 1 ? path : JunitPartPath(path, number);
    if (absl::Status written = WriteFile(part, documents[number - 1]); !written.ok()) return written;
    if (number > 1) out << "wrote " << PrintedText(part) << " (part " << number << " of " << documents.size() << ")\n";
  }
  return absl::OkStatus();
}

// JunitContextFor is what the JUnit export knows beside the store: the
// failures `baseline` expects, and the discrepancy registry's judgements
// (LoadRegistryInForce). Without a registry it says so on `err`: the file
// then names the entries that explain known discrepancies, without their
// judgements.
JunitContext JunitContextFor(const std::optional<Baseline>& baseline, std::ostream& err) {
  JunitContext context;
  if (baseline.has_value()) context.expected = baseline->expected;
  const absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  if (!registry.ok()) {
    err << "matload: the JUnit file names known discrepancies by their registry entry alone: "
        << registry.status().message() << "\n";
    return context;
  }
  for (const DiscrepancyEntry& entry : registry->entries()) context.judgements[entry.id] = entry.judgement;
  return context;
}

// RunsAsTheyStand are the store's runs, with each one marked running that
// no live process holds (its process was killed) marked "killed": an
// unfinished run, which `runs` lists as such, and retention keeps only
// while it is new.
absl::StatusOr<std::vector<RunRecord>> RunsAsTheyStand(ResultsStore& store) {
  absl::StatusOr<std::vector<RunRecord>> runs = store.Runs();
  if (!runs.ok()) return runs.status();
  for (RunRecord& run : *runs) {
    if (run.status != "running") continue;
    const absl::StatusOr<bool> held = store.HeldByAnother(run.id);
    if (!held.ok()) return held.status();
    if (!*held) run.status = "killed";
  }
  return runs;
}

}  // namespace

absl::StatusOr<ResultsStore> OpenStoreToRead() {
  const std::string path = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db));
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no results store at ", path, " (--db, or $MATLOAD_DB, names another)"));
  }
  return ResultsStore::OpenReadOnly(path);
}

absl::StatusOr<RunRecord> FindRun(ResultsStore& store, const std::string& reference) {
  const std::vector<std::string> parts = absl::StrSplit(reference, absl::MaxSplits('@', 1));
  if (parts.size() == 1) return store.FindRun(reference);
  size_t back = 0;
  const std::vector<std::string> latest = absl::StrSplit(parts[1], absl::MaxSplits('~', 1));
  const bool digits =
      latest.size() == 1 || (!latest[1].empty() && latest[1].find_first_not_of("0123456789") == std::string::npos);
  const bool finished_only = latest[0] == "latest-finished";
  if ((latest[0] != "latest" && !finished_only) || !digits ||
      (latest.size() == 2 && !absl::SimpleAtoi(latest[1], &back))) {
    return absl::InvalidArgumentError(absl::StrCat("'", reference,
                                                   "' is not a run: give a run ID, COMMAND@latest[~N] or "
                                                   "COMMAND@latest-finished[~N]"));
  }
  absl::StatusOr<std::vector<RunRecord>> runs = store.Runs();
  if (!runs.ok()) return runs.status();
  std::vector<RunRecord> named;
  for (RunRecord& run : *runs) {
    if (run.command == parts[0] && run.shard.empty() && (!finished_only || Finished(run))) {
      named.push_back(std::move(run));
    }
  }
  if (back >= named.size()) {
    return absl::NotFoundError(absl::StrCat("'", reference, "': ", store.path(), " holds ", named.size(),
                                            finished_only ? " finished " : " ", parts[0], " runs"));
  }
  return named[named.size() - 1 - back];
}

namespace {

// ListRun writes one run of `matload runs`: a line of `out`, or with
// --json an entry of `listing`.
void ListRun(const RunRecord& run, const std::vector<CaseRecord>& cases, std::ostream& out, nlohmann::json& listing) {
  const std::string started = absl::FormatTime("%Y-%m-%d %H:%M:%SZ", run.started, absl::UTCTimeZone());
  if (!absl::GetFlag(FLAGS_json)) {
    out << absl::StrFormat("%-42s %-14s %7d cases %5d findings  %s  %s%s\n", run.id, run.status, cases.size(),
                           Findings(cases), started, run.gpu_name.empty() ? run.toolkits : run.gpu_name,
                           run.shard.empty() ? "" : absl::StrCat("  shard ", run.shard, " of ", run.parent));
    return;
  }
  listing.push_back(
      {{"id", run.id},
       {"command", run.command},
       {"status", run.status},
       {"exit_status", run.exit_status},
       {"started", started},
       {"cases", cases.size()},
       {"findings", Findings(cases)},
       {"gpu", run.gpu_name},
       {"driver", run.driver},
       {"toolkits", run.toolkits},
       {"directory", run.directory},
       {"git_commit", run.git_commit},
       {"registry_digest", run.registry_digest.empty() ? nlohmann::json() : nlohmann::json(run.registry_digest)},
       {"parent", run.parent},
       {"shard", run.shard}});
}

// ShareCases says whether runs of `a` and `b` name their cases alike: runs
// of one command do, and so do conform and soak, whose rounds are conform
// runs (docs/case-ids.md), so that a soak is diffed against a night.
bool ShareCases(absl::string_view a, absl::string_view b) {
  const auto conform_like = [](absl::string_view command) { return command == "conform" || command == "soak"; };
  return a == b || (conform_like(a) && conform_like(b));
}

}  // namespace

int RunRunsCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (!arguments.empty()) return ReportFailure(err, absl::InvalidArgumentError("runs takes no arguments"));
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status());
  absl::StatusOr<std::vector<RunRecord>> runs = RunsAsTheyStand(*store);
  if (!runs.ok()) return ReportFailure(err, runs.status());
  const std::string html = absl::GetFlag(FLAGS_html);
  const std::string store_name = std::filesystem::absolute(store->path()).lexically_normal().string();
  if (!html.empty()) {
    if (absl::Status free = CheckReplaceable(html, ExportKind::kRunsIndex, store_name); !free.ok()) {
      return ReportFailure(err, free);
    }
  }
  absl::flat_hash_set<std::string> nights;
  for (const RunRecord& night : NightRuns(*runs)) nights.insert(night.id);
  RunsIndex index;
  nlohmann::json listing = nlohmann::json::array();
  for (const RunRecord& run : *runs) {
    absl::StatusOr<std::vector<CaseRecord>> cases = store->Cases(run.id);
    if (!cases.ok()) return ReportFailure(err, cases.status());
    if (!html.empty() && nights.contains(run.id)) {
      absl::StatusOr<RunExtras> extras =
          RunExtrasOf([&](const std::string& key) { return store->Artifact(run.id, key); });
      if (!extras.ok()) return ReportFailure(err, extras.status());
      index.Add(run, *cases, extras->sm_verdicts);
    }
    ListRun(run, *cases, out, listing);
  }
  if (absl::GetFlag(FLAGS_json)) out << listing.dump(2) << "\n";
  if (html.empty()) return kExitClean;
  if (absl::Status written = WriteRunsIndex(index.Series(), store_name, html); !written.ok()) {
    return ReportFailure(err, written);
  }
  err << "wrote " << PrintedText(html) << "\n";
  return kExitClean;
}

int RunDiffCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.size() != 2) return ReportFailure(err, absl::InvalidArgumentError("diff takes two runs: RUN_A RUN_B"));
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status());
  absl::StatusOr<RunAndCases> a = ReadRun(*store, arguments[0]);
  if (!a.ok()) return ReportFailure(err, a.status());
  absl::StatusOr<RunAndCases> b = ReadRun(*store, arguments[1]);
  if (!b.ok()) return ReportFailure(err, b.status());
  if (!ShareCases(a->run.command, b->run.command)) {
    return ReportFailure(
        err, absl::InvalidArgumentError(absl::StrCat("run ", a->run.id, " is a ", a->run.command, " run and ",
                                                     b->run.id, " a ", b->run.command, " run: they share no case")));
  }
  for (const RunAndCases* run : {&*a, &*b}) {
    if (absl::Status finished = UnfinishedError(run->run,
                                                "It is not compared: the cases it did not judge would read "
                                                "as removed");
        !finished.ok()) {
      return ReportFailure(err, finished);
    }
  }
  const std::string html = absl::GetFlag(FLAGS_html);
  if (!html.empty()) {
    if (absl::Status free = CheckReplaceable(html, ExportKind::kDiffPage, absl::StrCat(a->run.id, " ", b->run.id));
        !free.ok()) {
      return ReportFailure(err, free);
    }
  }
  const RunDiff diff = Diff(a->cases, b->cases);
  if (!html.empty()) {
    if (absl::Status written = WriteDiffPage(a->run, b->run, diff, b->cases, html); !written.ok()) {
      return ReportFailure(err, written);
    }
    err << "wrote " << PrintedText(html) << "\n";
  }
  if (absl::GetFlag(FLAGS_json)) {
    out << DiffJson(a->run, b->run, diff).dump(2) << "\n";
  } else {
    out << DiffText(a->run, b->run, diff);
  }
  return Regressed(diff) ? kExitFindings : kExitClean;
}

int RunBaselineCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.size() != 1) return ReportFailure(err, absl::InvalidArgumentError("baseline takes one run: RUN_ID"));
  const std::string path = absl::GetFlag(FLAGS_out);
  if (path.empty()) return ReportFailure(err, absl::InvalidArgumentError("baseline needs --out FILE.csv"));
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status());
  absl::StatusOr<RunAndCases> run = ReadRun(*store, arguments[0]);
  if (!run.ok()) return ReportFailure(err, run.status());
  if (absl::Status finished = UnfinishedError(run->run, "No baseline is taken from it"); !finished.ok()) {
    return ReportFailure(err, finished);
  }
  if (absl::Status written = WriteNew(path, RenderBaseline(run->run, run->cases)); !written.ok()) {
    return ReportFailure(err, written);
  }
  out << "wrote " << PrintedText(path) << ": " << Findings(run->cases) << " expected failures of run " << run->run.id
      << "\n";
  return kExitClean;
}

int RunExportCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.size() != 1) return ReportFailure(err, absl::InvalidArgumentError("export takes one run: RUN_ID"));
  const std::string junit = absl::GetFlag(FLAGS_junit);
  const std::string csv = absl::GetFlag(FLAGS_csv);
  const std::string html = absl::GetFlag(FLAGS_html);
  if (junit.empty() && csv.empty() && html.empty()) {
    return ReportFailure(err, absl::InvalidArgumentError("export needs --junit, --csv or --html"));
  }
  if ((!junit.empty() && (junit == csv || junit == html)) || (!csv.empty() && csv == html)) {
    return ReportFailure(
        err, absl::InvalidArgumentError("two of --junit, --csv and --html name one file; give each its own"));
  }
  const absl::StatusOr<std::optional<Baseline>> baseline = LoadBaseline(absl::GetFlag(FLAGS_baseline));
  if (!baseline.ok()) return ReportFailure(err, baseline.status());
  if (baseline->has_value() && junit.empty()) {
    return ReportFailure(
        err, absl::InvalidArgumentError(
                 "--baseline marks the failures it expects as skipped in the JUnit file: give --junit too"));
  }
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status());
  absl::StatusOr<RunAndCases> run = ReadRun(*store, arguments[0]);
  if (!run.ok()) return ReportFailure(err, run.status());
  // Each file may hold only an earlier export of the same kind, of this run.
  const std::vector<std::pair<std::string, absl::Status>> free = {
      {junit, CheckReplaceable(junit, ExportKind::kJunit, run->run.id)},
      {csv, CheckCsvPath(csv)},
      {html, CheckReplaceable(html, ExportKind::kRunPage, run->run.id)},
  };
  for (const auto& [path, checked] : free) {
    if (!path.empty() && !checked.ok()) return ReportFailure(err, checked);
  }
  const auto stored_extra = [&](const std::string& key) { return store->Artifact(run->run.id, key); };
  const std::vector<std::pair<std::string, std::function<absl::Status()>>> exports = {
      {junit,
       [&] {
         JunitContext context = JunitContextFor(*baseline, err);
         absl::StatusOr<RunExtras> extras = RunExtrasOf(stored_extra);
         if (!extras.ok()) return extras.status();
         context.sm_verdicts = std::move(extras->sm_verdicts);
         return WriteJunit(junit, run->run.id, JunitXml(run->run, run->cases, context), out);
       }},
      {csv, [&] { return WriteFile(csv, ResultsCsv(run->cases)); }},
      {html,
       [&] {
         absl::StatusOr<RunExtras> extras = RunExtrasOf(stored_extra);
         if (!extras.ok()) return extras.status();
         return WriteRunPage(run->run, run->cases, *extras, html);
       }},
  };
  for (const auto& [path, write] : exports) {
    if (path.empty()) continue;
    if (absl::Status written = write(); !written.ok()) return ReportFailure(err, written);
    out << "wrote " << PrintedText(path) << "\n";
  }
  if (absl::Status finished = UnfinishedError(run->run, "The exports hold what it judged, and say how it ended");
      !finished.ok()) {
    return ReportFailure(err, finished);
  }
  return kExitClean;
}

int RunPruneCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (!arguments.empty()) return ReportFailure(err, absl::InvalidArgumentError("prune takes no arguments"));
  const int keep = absl::GetFlag(FLAGS_keep);
  if (keep < 1) {
    return ReportFailure(err, absl::InvalidArgumentError(
                                  "prune needs --keep N: how many finished runs of each command to keep (N from 1)"));
  }
  // Read-only until there is something to delete, so that a dry run, or a
  // file that is not a results store, is never written.
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status());
  const absl::StatusOr<std::vector<RunRecord>> runs = RunsAsTheyStand(*store);
  if (!runs.ok()) return ReportFailure(err, runs.status());
  const std::vector<std::string> pruned = RunsToPrune(*runs, static_cast<size_t>(keep));
  const bool dry_run = absl::GetFlag(FLAGS_dry_run);
  if (!dry_run && !pruned.empty()) {
    store = ResultsStore::Open(store->path());
    if (!store.ok()) return ReportFailure(err, store.status());
    if (absl::Status deleted = store->DeleteRuns(pruned); !deleted.ok()) return ReportFailure(err, deleted);
    if (absl::Status reclaimed = store->Reclaim(); !reclaimed.ok()) return ReportFailure(err, reclaimed);
  }
  const bool remove_dirs = absl::GetFlag(FLAGS_remove_dirs);
  const absl::string_view verb = dry_run ? "would delete " : "deleted ";
  for (const RunRecord& run : *runs) {
    if (std::find(pruned.begin(), pruned.end(), run.id) == pruned.end()) continue;
    out << verb << run.id << "\n";
    if (!remove_dirs) continue;
    if (dry_run) {
      out << "  would remove " << run.directory << " if its .matload-run names " << run.id << "\n";
    } else if (const absl::Status removed = RemoveRunDirectory(run); removed.ok()) {
      out << "  removed " << run.directory << "\n";
    } else {
      out << "  " << removed.message() << "\n";
    }
  }
  out << verb << pruned.size() << " of " << runs->size() << " runs from " << store->path() << ", keeping the " << keep
      << " newest finished runs of each command"
      << (remove_dirs ? "" : " (run directories on disk are left as they are; --remove_dirs removes them)") << "\n";
  return kExitClean;
}

StoreCommand FindStoreCommand(absl::string_view name) {
  if (name == "runs") return RunRunsCommand;
  if (name == "diff") return RunDiffCommand;
  if (name == "baseline") return RunBaselineCommand;
  if (name == "export") return RunExportCommand;
  if (name == "prune") return RunPruneCommand;
  return nullptr;
}

absl::StatusOr<std::optional<Baseline>> LoadBaseline(const std::string& path) {
  if (path.empty()) return std::nullopt;
  const absl::StatusOr<std::string> text = ReadFileBytes(path);
  if (!text.ok()) return absl::FailedPreconditionError(absl::StrCat("--baseline: ", text.status().message()));
  absl::StatusOr<Baseline> baseline = ParseBaseline(*text);
  if (!baseline.ok())
    return absl::InvalidArgumentError(absl::StrCat("--baseline ", path, ": ", baseline.status().message()));
  return *std::move(baseline);
}

int BaselineExitStatus(const Baseline& baseline, const std::vector<CaseRecord>& cases,
                       const ExpectedHere& expected_here, bool strict, std::ostream& out) {
  const BaselineComparison comparison = CompareToBaseline(cases, baseline);
  out << "baseline: " << comparison.Count(BaselineVerdict::kExpected) << " expected failures, "
      << comparison.Count(BaselineVerdict::kRegression) << " regressions, " << comparison.Count(BaselineVerdict::kFixed)
      << " fixed\n";
  size_t listed = 0;
  for (const auto& [id, verdict] : comparison.verdicts) {
    if (verdict != BaselineVerdict::kRegression && verdict != BaselineVerdict::kFixed) continue;
    if (++listed <= kBaselineLinesListed) out << "  " << BaselineVerdictName(verdict) << ": " << id << "\n";
  }
  if (listed > kBaselineLinesListed) {
    out << "  ... and " << listed - kBaselineLinesListed << " more (matload export or diff lists every case)\n";
  }
  std::vector<std::string> stale;
  for (const std::string& id : comparison.unknown_ids) {
    if (expected_here(id)) stale.push_back(id);
  }
  if (!stale.empty()) {
    out << "matload: the baseline names " << stale.size() << " cases this run should have and does not, first "
        << stale.front() << " (a stale or mistyped baseline)\n";
    return kExitUsage;
  }
  if (comparison.Count(BaselineVerdict::kRegression) > 0) return kExitFindings;
  if (strict && comparison.Count(BaselineVerdict::kFixed) > 0) return kExitFindings;
  return kExitClean;
}

}  // namespace matload
