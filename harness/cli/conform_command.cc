#include "harness/cli/conform_command.h"

#include <iostream>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/cli/progress_reporter.h"
#include "harness/cli/store_commands.h"
#include "harness/conform_report.h"
#include "harness/interrupt.h"
#include "harness/output_files.h"
#include "harness/self_test.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// ReportTo passes a conformance run's progress to `reporter`, each kind of
// item (forms, registry confirmations, re-runs, ...) a phase of its own;
// the self-test's runs start their phases again.
ConformanceProgress ReportTo(ProgressReporter& reporter) {
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

int FailureStatus(const absl::Status& status, std::ostream& err) {
  err << "matload: " << status.message() << "\n";
  return ExitStatusFor(status);
}

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

std::string ConformOptionsJson(const ConformanceOptions& options, const std::string& filter_text) {
  std::vector<std::string> paths;
  for (CompilePath path : options.paths) paths.emplace_back(CompilePathName(path));
  return nlohmann::json{{"variants", options.variants}, {"seed", options.seed},
                        {"forms", options.forms},       {"paths", paths},
                        {"undefined", options.undefined}, {"near_miss", options.illegal},
                        {"plant", PlantedBugName(options.bug)}, {"filter", filter_text},
                        {"retries", options.retries}, {"first_failures", options.first_failures},
                        {"confirm_all_faults", options.confirm_all_faults}}
      .dump();
}

int RunConform(ConformRequest request, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  ConformanceOptions& options = request.options;
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(request.start);
  if (!journal.ok()) return FailureStatus(journal.status(), err);
  options.run_directory = (*journal)->directory();
  options.journal = journal->get();
  err << "run " << (*journal)->run().id << ((*journal)->resumed() ? " (resumed)" : "") << " in "
      << options.run_directory << "\n";
  absl::StatusOr<ConformanceResult> result = [&] {
    ProgressReporter reporter(err, "cases", ProgressReporter::ForStderr(request.progress_seconds, false));
    return RunConformance(options, ReportTo(reporter));
  }();
  int status = !result.ok() ? FailureStatus(result.status(), err) : result->findings == 0 ? 0 : 1;
  if (result.ok()) {
    out << ConformanceSummaryMarkdown(options, *result) << "\nrun " << (*journal)->run().id << "; results: "
        << options.run_directory << "/results.tsv\n";
  }
  if (result.ok() && request.baseline.has_value()) {
    absl::StatusOr<std::vector<CaseRecord>> cases = (*journal)->Cases();
    if (!cases.ok()) return FailureStatus(cases.status(), err);
    status = BaselineExitStatus(*request.baseline, *cases, ExpectedInConform(options), request.strict_baseline, out);
  }
  if (absl::Status finished = (*journal)->Finish(status); !finished.ok()) return FailureStatus(finished, err);
  return status;
}

int RunSelfTestCommand(int device, const std::string& directory, int progress_seconds, std::ostream& out,
                       std::ostream& err) {
  InstallInterruptHandlers();
  absl::StatusOr<std::vector<SelfTestRow>> rows = [&] {
    ProgressReporter reporter(err, "cases", ProgressReporter::ForStderr(progress_seconds, false));
    return RunSelfTest(device, directory, ReportTo(reporter));
  }();
  if (!rows.ok()) return FailureStatus(rows.status(), err);
  const std::string table = SelfTestMarkdown(*rows);
  if (absl::Status written =
          WriteFile(directory + "/selftest.md",
                    absl::StrCat("# matload selftest\n\n", (*rows)[0].result.identity, "\n\n", table));
      !written.ok()) {
    return FailureStatus(written, err);
  }
  out << table;
  for (const SelfTestRow& row : *rows) {
    if (!row.detected) return 1;
  }
  return 0;
}

}  // namespace matload
