#include "harness/conform/conform_near_miss.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/conform/conform_report.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/gpu/program_launch.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/output_files.h"
#include "harness/support/support_sweep.h"
#include "reference/ptx_version.h"

namespace matload {
namespace {

// kAttempts is how often the sweep is tried, each time in a fresh worker,
// when an infrastructure failure spoils it.
constexpr size_t kAttempts = 3;

// CompileCaseId names a conform run's compile check of a support case
// (harness/runs/case_id.h): the case without its target, on the JIT,
// "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.jit_compile".
std::string CompileCaseId(absl::string_view support_id) {
  return absl::StrCat(support_id.substr(support_id.find('.') + 1), ".jit_compile");
}

// SweepReport runs in the worker: the sweep of `target` at `ptx`, as lines the run
// reads back (ReadSweepReport): the near-miss count, then one line per
// disagreement and one per case.
absl::StatusOr<std::string> SweepReport(int ordinal, const ConformanceOptions& options,
                                        const DiscrepancyRegistry& registry, Target target, PtxVersion ptx) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(ordinal);
  if (!jit.ok()) return jit.status();
  SweepHooks hooks{.select = [&](const std::string& id) { return options.filter.Selects(CompileCaseId(id)); }};
  absl::StatusOr<SupportSweep> sweep = RunSupportSweep(**jit, registry, {target}, ptx, 1, nullptr, "", hooks);
  if (!sweep.ok()) return sweep.status();
  std::string text = absl::StrCat(sweep->summaries[0].near_miss, "\n");
  for (const Disagreement& disagreement : sweep->disagreements) {
    absl::StrAppend(&text, disagreement.model_legal ? "legal" : "illegal", "\t", disagreement.registry_id, "\t",
                    disagreement.instruction, "\t", absl::StrJoin(disagreement.compiler_messages, " | "), "\n");
  }
  for (const CaseRecord& record : sweep->cases) {
    absl::StrAppend(&text, "case\t", CompileCaseId(record.id), "\t", CaseOutcomeWord(record.outcome), "\t",
                    record.finding ? 1 : 0, "\t", record.seconds, "\t", TsvField(record.detail), "\n");
  }
  return text;
}

// SweepOnce is one attempt, in a fresh worker; it returns the worker's report.
absl::StatusOr<std::string> SweepOnce(int ordinal, const ConformanceOptions& options,
                                      const DiscrepancyRegistry& registry, Target target, PtxVersion ptx) {
  absl::StatusOr<std::vector<ItemResult>> swept = RunIsolated(
      1, [&](int) { return SweepReport(ordinal, options, registry, target, ptx); }, std::chrono::minutes(9));
  if (!swept.ok()) return swept.status();
  const ItemResult& sweep = (*swept)[0];
  if (sweep.kind == ItemResult::Kind::kNotRun) return InterruptedError(PendingInterrupt());
  if (sweep.kind == ItemResult::Kind::kDone) return sweep.output;
  // The sweep judges through the JIT in a worker; one that did not come
  // back said nothing of the forms.
  const LaunchOutcome outcome = ClassifyLaunch(sweep);
  return InfrastructureError(
      outcome.kind == LaunchOutcome::Kind::kInfrastructure ? outcome.cause : InfrastructureCause::kHarnessError,
      absl::StrCat("the near-miss sweep through the driver JIT: ", sweep.output));
}

// ReadSweepReport counts the worker's report into `result` and returns its cases.
absl::StatusOr<std::vector<CaseRecord>> ReadSweepReport(const std::string& report, ConformanceResult& result) {
  std::vector<std::string> lines = absl::StrSplit(report, '\n', absl::SkipEmpty());
  size_t near_miss = 0;
  if (lines.empty() || !absl::SimpleAtoi(lines[0], &near_miss)) return absl::InternalError("bad sweep report");
  size_t accepted = 0;
  std::vector<CaseRecord> records;
  std::map<CaseClass, size_t>& counts = result.counts["compile (all operand styles)"];
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = absl::StrSplit(lines[i], absl::MaxSplits('\t', 5));
    if (fields.size() < 4) return absl::InternalError("bad sweep report line");
    if (fields[0] == "case") {
      double seconds = 0;
      if (fields.size() < 6 || !absl::SimpleAtod(fields[4], &seconds)) {
        return absl::InternalError("bad sweep report case line");
      }
      absl::StatusOr<CaseOutcome> outcome = ParseCaseOutcome(fields[2]);
      if (!outcome.ok()) return outcome.status();
      records.push_back(
          {.id = fields[1], .outcome = *outcome, .finding = fields[3] == "1", .detail = fields[5], .seconds = seconds});
      continue;
    }
    const bool illegal = fields[0] == "illegal";
    if (illegal) ++accepted;
    if (!fields[1].empty()) {
      ++result.illegal_explained;
      continue;
    }
    ++counts[illegal ? CaseClass::kIllegalAccepted : CaseClass::kLegalRejected];
    ++result.failing_variants;  // a near-miss form is judged once
    ++result.findings;
  }
  counts[CaseClass::kIllegalRejected] += near_miss - accepted;
  return records;
}

}  // namespace

NearMissSweep SweepNearMisses(int ordinal, const ConformanceOptions& options, const DiscrepancyRegistry& registry,
                              Target target, PtxVersion ptx) {
  NearMissSweep sweep{.report = SweepOnce(ordinal, options, registry, target, ptx)};
  while (sweep.retries + 1 < kAttempts && InfrastructureCauseOf(sweep.report.status()).has_value()) {
    ++sweep.retries;
    sweep.report = SweepOnce(ordinal, options, registry, target, ptx);
  }
  return sweep;
}

absl::Status RecordNearMisses(NearMissSweep sweep, ConformanceResult& result, ConformRecorder& recorder) {
  result.infrastructure_retries += sweep.retries;
  if (!sweep.report.ok()) return sweep.report.status();
  absl::StatusOr<std::vector<CaseRecord>> records = ReadSweepReport(*sweep.report, result);
  if (!records.ok()) return records.status();
  return recorder.Commit(*std::move(records), {{std::string(ConformRecorder::kNearMissKey), "done"}});
}

}  // namespace matload
