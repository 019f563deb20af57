#include "harness/conform/conform_report.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/platform/output_files.h"
#include "harness/report/sm_verdicts_view.h"
#include "harness/runs/case_counts.h"

namespace matload {
namespace {

// PhasesJson is the phases as summary.json lists them.
nlohmann::json PhasesJson(const std::vector<ConformancePhase>& phases) {
  nlohmann::json list = nlohmann::json::array();
  for (const ConformancePhase& phase : phases) {
    list.push_back({{"what", phase.what}, {"launches", phase.launches}, {"seconds", phase.seconds}});
  }
  return list;
}

// WorkerSecondsJson is `seconds` as summary.json names them.
nlohmann::json WorkerSecondsJson(const WorkerSeconds& seconds) {
  return {{"items", seconds.items},     {"pipeline", seconds.pipeline},     {"launching", seconds.launching},
          {"judging", seconds.judging}, {"generating", seconds.generating}, {"starting", seconds.starting},
          {"loading", seconds.loading}};
}

}  // namespace

std::string TsvField(absl::string_view text) {
  std::string field(text);
  std::replace_if(
      field.begin(), field.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return field;
}

void AddPhase(const ConformancePhase& phase, std::vector<ConformancePhase>& phases) {
  for (ConformancePhase& known : phases) {
    if (known.what != phase.what) continue;
    known.launches += phase.launches;
    known.seconds += phase.seconds;
    return;
  }
  phases.push_back(phase);
}

// PerSmMarkdown says, for each GPU, how its SMs judged (SmSentence).
std::string PerSmMarkdown(const ConformanceResult& result) {
  std::string text;
  for (const GpuSms& gpu : ByGpu(result.per_sm)) absl::StrAppend(&text, "\n", SmSentence(gpu), "\n");
  return text;
}

nlohmann::json TotalsJson(const ConformanceResult& result) {
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) counts[family][std::to_string(static_cast<int>(kind))] = count;
  }
  nlohmann::json phases = nlohmann::json::array();
  for (const ConformancePhase& phase : result.phases) phases.push_back({phase.what, phase.launches, phase.seconds});
  nlohmann::json totals = {{"counts", counts},
                           {"launches", result.launches},
                           {"words", result.words_compared},
                           {"failing_variants", result.failing_variants},
                           {"findings", result.findings},
                           {"explained", result.illegal_explained},
                           {"misses", result.registry_misses},
                           {"seconds", result.device_seconds},
                           {"phases", phases},
                           {"executions", result.executions},
                           {"judged_on_device", result.judged_on_device},
                           {"per_sm", SmVerdictsJson(result.per_sm)},
                           {"retries", result.infrastructure_retries},
                           {"retry_causes", result.retry_causes},
                           {"flakes", result.flakes},
                           {"remembered", result.confirmations_remembered},
                           {"worker", result.worker_seconds.List()},
                           {"not_run", result.not_run}};
  if (result.target != Target()) totals["target"] = result.target.Name();
  return totals;
}

