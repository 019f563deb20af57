#include "harness/cli/soak_command.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/cli/conform_command.h"
#include "harness/cli/flags.h"
#include "harness/cli/progress_reporter.h"
#include "harness/cli/run_reports.h"
#include "harness/conform/conform_report.h"
#include "harness/conform/soak_round_size.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/report/report_view.h"
#include "harness/runs/judged_nothing.h"
#include "harness/runs/sm_verdicts.h"
#include "harness/runs/soak_rounds.h"
#include "harness/runs/verdict_cache.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// RoundLine is the line a finished round prints: what it judged, how fast,
// and how far the soak has come.
std::string RoundLine(const SoakRound& round, absl::Duration elapsed, absl::Duration duration) {
  return absl::StrCat(
      "soak round ", round.index, " (", RoundReplay(round), "): ", Thousands(round.executions), " executions in ",
      absl::StrFormat("%.1f", round.seconds), " s (", ExecutionRate(round.executions, round.seconds), "), ",
      round.findings, " findings; ",
      absl::StrFormat("%.1f of %.0f minutes", absl::ToDoubleMinutes(elapsed), absl::ToDoubleMinutes(duration)));
}

// RoundArtifacts are what the store keeps of the soak besides its cases:
// its rounds and the GPU judge's counts by GPU and SM.
std::map<std::string, std::string> RoundArtifacts(const SoakTally& tally) {
  return {{kSmVerdictsArtifact, SmVerdictsJson(tally.Totals().per_sm).dump()},
          {kSoakRoundsArtifact, SoakRoundsJson(tally.rounds()).dump()}};
}

// SoakRounds runs rounds until the time, the rounds or a failure end the
// soak, storing the rounds so far in `journal` after each, and returns the
// failure that stopped it, if one did.
absl::Status SoakRounds(const SoakRequest& request, const std::string& directory, SoakTally& tally, RunJournal& journal,
                        std::ostream& err) {
  const absl::Time start = absl::Now();
  ProgressReporter reporter(err, "cases", ProgressReporter::ForStderr(request.progress_seconds, false));
  const ConformanceProgress progress = ConformProgressTo(reporter);
  const RoundSizing sizing{
      .first = request.options.variants, .target = request.round_target, .most = kMaxConformVariants};
  for (int round = 0; request.max_rounds == 0 || round < request.max_rounds; ++round) {
    if (round > 0 && absl::Now() - start >= request.duration) break;
    ConformanceOptions options = request.options;
    options.seed = SoakRoundSeed(request.options.seed, round);
    if (round > 0) {
      const SoakRound& last = tally.rounds().back();
      options.variants = static_cast<int>(NextRoundVariants(sizing, last.variants, absl::Seconds(last.seconds),
                                                            request.duration - (absl::Now() - start)));
    }
    options.run_directory = absl::StrCat(directory, "/", SoakRoundDirectory(round));
    options.journal = nullptr;
    options.confirmed_earlier = &tally.confirmed();
    const absl::Time round_start = absl::Now();
    absl::StatusOr<ConformanceResult> result = RunConformance(options, progress);
    if (!result.ok()) return result.status();
    SoakRound done{.index = round,
                   .seed = options.seed,
                   .variants = options.variants,
                   .seconds = absl::ToDoubleSeconds(absl::Now() - round_start)};
    if (absl::Status added = tally.AddRound(done, *result); !added.ok()) return added;
    // The rounds so far, stored as each ends: a soak killed later keeps what they judged in the store.
    if (absl::Status recorded = journal.Record({}, RoundArtifacts(tally)); !recorded.ok()) return recorded;
    err << RoundLine(tally.rounds().back(), absl::Now() - start, request.duration) << "\n";
  }
  return absl::OkStatus();
}

// SummaryMarkdown is summary.md, which the soak prints too: its rounds,
// then its totals as conform's summary has them.
std::string SummaryMarkdown(const SoakRequest& request, const SoakTally& tally, const ConformanceResult& totals) {
  double seconds = 0;
  for (const SoakRound& round : tally.rounds()) seconds += round.seconds;
  return absl::StrCat("# matload soak: ", totals.target.Name(), "\n\n", totals.identity, "\n\n", tally.rounds().size(),
                      " rounds in ", absl::StrFormat("%.1f", seconds / 60), " minutes, seeded with ",
                      request.options.seed, "; each round ran ", request.options.variants,
                      " variants per form with a seed of its own:\n\n", SoakRoundsMarkdown(tally.rounds()), "\n",
                      ConformanceTotalsMarkdown(request.options, totals));
}

// TotalsOf is the soak's totals, saying what stopped it (`stopped`) if
// anything did, as conform's summary does.
ConformanceResult TotalsOf(const SoakTally& tally, const absl::Status& stopped) {
  ConformanceResult totals = tally.Totals();
  if (!stopped.ok()) totals.stopped = std::string(stopped.message());
  return totals;
}

