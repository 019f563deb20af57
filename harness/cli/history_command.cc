#include "harness/cli/history_command.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <numeric>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/cli/progress_reporter.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/support_reports.h"
#include "harness/cli/sweep_progress.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/toolchain_identity.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/judge/toolchain_release.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/build_info.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/verdict_cache.h"
#include "harness/support/support_history.h"
#include "harness/support/support_history_report.h"
#include "harness/support/support_sweep.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// OpenedToolkit is one toolkit of the history and its ptxas.
struct OpenedToolkit {
  Ptxas ptxas;
  HistoryToolkit toolkit;
};

// OpenToolkit opens the ptxas at `path` and learns what it speaks and
// builds for. A path that names no file (an empty one, from "P1,,P2",
// included) is bad input, kInvalidArgument: a typo, which no retry mends.
// A file that does not run as a ptxas (truncated, or for another platform)
// is an InfrastructureError: the history's toolkits are fetched ones, and
// matload could not judge with it.
absl::StatusOr<OpenedToolkit> OpenToolkit(const std::string& path, std::ostream& err) {
  std::error_code error;
  if (path.empty()) {
    return absl::InvalidArgumentError(
        "--ptxas holds an empty path (two commas in a row, or one at an end): give the paths separated by commas");
  }
  if (!std::filesystem::exists(path, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--ptxas names ", OutsideText(path),
                     ", which does not exist (scripts/fetch-cuda-tools.sh all fetches the history's toolkits)"));
  }
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
  if (!ptxas.ok()) {
    if (InfrastructureCauseOf(ptxas.status()).has_value() || InterruptSignalOf(ptxas.status()) != 0) {
      return ptxas.status();
    }
    return InfrastructureError(InfrastructureCause::kCompilerCrashed,
                               absl::StrCat(path, " does not run as a ptxas (truncated, or for another platform?): ",
                                            ptxas.status().message()));
  }
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(*ptxas);
  if (!dialect.ok()) return dialect.status();
  if (dialect->spoken < AllPtxVersions().front()) {
    return absl::FailedPreconditionError(absl::StrCat(path, " (", ptxas->Toolchain(), ") speaks PTX ISA ",
                                                      dialect->spoken.ToString(), ", older than any matload knows"));
  }
  absl::StatusOr<std::string> identity = ToolchainIdentity(ptxas->Toolchain(), {path});
  if (!identity.ok())
    err << "matload: " << ptxas->Toolchain()
        << "'s answers are not cached: " << PrintedText(identity.status().message()) << "\n";
  HistoryToolkit toolkit{.toolchain = ptxas->Toolchain(),
                         .path = path,
                         .identity = identity.ok() ? *identity : "",
                         .dialect = *dialect,
                         .newest = dialect->Judged()};
  for (const TargetInfo& info : AllTargets()) {
    if (ptxas->Supports(info.target)) toolkit.targets.push_back(info.target.Name());
  }
  return OpenedToolkit{*std::move(ptxas), std::move(toolkit)};
}

// OpenToolkits opens every toolkit of `options`, oldest release first; a
// release given twice is kInvalidArgument.
absl::StatusOr<std::vector<OpenedToolkit>> OpenToolkits(const HistoryOptions& options, std::ostream& err) {
  if (options.ptxas_paths.empty()) {
    return absl::InvalidArgumentError(
        "no toolkits: give --ptxas P,..., or fetch the history's with scripts/fetch-cuda-tools.sh all");
  }
  std::vector<OpenedToolkit> opened;
  for (const std::string& path : options.ptxas_paths) {
    absl::StatusOr<OpenedToolkit> toolkit = OpenToolkit(path, err);
    if (!toolkit.ok()) return toolkit.status();
    opened.push_back(*std::move(toolkit));
  }
  std::sort(opened.begin(), opened.end(), [](const OpenedToolkit& a, const OpenedToolkit& b) {
    return ReleaseNumbers(a.ptxas.Version()) < ReleaseNumbers(b.ptxas.Version());
  });
  for (size_t i = 1; i < opened.size(); ++i) {
    if (opened[i].ptxas.Version() == opened[i - 1].ptxas.Version()) {
      return absl::InvalidArgumentError(absl::StrCat("--ptxas gives ", opened[i].toolkit.toolchain, " twice (",
                                                     opened[i - 1].toolkit.path, ", ", opened[i].toolkit.path, ")"));
    }
  }
  return opened;
}

