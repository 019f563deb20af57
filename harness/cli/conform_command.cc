#include "harness/cli/conform_command.h"

#include <iostream>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/cli/progress_reporter.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/store_commands.h"
#include "harness/conform/conform_report.h"
#include "harness/conform/self_test.h"
#include "harness/gpu/program_launch.h"
#include "harness/kernels/planted_bug.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/judged_nothing.h"
#include "harness/runs/verdict_cache.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// ExpectedInConform says which case IDs a conform run of `options` should
// have: those its filter takes, on its compile paths, undefined ones only
// with --undefined and compile checks only with the near misses. With a
// --forms regex no case is certain.
ExpectedHere ExpectedInConform(const ConformanceOptions& options) {
  return [&options](const std::string& id) {
    if (!options.forms.empty() || !options.filter.Selects(id)) return false;
    if (absl::EndsWith(id, ".jit_compile")) return options.illegal;
    const bool undefined = absl::EndsWith(id, ".undefined");
    const absl::string_view form = undefined ? absl::string_view(id).substr(0, id.size() - 10) : absl::string_view(id);
    for (CompilePath path : options.paths) {
      const std::string token = absl::StrReplaceAll(CompilePathName(path), {{"-", "_"}});
      if (absl::EndsWith(form, absl::StrCat(".", token))) return !undefined || options.undefined;
    }
    return false;
  };
}

}  // namespace

ConformanceProgress ConformProgressTo(ProgressReporter& reporter) {
  struct Phase {
    std::string what;
    size_t done = 0;
  };
  auto phase = std::make_shared<Phase>();
  return [&reporter, phase](size_t done, size_t total, const std::string& what) {
    if (what != phase->what || done < phase->done) reporter.StartPhase(absl::StrCat("conform ", what), total);
    *phase = {what, done};
    reporter.SetTotal(total, false);
    reporter.Update(done);
  };
}

std::string ConformOptionsJson(const ConformanceOptions& options, const std::string& filter_text) {
  std::vector<std::string> paths;
  for (CompilePath path : options.paths) paths.emplace_back(CompilePathName(path));
  return nlohmann::json{{"variants", options.variants},
                        {"seed", options.seed},
                        {"forms", options.forms},
                        {"paths", paths},
                        {"undefined", options.undefined},
                        {"near_miss", options.illegal},
                        {"plant", PlantedBugName(options.bug)},
                        {"judge", JudgePlaceName(options.judge)},
                        {"filter", filter_text},
                        {"retries", options.retries},
                        {"first_failures", options.first_failures},
                        {"confirm_all_faults", options.confirm_all_faults}}
      .dump();
}

absl::StatusOr<ConformanceOptions> ParseConformOptionsJson(absl::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  ConformanceOptions options;
  try {
    options.variants = parsed.at("variants");
    options.seed = parsed.at("seed");
    options.forms = parsed.at("forms");
    options.undefined = parsed.at("undefined");
    options.illegal = parsed.at("near_miss");
    options.retries = parsed.at("retries");
    options.first_failures = parsed.at("first_failures");
    options.confirm_all_faults = parsed.at("confirm_all_faults");
    options.paths.clear();
    for (const nlohmann::json& name : parsed.at("paths")) {
      absl::StatusOr<CompilePath> path = ParseCompilePath(name.get<std::string>());
      if (!path.ok()) return absl::DataLossError(absl::StrCat("recorded conform options: ", path.status().message()));
      options.paths.push_back(*path);
    }
    absl::StatusOr<PlantedBug> bug = ParsePlantedBug(parsed.at("plant").get<std::string>());
    if (!bug.ok()) return absl::DataLossError(absl::StrCat("recorded conform options: ", bug.status().message()));
    options.bug = *bug;
    // Runs recorded before the GPU judge (2026-11-28) were judged on the host.
    absl::StatusOr<JudgePlace> judge = ParseJudgePlace(parsed.value("judge", "host"));
    if (!judge.ok()) return absl::DataLossError(absl::StrCat("recorded conform options: ", judge.status().message()));
    options.judge = *judge;
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("recorded conform options do not read back: ", error.what()));
  }
  return options;
}

int RunConform(ConformRequest request, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  ConformanceOptions& options = request.options;
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(request.start);
  if (!journal.ok()) return ReportFailure(err, journal.status());
  options.run_directory = (*journal)->directory();
  options.journal = journal->get();
  absl::StatusOr<std::unique_ptr<VerdictCache>> fault_memory =
      request.no_cache ? std::unique_ptr<VerdictCache>() : VerdictCache::Open(request.start.db);
  if (!fault_memory.ok()) return ReportFailure(err, fault_memory.status());
  options.fault_memory = fault_memory->get();
  err << "run " << (*journal)->run().id << ((*journal)->resumed() ? " (resumed)" : "") << " in "
      << PrintedText(options.run_directory) << "\n";
  absl::StatusOr<ConformanceResult> result = [&] {
    ProgressReporter reporter(err, "cases", ProgressReporter::ForStderr(request.progress_seconds, false));
    return RunConformance(options, ConformProgressTo(reporter));
  }();
  absl::StatusOr<std::vector<CaseRecord>> cases = result.ok() ? (*journal)->Cases() : result.status();
  if (result.ok() && !cases.ok()) return ReportFailure(err, cases.status());
  // A shard may take no case; its merged run is held to it (matload merge).
  if (result.ok() && cases->empty() && !request.start.shard.has_value()) {
    result = JudgedNothing("conform", !options.filter.SelectsAll() || !options.forms.empty());
  }
  int status = !result.ok() ? ReportFailure(err, result.status()) : result->findings == 0 ? 0 : 1;
  if (result.ok()) {
    out << ConformanceSummaryMarkdown(options, *result) << "\nrun " << (*journal)->run().id
        << "; results: " << PrintedText(options.run_directory) << "/results.tsv\n";
  }
  if (result.ok() && request.baseline.has_value()) {
    status = BaselineExitStatus(*request.baseline, *cases, ExpectedInConform(options), request.strict_baseline, out);
  }
  if (absl::Status finished = FinishWithReport(**journal, status); !finished.ok()) return ReportFailure(err, finished);
  return status;
}

int RunSelfTestCommand(int device, const std::string& directory, int progress_seconds, std::ostream& out,
                       std::ostream& err) {
  InstallInterruptHandlers();
  absl::StatusOr<std::vector<SelfTestRow>> rows = [&] {
    ProgressReporter reporter(err, "cases", ProgressReporter::ForStderr(progress_seconds, false));
    return RunSelfTest(device, directory, ConformProgressTo(reporter));
  }();
  if (!rows.ok()) return ReportFailure(err, rows.status());
  const std::string table = SelfTestMarkdown(*rows);
  if (absl::Status written =
          WriteFile(directory + "/selftest.md",
                    absl::StrCat("# matload selftest\n\n", (*rows)[0].result.identity, "\n\n", table));
      !written.ok()) {
    return ReportFailure(err, written);
  }
  out << table;
  for (const SelfTestRow& row : *rows) {
    if (!row.detected) return 1;
  }
  return 0;
}

}  // namespace matload
