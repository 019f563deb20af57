#include "harness/conform/conform_near_miss.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/conform/near_miss_report.h"
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

// SweepReport runs in the worker: the sweep of `target` at `ptx`, as the
// report the run reads back (NearMissReport).
absl::StatusOr<std::string> SweepReport(int ordinal, const ConformanceOptions& options,
                                        const DiscrepancyRegistry& registry, Target target, PtxVersion ptx) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(ordinal);
  if (!jit.ok()) return jit.status();
  SweepHooks hooks{.select = [&](const std::string& id) { return options.filter.Selects(CompileCaseId(id)); }};
  absl::StatusOr<SupportSweep> sweep = RunSupportSweep(**jit, registry, {target}, ptx, 1, nullptr, "", hooks);
  if (!sweep.ok()) return sweep.status();
  NearMissReport report{.near_miss = sweep->summaries[0].near_miss};
  for (const Disagreement& disagreement : sweep->disagreements) {
    report.disagreements.push_back({.model_legal = disagreement.model_legal, .registry_id = disagreement.registry_id});
  }
  for (CaseRecord& record : sweep->cases) {
    report.cases.push_back({.id = CompileCaseId(record.id),
                            .outcome = record.outcome,
                            .finding = record.finding,
                            .detail = std::move(record.detail),
                            .seconds = record.seconds});
  }
  return report.Encode();
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
absl::StatusOr<std::vector<CaseRecord>> ReadSweepReport(absl::string_view text, ConformanceResult& result) {
  absl::StatusOr<NearMissReport> report = NearMissReport::Decode(text);
  if (!report.ok()) return report.status();
  size_t accepted = 0;
  std::map<CaseClass, size_t>& counts = result.counts["compile (all operand styles)"];
  for (const NearMissReport::Disagreement& disagreement : report->disagreements) {
    if (!disagreement.model_legal) ++accepted;
    if (!disagreement.registry_id.empty()) {
      ++result.illegal_explained;
      continue;
    }
    ++counts[disagreement.model_legal ? CaseClass::kLegalRejected : CaseClass::kIllegalAccepted];
    ++result.failing_variants;  // a near-miss form is judged once
    ++result.findings;
  }
  counts[CaseClass::kIllegalRejected] += report->near_miss - accepted;
  return std::move(report->cases);
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