// SweptTargets are the targets of `options` that exist at `ptx`: every one
// when none is asked for.
std::vector<Target> SweptTargets(const HistoryOptions& options, PtxVersion ptx) {
  std::vector<Target> targets;
  for (const TargetInfo& info : AllTargets()) {
    const bool asked = options.targets.empty() ||
                       std::find(options.targets.begin(), options.targets.end(), info.target) != options.targets.end();
    if (asked && TargetExistsIn(info.target, ptx)) targets.push_back(info.target);
  }
  return targets;
}

// Versions are the versions `toolkit` is swept at: its newest, and the
// common one where it speaks it.
std::vector<PtxVersion> Versions(const HistoryToolkit& toolkit, PtxVersion common) {
  std::vector<PtxVersion> versions = {toolkit.newest};
  if (common != toolkit.newest && common <= toolkit.dialect.spoken) versions.push_back(common);
  return versions;
}

// SweptLater says whether a toolkit after `t` of `toolkits` is swept at `ptx`.
bool SweptLater(const std::vector<OpenedToolkit>& toolkits, size_t t, PtxVersion ptx, PtxVersion common) {
  for (size_t later = t + 1; later < toolkits.size(); ++later) {
    const std::vector<PtxVersion> versions = Versions(toolkits[later].toolkit, common);
    if (std::find(versions.begin(), versions.end(), ptx) != versions.end()) return true;
  }
  return false;
}

// Unjudged is an InfrastructureError when `sweep` left forms without a
// compiler verdict (batch_checker.h's bisection bound).
absl::Status Unjudged(const SupportSweep& sweep) {
  size_t unjudged = 0;
  for (const TargetSummary& summary : sweep.summaries) unjudged += summary.unjudged;
  if (unjudged == 0) return absl::OkStatus();
  return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                             absl::StrCat(sweep.compiler, " left ", unjudged, " forms unjudged at PTX ",
                                          sweep.ptx.ToString(), ": no history was written"));
}

// Sweep sweeps toolkit `t` at `ptx` into `history`, printing its line.
absl::Status Sweep(const HistoryOptions& options, const OpenedToolkit& opened, size_t t, PtxVersion ptx,
                   const DiscrepancyRegistry& registry, SupportHistory& history, SweepPlans& plans, std::ostream& out) {
  const std::vector<Target> targets = SweptTargets(options, ptx);
  if (targets.empty()) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<VerdictCache>> verdicts =
      options.no_cache ? std::unique_ptr<VerdictCache>() : VerdictCache::Open(options.db);
  if (!verdicts.ok()) return verdicts.status();
  SweepCache cache;
  if (*verdicts != nullptr && !opened.toolkit.identity.empty()) {
    cache = {.verdicts = verdicts->get(), .compiler = opened.toolkit.identity};
  }
  const SweepHooks hooks = {.select = [&options](const std::string& id) { return options.filter.Selects(id); },
                            .compared = history.Compared(t, ptx),
                            .plans = &plans};
  ProgressReporter reporter(std::cerr, "cases", ProgressReporter::ForStderr(options.progress_seconds, true));
  reporter.StartPhase(absl::StrCat("history ", opened.toolkit.toolchain, " PTX ", ptx.ToString()), 0);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<SupportSweep> sweep = RunSupportSweep(opened.ptxas, registry, targets, ptx, options.threads,
                                                       SweepProgressTo(reporter), "", hooks, cache);
  reporter.Finish();
  if (!sweep.ok()) return sweep.status();
  if (absl::Status judged = Unjudged(*sweep); !judged.ok()) return judged;
  const SweepFacts facts{.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                         .cache_found = cache.verdicts == nullptr ? 0 : cache.verdicts->found(),
                         .cache_kept = cache.verdicts == nullptr ? 0 : cache.verdicts->kept()};
  history.Add(t, *sweep, facts);
  const HistorySweep& counted = history.sweeps().back();
  out << opened.toolkit.toolchain << "\tPTX " << ptx.ToString() << "\t" << counted.targets_compiled << " targets, "
      << counted.forms << " forms: " << counted.agree << " agree, " << counted.explained << " explained, "
      << counted.also_seen << " known, also seen on it, " << counted.explained_elsewhere
      << " under an entry not in force on it, " << counted.unexplained << " unexplained; " << counted.both_reject
      << " both reject, " << std::accumulate(counted.misdiagnosed.begin(), counted.misdiagnosed.end(), size_t{0})
      << " misdiagnosed (" << counted.unregistered << " unregistered); " << facts.cache_found << " answers cached, "
      << facts.cache_kept << " compiled; " << static_cast<long>(facts.seconds + 0.5) << " s\n";
  return absl::OkStatus();
}

