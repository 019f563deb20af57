#include "harness/triage/replay.h"

#include <variant>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/gpu/program_launch.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"

namespace matload {
namespace {

// LaunchOnce is a worker's item: one launch of the request's image.
absl::StatusOr<std::string> LaunchOnce(const ReplayRequest& request) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(request.ordinal);
  if (!jit.ok()) return jit.status();
  absl::StatusOr<std::vector<std::uint8_t>> output =
      (*jit)->Launch(request.image, KernelLaunchFor(*request.program, 1, request.record));
  if (!output.ok()) return output.status();
  return std::string(output->begin(), output->end());
}

// Judge judges one run as conform judges a launch (ClassifyLaunch,
// harness/gpu/launch_outcome.h), or says why it is no verdict.
absl::StatusOr<CaseVerdict> Judge(const ItemResult& run, const Outcome& expected) {
  if (run.kind == ItemResult::Kind::kNotRun) return InterruptedError(PendingInterrupt());
  const LaunchOutcome outcome = ClassifyLaunch(run);
  switch (outcome.kind) {
    case LaunchOutcome::Kind::kRan: {
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(run.output.data());
      return JudgeOutput(expected, absl::MakeConstSpan(bytes, run.output.size()));
    }
    case LaunchOutcome::Kind::kCompileRejected: return CaseVerdict{CaseClass::kLegalRejected, {}, outcome.detail};
    case LaunchOutcome::Kind::kKernelFault: return JudgeFault(expected, outcome.detail, "");
    case LaunchOutcome::Kind::kKernelHang: return CaseVerdict{CaseClass::kTimeout, {}, outcome.detail};
    case LaunchOutcome::Kind::kInfrastructure: return InfrastructureError(outcome.cause, outcome.detail);
  }
  return absl::InternalError("unknown launch outcome");
}

}  // namespace

std::string FailureSignature(const CaseVerdict& verdict, const Outcome& expected) {
  if (!IsFinding(verdict.kind)) return "pass";
  const std::string kind(CaseClassName(verdict.kind));
  if (verdict.kind == CaseClass::kMismatch) {
    if (const auto* values = std::get_if<LaneValues>(&expected)) {
      return absl::StrCat(kind, "/", MismatchPattern(verdict, *values));
    }
  }
  return absl::StrCat(kind, "/", verdict.detail);
}

std::string FailureKind(absl::string_view signature) {
  constexpr absl::string_view kMismatch = "mismatch/";
  if (!absl::StartsWith(signature, kMismatch)) return std::string(signature);
  return std::string(signature.substr(0, signature.find('-', kMismatch.size())));
}

int ReplayTally::FailuresOfKind(absl::string_view signature) const {
  int failures = 0;
  for (const auto& [seen, count] : signatures) failures += FailureKind(seen) == FailureKind(signature) ? count : 0;
  return failures;
}

int ReplayTally::passes() const { return Failures("pass"); }

int ReplayTally::Failures(absl::string_view signature) const {
  const auto found = signatures.find(std::string(signature));
  return found == signatures.end() ? 0 : found->second;
}

std::string ReplayTally::Describe(absl::string_view signature) const {
  if (passes() == runs) return absl::StrCat("passes (", runs, " runs)");
  return Verdict(signature);
}

std::string ReplayTally::Verdict(absl::string_view signature) const {
  const int failing = FailuresOfKind(signature);
  const char* word = failing == runs ? "reproducible" : failing == 0 ? "does not reproduce" : "flaky";
  return absl::StrCat(word, " (", failing, " of ", runs, " runs fail so)");
}

absl::StatusOr<ReplayTally> Replay(const ReplayRequest& request) {
  absl::StatusOr<std::vector<ItemResult>> runs = RunIsolated(
      request.repeats, [&request](int) { return LaunchOnce(request); }, request.timeout);
  if (!runs.ok()) return runs.status();
  ReplayTally tally;
  for (const ItemResult& run : *runs) {
    absl::StatusOr<CaseVerdict> verdict = Judge(run, request.expected);
    if (!verdict.ok()) return verdict.status();
    ++tally.signatures[FailureSignature(*verdict, request.expected)];
    ++tally.runs;
  }
  return tally;
}

}  // namespace matload
