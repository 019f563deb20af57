#include "harness/triage/triage.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/gpu/program_launch.h"
#include "harness/platform/infrastructure.h"

namespace matload {
namespace {

constexpr std::chrono::seconds kProbeTimeout{60};

// ReplayOf is a replay of `image`, a build of `program`, on `variant`,
// with the request's settings.
ReplayRequest ReplayOf(const TriageRequest& request, const TestProgram& program, const Variant& variant,
                       std::string image, int ordinal) {
  return {.program = &program,
          .image = std::move(image),
          .record = program.Record(variant),
          .expected = program.Expect(variant),
          .repeats = request.repeats,
          .ordinal = ordinal,
          .timeout = request.timeout};
}

// Request is a replay of `image` for the case's own variant.
ReplayRequest Request(const TriageRequest& request, std::string image, int ordinal) {
  const TriageCase& triage_case = *request.triage_case;
  return ReplayOf(request, *triage_case.program, triage_case.variant, std::move(image), ordinal);
}

// MostCommonFailure is the failure most runs showed, or empty when every run passed.
std::string MostCommonFailure(const ReplayTally& tally) {
  std::string failure;
  for (const auto& [signature, runs] : tally.signatures) {
    if (signature != "pass" && (failure.empty() || runs > tally.Failures(failure))) failure = signature;
  }
  return failure;
}

// ReplayOnEveryGpu replays the build the bundle's run used on each GPU.
absl::Status ReplayOnEveryGpu(const TriageRequest& request, const std::string& image, TriageResult& result) {
  absl::StatusOr<int> devices = CountDevices(kProbeTimeout);
  if (!devices.ok()) return devices.status();
  for (int ordinal = 0; ordinal < *devices; ++ordinal) {
    absl::StatusOr<DeviceProbe> probe = ProbeDevice(ordinal, kProbeTimeout);
    if (!probe.ok()) return probe.status();
    absl::StatusOr<ReplayTally> tally = Replay(Request(request, image, ordinal));
    if (!tally.ok()) return tally.status();
    result.gpus.push_back({.ordinal = ordinal, .identity = probe->identity, .tally = *std::move(tally)});
  }
  if (result.gpus.empty()) return NoGpuError("the driver lists no GPU");
  result.signature = MostCommonFailure(result.gpus.front().tally);
  return absl::OkStatus();
}

// RecordedImage is the image of the build the bundle's run used: the
// driver JIT's PTX text unless it ran a ptxas or nvJitLink cubin.
const std::string& RecordedImage(const TriageCase& triage_case, const std::vector<TriageBuild>& builds) {
  for (const TriageBuild& build : builds) {
    const bool recorded = (build.name == "ptxas -O3" && triage_case.recorded_compile_path == "ptxas-cubin") ||
                          (build.name == "nvJitLink" && triage_case.recorded_compile_path == "nvjitlink-cubin");
    if (recorded && build.image.ok()) return *build.image;
  }
  return triage_case.kernel;
}

// ReplayBuilds replays every build on GPU 0, unless `on_gpu` is false
// (there is none), and disassembles its cubin.
absl::Status ReplayBuilds(const TriageRequest& request, const std::vector<TriageBuild>& builds, bool on_gpu,
                          TriageResult& result) {
  for (const TriageBuild& build : builds) {
    BuildReplay replay{.build = build};
    if (build.image.ok()) {
      if (on_gpu) {
        absl::StatusOr<ReplayTally> tally = Replay(Request(request, *build.image, 0));
        if (!tally.ok()) return tally.status();
        replay.tally = *std::move(tally);
      }
      if (build.cubin) {
        absl::StatusOr<SassListing> sass = DisassembleCubin(request.cuobjdump, *build.image);
        if (sass.ok()) replay.sass = *std::move(sass);
        if (!sass.ok()) replay.sass_error = std::string(sass.status().message());
      }
    }
    result.builds.push_back(std::move(replay));
  }
  return absl::OkStatus();
}

// ReleaseKernel is the case's kernel as `ptxas` can build it: at the PTX
// version it speaks where that is older than the case's and the form
// exists there (only for a kernel matload built itself), or why not.
absl::StatusOr<std::string> ReleaseKernel(const TriageCase& triage_case, const Ptxas& ptxas) {
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(ptxas);
  if (!dialect.ok()) return dialect.status();
  const CheckedInstruction& instruction = triage_case.program->instruction();
  if (!(dialect->Judged() < instruction.ptx())) return triage_case.kernel;
  if (!triage_case.kernel_is_matloads) {
    return absl::FailedPreconditionError(absl::StrCat("speaks PTX ", dialect->Judged().ToString()));
  }
  absl::StatusOr<std::unique_ptr<TestProgram>> older = TestProgram::ForOpcode(
      triage_case.program->opcode(), instruction.target(), dialect->Judged(), triage_case.program->options());
  if (!older.ok()) return absl::FailedPreconditionError(older.status().message());
  return (*older)->kernel();
}

// ProbeRelease builds the case with one release and replays it on GPU 0.
absl::StatusOr<ProbeResult> ProbeRelease(const TriageRequest& request, const TriageResult& result, const Ptxas& ptxas) {
  const TriageCase& triage_case = *request.triage_case;
  absl::StatusOr<std::string> kernel = ReleaseKernel(triage_case, ptxas);
  if (!kernel.ok() && absl::IsFailedPrecondition(kernel.status())) {
    return ProbeResult{ReleaseState::kNotBuilt, std::string(kernel.status().message())};
  }
  if (!kernel.ok()) return kernel.status();
  absl::StatusOr<std::string> cubin = ptxas.CompileToCubin(*kernel, triage_case.program->instruction().target());
  if (!cubin.ok() && (absl::IsFailedPrecondition(cubin.status()) || absl::IsUnimplemented(cubin.status()))) {
    return ProbeResult{ReleaseState::kNotBuilt, std::string(cubin.status().message())};
  }
  if (!cubin.ok()) return cubin.status();
  absl::StatusOr<ReplayTally> tally = Replay(Request(request, *cubin, 0));
  if (!tally.ok()) return tally.status();
  if (tally->passes() == tally->runs) return ProbeResult{ReleaseState::kPasses, tally->Describe("pass")};
  const std::string failure = MostCommonFailure(*tally);
  if (tally->Failures(failure) == tally->runs) return ProbeResult{ReleaseState::kFails, failure};
  return ProbeResult{ReleaseState::kFlaky, absl::StrCat(tally->Verdict(failure), ": ", failure)};
}

// CubinLoads is the SASS loads of `program`'s ptxas cubin, or why there are none.
absl::StatusOr<std::string> CubinLoads(const TriageRequest& request, const TestProgram& program) {
  if (request.ptxas == nullptr) return absl::NotFoundError("no ptxas");
  absl::StatusOr<std::string> cubin = request.ptxas->CompileToCubin(program.kernel(), program.instruction().target());
  if (!cubin.ok()) return cubin.status();
  absl::StatusOr<SassListing> sass = DisassembleCubin(request.cuobjdump, *cubin);
  if (!sass.ok()) return sass.status();
  return sass->Loads();
}

// RunSiblings runs each sibling form on the reduced variant through the
// driver JIT; the smallest one of fewer matrices that fails the same way
// (FailureKind: a sibling's mismatch has other words and slots) becomes
// the reduced reproducer's form.
absl::Status RunSiblings(const TriageRequest& request, TriageResult& result) {
  for (SiblingForm& sibling : SiblingForms(*request.triage_case->program)) {
    const TestProgram& program = *sibling.program;
    absl::StatusOr<ReplayTally> tally =
        Replay(ReplayOf(request, program, result.reduction->variant, program.kernel(), 0));
    if (!tally.ok()) return tally.status();
    const absl::StatusOr<std::string> loads = CubinLoads(request, program);
    result.siblings.push_back({.kind = sibling.kind,
                               .change = sibling.change,
                               .label = program.Label(),
                               .tally = *tally,
                               .loads = loads.value_or(""),
                               .loads_error = loads.ok() ? "" : std::string(loads.status().message())});
    if (sibling.kind == SiblingKind::kFewerMatrices && tally->FailuresOfKind(result.signature) == tally->runs) {
      result.reduced_program = std::move(sibling.program);
    }
  }
  return absl::OkStatus();
}

// Reduce reduces the variant, runs the siblings on it and re-runs the
// reduced reproducer. A kernel matload did not build is not reduced: its
// reductions would run matload's kernel instead.
absl::Status Reduce(const TriageRequest& request, TriageResult& result) {
  const TriageCase& triage_case = *request.triage_case;
  if (result.signature.empty() || !triage_case.kernel_is_matloads) return absl::OkStatus();
  const TestProgram& program = *triage_case.program;
  absl::StatusOr<Reduction> reduction = ReduceVariant(
      program, triage_case.seed, triage_case.variant, result.signature,
      [&](const Variant& variant) { return Replay(ReplayOf(request, program, variant, program.kernel(), 0)); });
  if (!reduction.ok()) return reduction.status();
  result.reduction = *std::move(reduction);
  if (absl::Status ran = RunSiblings(request, result); !ran.ok()) return ran;
  const TestProgram& reduced = result.reduced_program != nullptr ? *result.reduced_program : program;
  absl::StatusOr<ReplayTally> rerun =
      Replay(ReplayOf(request, reduced, result.reduction->variant, reduced.kernel(), 0));
  if (!rerun.ok()) return rerun.status();
  result.reduced_rerun = *std::move(rerun);
  result.reduced_expected = reduced.Expect(result.reduction->variant);
  return absl::OkStatus();
}

// Evidence is what the culprit rules read of the result.
CulpritEvidence Evidence(const TriageRequest& request, const TriageResult& result) {
  CulpritEvidence evidence{.kernel_is_matloads = request.triage_case->kernel_is_matloads};
  for (const BuildReplay& replay : result.builds) {
    BuildEvidence build{.name = replay.build.name, .built = replay.tally.has_value()};
    if (replay.tally.has_value()) {
      build.fails = !result.signature.empty() && replay.tally->FailuresOfKind(result.signature) == replay.tally->runs;
      build.passes = replay.tally->passes() == replay.tally->runs;
    }
    if (replay.sass.has_value()) build.loads = replay.sass->Loads();
    evidence.builds.push_back(std::move(build));
  }
  for (const SiblingReplay& sibling : result.siblings) {
    evidence.siblings.push_back({.change = sibling.change,
                                 .generic_address = sibling.kind == SiblingKind::kGenericAddress,
                                 .passes = sibling.tally.passes() == sibling.tally.runs,
                                 .loads = sibling.loads});
  }
  if (result.range.has_value() && result.range->regression) {
    evidence.range_last_good = result.release_names[*result.range->before];
    evidence.range_first_bad = result.release_names[*result.range->after];
  }
  return evidence;
}

}  // namespace

absl::StatusOr<TriageResult> RunTriage(const TriageRequest& request) {
  const TriageCase& triage_case = *request.triage_case;
  TriageResult result;
  const std::vector<TriageBuild> builds = MakeTriageBuilds(triage_case, request.ptxas);
  const absl::Status gpus = ReplayOnEveryGpu(request, RecordedImage(triage_case, builds), result);
  if (IsNoGpu(gpus)) {
    // The compile-only parts still run: the builds and their SASS.
    result.no_gpu = std::string(gpus.message());
    if (absl::Status built = ReplayBuilds(request, builds, false, result); !built.ok()) return built;
    result.culprit = {"not judged", absl::StrCat("no GPU here (", gpus.message(), "): nothing was run"), {}};
    return result;
  }
  if (!gpus.ok()) return gpus;
  if (absl::Status replayed = ReplayBuilds(request, builds, true, result); !replayed.ok()) return replayed;
  if (absl::Status reduced = Reduce(request, result); !reduced.ok()) return reduced;
  for (const Ptxas* release : request.history) result.release_names.push_back(release->Toolchain());
  if (!request.history.empty() && !result.signature.empty()) {
    absl::StatusOr<RegressionRange> range = FindRegressionRange(
        result.release_names, [&](int index) { return ProbeRelease(request, result, *request.history[index]); });
    if (!range.ok()) return range.status();
    result.range = *std::move(range);
  }
  result.culprit = BlameStage(Evidence(request, result));
  return result;
}

}  // namespace matload