// Findings counts what no registry entry explains: disagreements under no
// entry, and misdiagnoses no entry lists.
size_t Findings(const SupportHistory& history) {
  size_t findings = 0;
  for (const HistorySweep& sweep : history.sweeps()) findings += sweep.unexplained + sweep.unregistered;
  return findings;
}

// SweepAll sweeps every toolkit into `history`, writes its report into
// the run directory, and returns the findings.
absl::StatusOr<size_t> SweepAll(const HistoryOptions& options, const std::vector<OpenedToolkit>& toolkits,
                                const DiscrepancyRegistry& registry, SupportHistory& history, RunJournal& journal,
                                std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  SweepPlans plans;  // each (PTX version, target)'s forms, enumerated and judged once for every toolkit
  for (size_t t = 0; t < toolkits.size(); ++t) {
    for (PtxVersion ptx : Versions(toolkits[t].toolkit, options.common)) {
      if (absl::Status swept = Sweep(options, toolkits[t], t, ptx, registry, history, plans, out); !swept.ok()) {
        return swept;
      }
      if (!SweptLater(toolkits, t, ptx, options.common)) {
        plans.Forget(ptx);
        history.Forget(ptx);
      }
    }
  }
  size_t forms = 0;
  for (const HistorySweep& sweep : history.sweeps()) forms += sweep.forms;
  if (forms == 0) return absl::InvalidArgumentError("--target, --cases, --include and --exclude take no case");
  utsname system{};
  uname(&system);
  const HistoryContext context{
      .command = options.command,
      .date = TodayUtc(),
      .machine = absl::StrCat(system.machine, ", ", sysconf(_SC_NPROCESSORS_ONLN), " cores, ", options.threads,
                              " threads used"),
      .matload = absl::StrCat(MatloadVersion(), ", commit ", GitCommit()),
      .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
  if (absl::Status written = WriteHistoryReport(history, context, journal.directory()); !written.ok()) return written;
  out << "wrote " << PrintedText(journal.directory()) << "/history.md\n";
  return Findings(history);
}

// OptionsJson is what decides a history's sweeps; the paths and the
// filter as text (OutsideText), since the user may give any bytes.
std::string OptionsJson(const HistoryOptions& options) {
  std::vector<std::string> targets;
  for (Target target : options.targets) targets.push_back(target.Name());
  std::vector<std::string> paths;
  for (const std::string& path : options.ptxas_paths) paths.push_back(OutsideText(path));
  return nlohmann::json{{"ptxas", paths},
                        {"common_ptx", options.common.ToString()},
                        {"targets", targets},
                        {"filter", OutsideText(options.filter_text)}}
      .dump();
}

}  // namespace

int RunHistory(const HistoryOptions& options, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();  // SIGINT and SIGTERM end the sweep in order, as "interrupted"
  absl::StatusOr<std::vector<OpenedToolkit>> opened = OpenToolkits(options, err);
  absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  for (const absl::Status& status : {opened.status(), registry.status()}) {
    if (!status.ok()) {
      return ReportFailure(err, status);
    }
  }
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start({.command = "history",
                                                                           .command_line = options.command,
                                                                           .options = OptionsJson(options),
                                                                           .out = options.out,
                                                                           .db = options.db});
  if (!journal.ok()) {
    err << "matload: " << PrintedText(journal.status().message()) << "\n";
    return ExitStatusFor(journal.status());
  }
  std::vector<HistoryToolkit> toolkits;
  std::vector<std::string> toolchains;
  for (const OpenedToolkit& toolkit : *opened) {
    toolkits.push_back(toolkit.toolkit);
    toolchains.push_back(toolkit.toolkit.toolchain);
  }
  SupportHistory history(std::move(toolkits), options.common, *registry);
  absl::StatusOr<size_t> findings = absl::UnknownError("not swept");
  if (absl::Status described = (*journal)->Describe(absl::StrJoin(toolchains, "; "), "", "", ""); !described.ok()) {
    findings = described;
  } else {
    out << "run " << (*journal)->run().id << " in " << PrintedText((*journal)->directory()) << "\n";
    findings = SweepAll(options, *opened, *registry, history, **journal, out);
  }
  int exit_status = kExitClean;
  if (!findings.ok()) {
    err << "matload: " << PrintedText(findings.status().message()) << "\n";
    exit_status = ExitStatusFor(findings.status());
  } else if (*findings > 0) {
    exit_status = kExitFindings;
  }
  if (absl::Status finished = FinishWithReport(**journal, exit_status); !finished.ok()) {
    err << "matload: " << PrintedText(finished.message()) << "\n";
    return ExitStatusFor(finished);
  }
  return exit_status;
}

}  // namespace matload