// RecordSoak stores the soak's cases with its rounds and SM counts, and
// writes its results.tsv, summary.md and summary.json, which say what
// stopped it (`stopped`) if anything did.
absl::Status RecordSoak(const SoakRequest& request, const std::string& directory, const SoakTally& tally,
                        const absl::Status& stopped, RunJournal& journal) {
  const ConformanceResult totals = TotalsOf(tally, stopped);
  if (absl::Status recorded = journal.Record(totals.cases, RoundArtifacts(tally)); !recorded.ok()) return recorded;
  nlohmann::json summary = SummaryJson(request.options, totals);
  summary["rounds"] = SoakRoundsJson(tally.rounds());
  const std::vector<std::pair<std::string, std::string>> files = {
      {"results.tsv", CaseTable(totals.identity, totals.cases)},
      {"summary.md", SummaryMarkdown(request, tally, totals)},
      {"summary.json", summary.dump(2) + "\n"}};
  for (const auto& [name, text] : files) {
    if (absl::Status written = WriteFile(absl::StrCat(directory, "/", name), text); !written.ok()) return written;
  }
  return absl::OkStatus();
}

}  // namespace

std::string SoakOptionsJson(const SoakRequest& request, const std::string& filter_text) {
  const ConformanceOptions& options = request.options;
  std::vector<std::string> paths;
  for (CompilePath path : options.paths) paths.emplace_back(CompilePathName(path));
  return nlohmann::json{{"minutes", absl::ToDoubleMinutes(request.duration)},
                        {"rounds", request.max_rounds},
                        {"round_variants", options.variants},
                        {"round_seconds", absl::ToDoubleSeconds(request.round_target)},
                        {"seed", options.seed},
                        {"forms", options.forms},
                        {"paths", paths},
                        {"plant", PlantedBugName(options.bug)},
                        {"judge", JudgePlaceName(options.judge)},
                        {"filter", filter_text},
                        {"retries", options.retries},
                        {"first_failures", options.first_failures}}
      .dump();
}

std::string SoakRoundsMarkdown(const std::vector<SoakRound>& rounds) {
  std::string table =
      "| round | conform --seed | --variants | seconds | executions | rate | judged on the GPU | findings |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const SoakRound& round : rounds) {
    absl::StrAppend(&table, "| ", round.index, " | ", round.seed, " | ", Thousands(round.variants), " | ",
                    absl::StrFormat("%.1f", round.seconds), " | ", Thousands(round.executions), " | ",
                    ExecutionRate(round.executions, round.seconds), " | ", Thousands(round.judged_on_device), " | ",
                    round.findings, " |\n");
  }
  return table;
}

int RunSoak(SoakRequest request, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(request.start);
  if (!journal.ok()) return ReportFailure(err, journal.status());
  absl::StatusOr<std::unique_ptr<VerdictCache>> fault_memory =
      request.no_cache ? std::unique_ptr<VerdictCache>() : VerdictCache::Open(request.start.db);
  if (!fault_memory.ok()) return ReportFailure(err, fault_memory.status());
  request.options.fault_memory = fault_memory->get();
  const std::string directory = (*journal)->directory();
  err << "run " << (*journal)->run().id << " in " << PrintedText(directory) << "\n";
  SoakTally tally;
  // The GPUs are probed once for every round (ConformanceOptions::probed).
  const absl::StatusOr<std::vector<DeviceProbe>> probes = ProbeRunDevices(request.options);
  if (probes.ok()) request.options.probed = &*probes;
  const absl::Status described = probes.ok() ? DescribeRun(request.options, **journal) : probes.status();
  absl::Status soaked = described.ok() ? SoakRounds(request, directory, tally, **journal, err) : described;
  if (described.ok()) {
    if (absl::Status recorded = RecordSoak(request, directory, tally, soaked, **journal); !recorded.ok()) {
      soaked = recorded;
    }
  }
  const ConformanceResult totals = TotalsOf(tally, soaked);
  if (soaked.ok() && totals.cases.empty()) {
    soaked = JudgedNothing("soak", !request.options.filter.SelectsAll() || !request.options.forms.empty());
  }
  const int status = !soaked.ok() ? ReportFailure(err, soaked) : totals.findings == 0 ? kExitClean : kExitFindings;
  if (!tally.rounds().empty()) {
    out << SummaryMarkdown(request, tally, totals) << "\nrun " << (*journal)->run().id
        << "; results: " << PrintedText(directory) << "/results.tsv\n";
  }
  if (absl::Status finished = FinishWithReport(**journal, status); !finished.ok()) return ReportFailure(err, finished);
  return status;
}

}  // namespace matload