namespace {

// JoinWithoutRepeats appends the lines of `more` that `lines` lacks.
void JoinWithoutRepeats(const std::vector<std::string>& more, std::vector<std::string>& lines) {
  for (const std::string& line : more) {
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
}

// AddTarget takes the target `name` into `result`, which the first totals
// name and the rest must agree with. Totals recorded before the target was
// kept (2026-11-24) have none.
absl::Status AddTarget(const nlohmann::json& name, ConformanceResult& result) {
  if (name.is_null()) return absl::OkStatus();
  absl::StatusOr<Target> target = ParseTarget(name.get<std::string>());
  if (!target.ok()) return absl::DataLossError(absl::StrCat("recorded conform totals: ", target.status().message()));
  if (result.target != Target() && result.target != *target) {
    return absl::DataLossError(absl::StrCat("recorded conform totals are for ", target->Name(), " and ",
                                            result.target.Name(), ": they are not one run's"));
  }
  result.target = *target;
  return absl::OkStatus();
}

}  // namespace

absl::Status AddTotals(const nlohmann::json& json, ConformanceResult& result) {
  try {
    for (const auto& [family, classes] : json.at("counts").items()) {
      for (const auto& [kind, count] : classes.items()) {
        const CaseClass case_class = static_cast<CaseClass>(std::stoi(kind));
        size_t& counted = result.counts[family][case_class];
        counted = case_class == CaseClass::kUnsupported ? std::max(counted, count.get<size_t>())
                                                        : counted + count.get<size_t>();
      }
    }
    for (const nlohmann::json& phase : json.at("phases"))
      AddPhase({phase.at(0), phase.at(1), phase.at(2)}, result.phases);
    result.launches += json.at("launches").get<size_t>();
    result.words_compared += json.at("words").get<size_t>();
    result.failing_variants += json.at("failing_variants").get<size_t>();
    result.findings += json.at("findings").get<size_t>();
    result.illegal_explained += json.at("explained").get<size_t>();
    JoinWithoutRepeats(json.at("misses").get<std::vector<std::string>>(), result.registry_misses);
    result.device_seconds += json.at("seconds").get<double>();
    result.executions += json.at("executions").get<size_t>();
    // Totals recorded before the GPU judge (2026-11-28) have none.
    result.judged_on_device += json.value("judged_on_device", size_t{0});
    absl::StatusOr<SmVerdicts> per_sm = ParseSmVerdicts(json.value("per_sm", nlohmann::json::array()));
    if (!per_sm.ok()) return per_sm.status();
    AddSmVerdicts(*per_sm, result.per_sm);
    result.infrastructure_retries += json.at("retries").get<size_t>();
    // Totals recorded before the retries' causes (2026-11-28) have none.
    JoinWithoutRepeats(json.value("retry_causes", std::vector<std::string>()), result.retry_causes);
    if (result.retry_causes.size() > kRetryCausesKept) result.retry_causes.resize(kRetryCausesKept);
    result.flakes += json.at("flakes").get<size_t>();
    // Totals recorded before the fault memory (2026-11-26) have no count.
    result.confirmations_remembered += json.value("remembered", size_t{0});
    // Totals recorded before the workers' seconds (2026-11-27) have none.
    if (const nlohmann::json& worker = json.value("worker", nlohmann::json::array()); !worker.empty()) {
      result.worker_seconds.Add(WorkerSeconds::FromList(worker));
    }
    JoinWithoutRepeats(json.value("not_run", std::vector<std::string>()), result.not_run);
    return AddTarget(json.value("target", nlohmann::json()), result);
  } catch (const std::exception& error) {
    return absl::DataLossError(absl::StrCat("the recorded conform totals do not read back: ", error.what()));
  }
}

std::string CaseTable(const std::string& identity, const std::vector<CaseRecord>& cases) {
  std::string table = absl::StrCat("# ", identity, "\n# case\toutcome\tvariants by outcome\tfirst failing ",
                                   "variants\tdetail\tbundle\n");
  for (const CaseRecord& record : cases) {
    absl::StrAppend(&table, record.id, "\t", CaseOutcomeWord(record.outcome), "\t", CountsText(record, ","), "\t",
                    absl::StrJoin(record.first_failures, ","), "\t", TsvField(record.detail), "\t", record.bundle,
                    "\n");
  }
  return table;
}

absl::Status WriteSummaries(const ConformanceOptions& options, const ConformanceResult& result) {
  const std::filesystem::path directory(options.run_directory);
  if (absl::Status written = WriteFile(directory / "summary.md", ConformanceSummaryMarkdown(options, result));
      !written.ok()) {
    return written;
  }
  return WriteFile(directory / "summary.json", SummaryJson(options, result).dump(2) + "\n");
}

nlohmann::json SummaryJson(const ConformanceOptions& options, const ConformanceResult& result) {
  nlohmann::json counts;
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) counts[family][std::string(CaseClassName(kind))] = count;
  }
  nlohmann::json summary = {{"identity", result.identity},
                            {"target", result.target.Name()},
                            {"seed", options.seed},
                            {"variants", options.variants},
                            {"counts", counts},
                            {"words_compared", result.words_compared},
                            {"failing_variants", result.failing_variants},
                            {"findings", result.findings},
                            {"bundles", result.bundles},
                            {"not_run", result.not_run},
                            {"registry_misses", result.registry_misses},
                            {"device_seconds", result.device_seconds},
                            {"phases", PhasesJson(result.phases)},
                            {"worker_seconds", WorkerSecondsJson(result.worker_seconds)},
                            {"executions", result.executions},
                            {"judge", JudgePlaceName(options.judge)},
                            {"judged_on_device", result.judged_on_device},
                            {"per_sm", SmVerdictsJson(result.per_sm)},
                            {"infrastructure_retries", result.infrastructure_retries},
                            {"retry_causes", result.retry_causes},
                            {"flakes", result.flakes},
                            {"confirmations_remembered", result.confirmations_remembered},
                            {"stopped", result.stopped}};
  return summary;
}

std::string ConformanceSummaryMarkdown(const ConformanceOptions& options, const ConformanceResult& result) {
  return absl::StrCat("# matload conform: ", result.target.Name(), "\n\n", result.identity, "\n\nseed ", options.seed,
                      ", ", options.variants, " variants per form, ", ConformanceTotalsMarkdown(options, result));
}

std::string ConformanceTotalsMarkdown(const ConformanceOptions& options, const ConformanceResult& result) {
  std::vector<CaseClass> columns;
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) {
      if (std::find(columns.begin(), columns.end(), kind) == columns.end()) columns.push_back(kind);
    }
  }
  std::sort(columns.begin(), columns.end());
  std::string text = "compile paths: ";
  std::vector<std::string> paths;
  for (CompilePath path : options.paths) paths.push_back(std::string(CompilePathName(path)));
  absl::StrAppend(&text, absl::StrJoin(paths, ", "), options.undefined ? ", undefined cases included" : "",
                  options.bug != PlantedBug::kNone ? absl::StrCat(", planted bug: ", PlantedBugName(options.bug)) : "",
                  "\n\n| family |");
  for (CaseClass kind : columns) absl::StrAppend(&text, " ", CaseClassName(kind), " |");
  absl::StrAppend(&text, "\n|---|");
  for (size_t i = 0; i < columns.size(); ++i) absl::StrAppend(&text, "---:|");
  for (const auto& [family, classes] : result.counts) {
    absl::StrAppend(&text, "\n| ", family, " |");
    for (CaseClass kind : columns) {
      const auto found = classes.find(kind);
      absl::StrAppend(&text, " ", found == classes.end() ? 0 : found->second, " |");
    }
  }
  absl::StrAppend(&text, "\n\n", result.executions, " executions judged (", result.judged_on_device,
                  " by the GPU alone; judge: ", JudgePlaceName(options.judge), "), ", result.words_compared,
                  " register words compared; ", result.failing_variants, " failing variants in ", result.findings,
                  " findings (cases) and ", result.bundles,
                  " distinct bundles; near-miss forms the JIT accepts that the registry explains: ",
                  result.illegal_explained, ".\n",
                  absl::StrFormat("GPU phase: %.1f s for %d launches (JIT, launch, copy and judging included)",
                                  result.device_seconds, result.launches));
  std::vector<std::string> phases;
  for (const ConformancePhase& phase : result.phases) {
    phases.push_back(absl::StrFormat("%s %.1f s (%d launches)", phase.what, phase.seconds, phase.launches));
  }
  absl::StrAppend(&text, phases.empty() ? "" : ": ", absl::StrJoin(phases, ", "), ".\n", PerSmMarkdown(result));
  if (const WorkerSeconds& worker = result.worker_seconds; worker.items > 0) {
    absl::StrAppend(
        &text, "\n",
        absl::StrFormat("The workers' items took %.1f s, summed over workers; %.1f s of it starting workers (the "
                        "driver and a GPU context each) and %.1f s in the launch pipeline, whose launches took "
                        "%.1f s (%.1f s of it loading modules) while its host threads spent %.1f s judging and "
                        "%.1f s making variants (the mean of a pipeline's threads).\n",
                        worker.items, worker.starting, worker.pipeline, worker.launching, worker.loading,
                        worker.judging, worker.generating));
  }
  if (result.confirmations_remembered > 0) {
    absl::StrAppend(&text, "\n", result.confirmations_remembered,
                    " registry predictions were taken as confirmed without a launch: an earlier round of the "
                    "soak confirmed each, or the results store remembers its fault from a run with the same GPU "
                    "model, driver, kernel and inputs (--no-cache runs those).\n");
  }
  if (result.flakes > 0) {
    absl::StrAppend(&text, "\n", result.flakes,
                    " cases failed and then behaved otherwise when re-run: each is a \"flake\" in results.tsv, with "
                    "every attempt, and still a finding.\n");
  }
  if (result.infrastructure_retries > 0) {
    absl::StrAppend(&text, "\n", result.infrastructure_retries,
                    " launches could not be judged at first (an infrastructure failure, never a finding) and were "
                    "tried again in fresh workers. Why:\n");
    for (const std::string& cause : result.retry_causes) absl::StrAppend(&text, "- ", cause, "\n");
  }
  if (!result.stopped.empty()) {
    absl::StrAppend(&text, "\n**The run stopped before judging every case**: ", result.stopped,
                    "\nThe counts above are the cases judged until then; none of the cases left is a pass or a "
                    "finding.\n");
  }
  if (!result.registry_misses.empty()) {
    absl::StrAppend(&text, "\nRegistry entries that predicted a fault which did not happen (findings):\n");
    for (const std::string& line : result.registry_misses) absl::StrAppend(&text, "- ", line, "\n");
  }
  if (!result.not_run.empty()) {
    absl::StrAppend(&text, "\nNot run here:\n");
    for (const std::string& line : result.not_run) absl::StrAppend(&text, "- ", line, "\n");
  }
  return text;
}

}  // namespace matload
