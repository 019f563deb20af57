#include "harness/conformance_run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "harness/bundle_writer.h"
#include "harness/cuda_driver.h"
#include "harness/discrepancy_registry.h"
#include "harness/infrastructure.h"
#include "harness/interrupt.h"
#include "harness/isolated_runner.h"
#include "harness/launch_outcome.h"
#include "harness/output_files.h"
#include "harness/support_sweep.h"
#include "harness/test_program.h"
#include "nlohmann/json.hpp"
#include "reference/enumerate.h"
#include "reference/ldmatrix_table.h"
#include "reference/tcgen05_ld_table.h"
#include "reference/wmma_load_table.h"

namespace matload {
namespace {

// kItemsPerRound bounds the launches one RunIsolated call makes, so
// that results reach the run directory as the run goes.
constexpr int kItemsPerRound = 32;

// kInfrastructureAttempts is how often a launch that could not be judged
// (an infrastructure failure) is tried, each time in a fresh worker, before
// the run stops with that failure.
constexpr int kInfrastructureAttempts = 3;

// Launch is one kernel launch: a program on one compile path, for some of
// its variants (all of them, or one when a fault is being attributed).
struct Launch {
  int program = 0;
  CompilePath path = CompilePath::kDriverJit;
  std::vector<int> variants;
  // undefined: every variant is a case the spec leaves undefined. Such a
  // launch is not split when it faults: its cases are only recorded.
  bool undefined = false;
  // confirms: the Prediction this single-variant launch confirms, or -1.
  int confirms = -1;
};

// Prediction is a form's variants (on one path) that a registry entry says
// fault: the first runs alone to confirm it, the rest depend on that.
struct Prediction {
  int program = 0;
  CompilePath path = CompilePath::kDriverJit;
  std::string entry;      // the registry entry's id
  std::vector<int> rest;  // the variants after the first
  bool confirmed = false;  // the first faulted as predicted
};

// Run holds one conformance run's state in the parent.
class Run {
 public:
  Run(const ConformanceOptions& options, const ConformanceProgress& progress, DeviceProbe device,
      DiscrepancyRegistry registry)
      : options_(options), progress_(progress), device_(std::move(device)), registry_(std::move(registry)),
        bundles_((std::filesystem::path(options.run_directory) / "bundles").string()) {
    result_.identity = device_.identity;
    result_.target = device_.target;
    // Until a test kernel finishes, a kernel's watchdog scales from the
    // probe's empty kernel, so even the run's first hang costs seconds.
    watchdog_.ObserveKernel(std::chrono::duration_cast<std::chrono::milliseconds>(device_.calibration));
    for (CompilePath path : options_.paths) {
      if (path == CompilePath::kDriverJit) continue;
      offline_toolchains_[path] = OfflineToolchain(path).value();  // RunConformance checked it
    }
  }

  absl::Status Execute() {
    if (absl::Status made = CreateDirectories(options_.run_directory); !made.ok()) return made;
    results_.open(ResultsPath());
    if (!results_) return InfrastructureError(InfrastructureCause::kOutOfDisk, ResultsPath() + ": cannot write");
    results_ << "# " << device_.identity << "\n# family\tform\tpath\tvariant\tkind\taddressing\toutcome\tdetail\tbundle\n";
    if (absl::Status built = BuildPrograms(); !built.ok()) return built;
    // Variants the registry says fault would each cost a worker. One per
    // form and path runs alone to confirm the entry; if it faults, the rest
    // are recorded as known faults without running, and if it does not, the
    // entry over-predicts (a finding) and the rest run like any others.
    std::vector<Launch> launches;
    std::vector<Launch> confirmations;
    for (size_t program = 0; program < programs_.size(); ++program) {
      for (CompilePath path : options_.paths) {
        Launch launch{static_cast<int>(program), path, {}, false, -1};
        Launch undefined{static_cast<int>(program), path, {}, true, -1};
        Prediction prediction{static_cast<int>(program), path, "", {}, false};
        for (size_t v = 0; v < variants_[program].size(); ++v) {
          const Variant& variant = variants_[program][v];
          if (std::holds_alternative<Undefined>(expected_[program][v])) {
            undefined.variants.push_back(static_cast<int>(v));
            continue;
          }
          const DiscrepancyEntry* known = registry_.Find(programs_[program]->FaultCaseText(variant), result_.target,
                                                         Direction::kDeviceFaults, Toolchain(path));
          if (known == nullptr) {
            launch.variants.push_back(static_cast<int>(v));
          } else if (prediction.entry.empty()) {
            prediction.entry = known->id;
            confirmations.push_back(
                {static_cast<int>(program), path, {static_cast<int>(v)}, false, static_cast<int>(predictions_.size())});
          } else {
            prediction.rest.push_back(static_cast<int>(v));
          }
        }
        if (!launch.variants.empty()) launches.push_back(std::move(launch));
        if (!undefined.variants.empty()) launches.push_back(std::move(undefined));
        if (!prediction.entry.empty()) predictions_.push_back(std::move(prediction));
      }
    }
    result_.launches = launches.size();
    const absl::Time start = absl::Now();
    if (absl::Status status = RunRounds(launches, /*attributing=*/false, "forms"); !status.ok()) return status;
    if (absl::Status status = RunRounds(confirmations, /*attributing=*/true, "registry confirmations"); !status.ok()) {
      return status;
    }
    std::vector<Launch> unconfirmed;
    for (const Prediction& prediction : predictions_) {
      for (int v : prediction.rest) {
        if (!prediction.confirmed) continue;
        if (absl::Status status = RecordUnrunKnownFault(prediction.program, v, prediction.path, prediction.entry);
            !status.ok()) {
          return status;
        }
      }
      if (!prediction.confirmed && !prediction.rest.empty()) {
        unconfirmed.push_back({prediction.program, prediction.path, prediction.rest, false, -1});
      }
    }
    if (absl::Status status = RunRounds(unconfirmed, /*attributing=*/false, "variants the registry over-predicts");
        !status.ok()) {
      return status;
    }
    // A fault leaves no block's output: run each variant of the launches
    // that faulted on its own, so that each fault lands on its own case.
    std::vector<Launch> singles;
    for (const Launch& launch : one_by_one_) {
      for (int variant : launch.variants) singles.push_back({launch.program, launch.path, {variant}, false, -1});
    }
    if (absl::Status status = RunRounds(singles, /*attributing=*/true, "faulting variants, one by one"); !status.ok()) {
      return status;
    }
    result_.device_seconds = absl::ToDoubleSeconds(absl::Now() - start);
    if (options_.illegal) {
      if (absl::Status status = CheckIllegalForms(); !status.ok()) return status;
    }
    NoteTcgen05();
    result_.bundles = bundles_.distinct();
    return bundles_.WriteIndex();
  }

  const ConformanceResult& result() const { return result_; }
  ConformanceResult& result() { return result_; }

 private:
  std::string ResultsPath() const { return (std::filesystem::path(options_.run_directory) / "results.tsv").string(); }

  absl::Status BuildPrograms() {
    const std::optional<std::regex> filter =
        options_.forms.empty() ? std::nullopt : std::optional<std::regex>(std::regex(options_.forms));
    const PtxVersion ptx = NewestPtxVersion();
    for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec(), &tcgen05::Spec()}) {
      for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, result_.target)) {
        const std::optional<CheckedInstruction> instruction = StandardInstruction(*spec, qualifiers, ptx, result_.target);
        if (!instruction.has_value()) return absl::InternalError("a legal qualifier set failed its standard form");
        const bool shared_wmma =
            spec->family == Family::kWmmaLoad && instruction->signature().state_space == StateSpace::kShared;
        for (int address_bits : shared_wmma ? std::vector<int>{32, 64} : std::vector<int>{64}) {
          absl::StatusOr<std::unique_ptr<TestProgram>> program =
              TestProgram::For(*instruction, {.shared_address_bits = address_bits, .bug = options_.bug});
          if (!program.ok()) {
            if (!filter.has_value() || std::regex_search(Opcode(*instruction), *filter)) {
              result_.not_run.push_back(std::string(program.status().message()));
            }
            continue;
          }
          if (filter.has_value() && !std::regex_search((*program)->Label(), *filter)) continue;
          variants_.push_back((*program)->Variants(options_.variants, options_.seed, options_.undefined));
          expected_.emplace_back();
          for (const Variant& variant : variants_.back()) expected_.back().push_back((*program)->Expect(variant));
          programs_.push_back(*std::move(program));
        }
      }
    }
    if (programs_.empty()) return absl::InvalidArgumentError(absl::StrCat("no form matches --forms '", options_.forms, "'"));
    return absl::OkStatus();
  }

  // RunRounds runs `launches` (RunWaves), then tries again, one worker at
  // a time, the launches an infrastructure failure kept from being judged:
  // a busy or briefly lost GPU, a crashed worker. One that still fails after
  // kInfrastructureAttempts stops the run with its cause; everything judged
  // until then is in results.tsv.
  absl::Status RunRounds(const std::vector<Launch>& launches, bool attributing, const std::string& what) {
    if (launches.empty()) return absl::OkStatus();
    const absl::Time start = absl::Now();
    std::vector<Launch> pending = launches;
    std::vector<LaunchOutcome> failures;
    for (int attempt = 1; !pending.empty(); ++attempt) {
      std::vector<Launch> unjudged;
      failures.clear();
      const int workers = attempt == 1 ? options_.workers : 1;
      if (absl::Status status = RunWaves(pending, attributing, workers, what, unjudged, failures); !status.ok()) {
        return status;
      }
      if (!unjudged.empty() && attempt == kInfrastructureAttempts) {
        result_.infrastructure_retries += unjudged.size();
        return InfrastructureError(
            failures.front().cause,
            absl::StrCat(programs_[unjudged.front().program]->Label(), " on ", CompilePathName(unjudged.front().path),
                         " could not be judged in ", kInfrastructureAttempts, " attempts, each in a fresh worker: ",
                         failures.front().detail, " (", unjudged.size(), " launches of ", what, " unjudged)"));
      }
      result_.infrastructure_retries += unjudged.size();
      pending = std::move(unjudged);
    }
    result_.phases.push_back({what, launches.size(), absl::ToDoubleSeconds(absl::Now() - start)});
    return absl::OkStatus();
  }

  // RunWaves runs `launches` in rounds of kItemsPerRound, up to `workers`
  // rounds at once, each in worker processes of its own, so that the driver
  // JIT compiles on as many cores. Each wave of rounds is judged in order
  // when its last round ends, so the results reach the run directory in
  // launch order as the run goes. Launches that could not be judged go to
  // `unjudged`, with why in `failures`.
  absl::Status RunWaves(const std::vector<Launch>& launches, bool attributing, int workers_wanted,
                        const std::string& what, std::vector<Launch>& unjudged, std::vector<LaunchOutcome>& failures) {
    const size_t workers = static_cast<size_t>(std::max(1, workers_wanted));
    const size_t rounds = (launches.size() + kItemsPerRound - 1) / kItemsPerRound;
    for (size_t first_round = 0; first_round < rounds; first_round += workers) {
      const size_t wave = std::min(workers, rounds - first_round);
      std::vector<absl::StatusOr<std::vector<ItemResult>>> ran(wave, absl::UnknownError("not run"));
      std::vector<std::thread> threads;
      for (size_t i = 0; i < wave; ++i) {
        threads.emplace_back([&, i] { ran[i] = RunRound(RoundOf(launches, first_round + i)); });
      }
      for (std::thread& thread : threads) thread.join();
      for (size_t i = 0; i < wave; ++i) {
        if (!ran[i].ok()) return ran[i].status();
        const absl::Span<const Launch> round = RoundOf(launches, first_round + i);
        for (size_t item = 0; item < round.size(); ++item) {
          const ItemResult& ran_item = (*ran[i])[item];
          if (ran_item.kind == ItemResult::Kind::kNotRun) continue;
          LaunchOutcome outcome = ClassifyLaunch(ran_item);
          if (outcome.kind == LaunchOutcome::Kind::kInfrastructure) {
            unjudged.push_back(round[item]);
            failures.push_back(std::move(outcome));
            continue;
          }
          if (absl::Status status = Judge(round[item], ran_item, outcome, attributing); !status.ok()) return status;
        }
      }
      results_.flush();
      if (!results_) return InfrastructureError(InfrastructureCause::kOutOfDisk, ResultsPath() + ": write failed");
      if (const int signal = PendingInterrupt(); signal != 0) return InterruptedError(signal);
      progress_(std::min(launches.size(), (first_round + wave) * kItemsPerRound), launches.size(), what);
    }
    return absl::OkStatus();
  }

  // RoundOf is round `round` of `launches`: kItemsPerRound of them, fewer at the end.
  static absl::Span<const Launch> RoundOf(const std::vector<Launch>& launches, size_t round) {
    const size_t first = round * kItemsPerRound;
    return absl::MakeConstSpan(launches).subspan(first, std::min<size_t>(kItemsPerRound, launches.size() - first));
  }

  // RunRound runs one round's launches in worker processes, in order.
  absl::StatusOr<std::vector<ItemResult>> RunRound(absl::Span<const Launch> round) {
    return RunIsolated(
        static_cast<int>(round.size()),
        [&](int item) {
          const Launch& launch = round[item];
          std::vector<const Variant*> blocks;
          for (int index : launch.variants) blocks.push_back(&variants_[launch.program][index]);
          return LaunchProgram(options_.device, *programs_[launch.program], blocks, launch.path);
        },
        watchdog_);
  }

  // Judge records the verdict on each case of a launch that judged them.
  // A launch of several defined cases that faulted or hung is first split,
  // so that each fault or hang lands on its own case.
  absl::Status Judge(const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome, bool attributing) {
    const TestProgram& program = *programs_[launch.program];
    const bool split = outcome.kind == LaunchOutcome::Kind::kKernelFault ||
                       outcome.kind == LaunchOutcome::Kind::kKernelHang;
    if (split && !attributing && !launch.undefined) {
      one_by_one_.push_back(launch);
      return absl::OkStatus();
    }
    for (size_t block = 0; block < launch.variants.size(); ++block) {
      const Variant& variant = variants_[launch.program][launch.variants[block]];
      BundleCase bundle_case{.program = &program,
                             .variant = variant,
                             .seed = options_.seed,
                             .compile_path = std::string(CompilePathName(launch.path)),
                             .identity = device_.identity};
      bundle_case.expected = expected_[launch.program][launch.variants[block]];
      switch (outcome.kind) {
        case LaunchOutcome::Kind::kRan: {
          const size_t bytes = program.frame().output_bytes;
          bundle_case.actual.assign(ran.output.begin() + block * bytes, ran.output.begin() + (block + 1) * bytes);
          bundle_case.verdict = JudgeOutput(bundle_case.expected, bundle_case.actual);
          ++result_.executions;
          if (const auto* values = std::get_if<LaneValues>(&bundle_case.expected)) {
            result_.words_compared += values->words.size();
          }
          break;
        }
        case LaunchOutcome::Kind::kCompileRejected:
          bundle_case.verdict = {CaseClass::kLegalRejected, {}, outcome.detail};
          break;
        case LaunchOutcome::Kind::kKernelFault: {
          const DiscrepancyEntry* known = registry_.Find(program.FaultCaseText(variant), result_.target,
                                                         Direction::kDeviceFaults, Toolchain(launch.path));
          bundle_case.verdict = JudgeFault(bundle_case.expected, outcome.detail, known != nullptr ? known->id : "");
          if (launch.variants.size() > 1) {
            absl::StrAppend(&bundle_case.verdict.detail, " (in a launch of ", launch.variants.size(), " undefined cases)");
          }
          break;
        }
        case LaunchOutcome::Kind::kKernelHang:
          bundle_case.verdict = {CaseClass::kTimeout, {}, outcome.detail};
          break;
        case LaunchOutcome::Kind::kInfrastructure:
          return absl::InternalError("an infrastructure failure reached the judge");
      }
      if (launch.confirms >= 0) {
        Prediction& prediction = predictions_[launch.confirms];
        prediction.confirmed = bundle_case.verdict.kind == CaseClass::kKnownFault;
        if (!prediction.confirmed) {
          ++result_.findings;
          result_.registry_misses.push_back(absl::StrCat(prediction.entry, " predicts a fault for ", program.Label(),
                                                         " variant ", variant.index, " (", variant.kind, ", ",
                                                         CompilePathName(launch.path), "); it was ",
                                                         CaseClassName(bundle_case.verdict.kind)));
        }
      }
      if (absl::Status status = Record(bundle_case); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // Toolchain names a compile path's compiler as the discrepancy registry
  // does: "driver JIT CUDA 13.0; ...", "ptxas 13.0.88" or "nvJitLink 13.0".
  const std::string& Toolchain(CompilePath path) const {
    return path == CompilePath::kDriverJit ? device_.toolchain : offline_toolchains_.at(path);
  }

  absl::Status RecordUnrunKnownFault(int program, int variant, CompilePath path, const std::string& id) {
    BundleCase bundle_case{.program = programs_[program].get(),
                           .variant = variants_[program][variant],
                           .seed = options_.seed,
                           .compile_path = std::string(CompilePathName(path)),
                           .identity = device_.identity};
    bundle_case.expected = expected_[program][variant];
    bundle_case.verdict = {CaseClass::kKnownFault, {}, absl::StrCat(id, ": not run, the registry predicts this fault")};
    return Record(bundle_case);
  }

  absl::Status Record(const BundleCase& bundle_case) {
    const CaseVerdict& verdict = bundle_case.verdict;
    const std::string family = bundle_case.program->instruction().spec().MnemonicText();
    ++result_.counts[family][verdict.kind];
    std::string bundle;
    if (IsFinding(verdict.kind)) {
      ++result_.findings;
      absl::StatusOr<std::string> filed = bundles_.Add(bundle_case);
      if (!filed.ok()) return filed.status();
      bundle = *filed;
    }
    std::string detail = verdict.detail.substr(0, verdict.detail.find('\n'));
    // The variant's addressing, as the registry sees it: what follows the opcode.
    const std::string case_text = bundle_case.program->FaultCaseText(bundle_case.variant);
    const size_t addressing = case_text.find("; ");
    results_ << family << "\t" << bundle_case.program->Label() << "\t" << bundle_case.compile_path << "\t"
             << bundle_case.variant.index << "\t" << bundle_case.variant.kind << "\t"
             << (addressing == std::string::npos ? "" : case_text.substr(addressing + 2)) << "\t"
             << CaseClassName(verdict.kind) << "\t" << detail << "\t" << bundle << "\n";
    return absl::OkStatus();
  }

  // CheckIllegalForms sweeps the device target with the driver JIT in a
  // worker: the near-miss illegal forms must be rejected, and every legal
  // form in every operand style accepted. An attempt that an
  // infrastructure failure spoils is made again in a fresh worker, up to
  // kInfrastructureAttempts in all.
  absl::Status CheckIllegalForms() {
    absl::Status swept = SweepIllegalForms();
    for (int attempt = 2; attempt <= kInfrastructureAttempts && InfrastructureCauseOf(swept).has_value(); ++attempt) {
      ++result_.infrastructure_retries;
      swept = SweepIllegalForms();
    }
    return swept;
  }

  // SweepIllegalForms is one attempt at CheckIllegalForms, in a fresh worker.
  absl::Status SweepIllegalForms() {
    const Target target = result_.target;
    absl::StatusOr<std::vector<ItemResult>> swept = RunIsolated(
        1,
        [&](int) -> absl::StatusOr<std::string> {
          absl::StatusOr<DriverJit*> jit = WorkerJit(options_.device);
          if (!jit.ok()) return jit.status();
          absl::StatusOr<SupportSweep> sweep =
              RunSupportSweep(**jit, registry_, {target}, NewestPtxVersion(), 1, [](size_t, size_t, const std::string&) {});
          if (!sweep.ok()) return sweep.status();
          std::string text = absl::StrCat(sweep->summaries[0].near_miss, "\n");
          for (const Disagreement& disagreement : sweep->disagreements) {
            absl::StrAppend(&text, disagreement.model_legal ? "legal" : "illegal", "\t", disagreement.registry_id, "\t",
                            disagreement.instruction, "\t", absl::StrJoin(disagreement.compiler_messages, " | "), "\n");
          }
          return text;
        },
        std::chrono::minutes(9));
    if (!swept.ok()) return swept.status();
    const ItemResult& sweep = (*swept)[0];
    if (sweep.kind == ItemResult::Kind::kNotRun) return InterruptedError(PendingInterrupt());
    if (sweep.kind != ItemResult::Kind::kDone) {
      // The sweep judges through the JIT in a worker; one that did not come
      // back said nothing of the forms.
      const LaunchOutcome outcome = ClassifyLaunch(sweep);
      return InfrastructureError(outcome.kind == LaunchOutcome::Kind::kInfrastructure
                                     ? outcome.cause
                                     : InfrastructureCause::kHarnessError,
                                 absl::StrCat("the near-miss sweep through the driver JIT: ", sweep.output));
    }
    std::vector<std::string> lines = absl::StrSplit(sweep.output, '\n', absl::SkipEmpty());
    size_t near_miss = 0;
    if (lines.empty() || !absl::SimpleAtoi(lines[0], &near_miss)) return absl::InternalError("bad sweep report");
    size_t accepted = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> fields = absl::StrSplit(lines[i], absl::MaxSplits('\t', 3));
      const bool illegal = fields[0] == "illegal";
      if (illegal) ++accepted;
      if (!fields[1].empty()) {
        ++result_.illegal_explained;
        continue;
      }
      const CaseClass kind = illegal ? CaseClass::kIllegalAccepted : CaseClass::kLegalRejected;
      ++result_.counts["compile (all operand styles)"][kind];
      ++result_.findings;
      results_ << "compile\t" << fields[2] << "\tdriver-jit\t-\t-\t-\t" << CaseClassName(kind) << "\t" << fields[3]
               << "\t\n";
    }
    result_.counts["compile (all operand styles)"][CaseClass::kIllegalRejected] += near_miss - accepted;
    return absl::OkStatus();
  }

  // NoteTcgen05 says what this device cannot run: tcgen05.ld, when its
  // target has no Tensor Memory.
  void NoteTcgen05() {
    if (!LegalQualifierSets(tcgen05::Spec(), NewestPtxVersion(), result_.target).empty()) return;
    size_t forms = 0;
    for (const char* name : {"sm_100a", "sm_103a", "sm_110a"}) {
      forms += LegalQualifierSets(tcgen05::Spec(), NewestPtxVersion(), *ParseTarget(name)).size();
    }
    result_.counts["tcgen05.ld"][CaseClass::kUnsupported] += forms;
    result_.not_run.push_back(absl::StrCat("tcgen05.ld: ", forms, " legal forms on sm_100a/sm_103a/sm_110a need Tensor ",
                                           "Memory, which ", result_.target.Name(),
                                           " lacks; their kernels are compile-checked (tcgen05_kernel_test)"));
  }

  const ConformanceOptions& options_;
  const ConformanceProgress& progress_;
  DeviceProbe device_;
  // The offline paths' compilers, as the registry names them.
  absl::flat_hash_map<CompilePath, std::string> offline_toolchains_;
  DiscrepancyRegistry registry_;
  BundleWriter bundles_;
  std::ofstream results_;
  std::vector<std::unique_ptr<TestProgram>> programs_;
  std::vector<std::vector<Variant>> variants_;
  std::vector<std::vector<Outcome>> expected_;  // the model's prediction of each variant, made once
  std::vector<Launch> one_by_one_;  // launches to run variant by variant
  std::vector<Prediction> predictions_;
  ConformanceResult result_;
  Watchdog watchdog_{options_.timeout};  // shared by every round's workers, calibrated by their kernels
};

// PhasesJson is the phases as summary.json lists them.
nlohmann::json PhasesJson(const std::vector<ConformancePhase>& phases) {
  nlohmann::json list = nlohmann::json::array();
  for (const ConformancePhase& phase : phases) {
    list.push_back({{"what", phase.what}, {"launches", phase.launches}, {"seconds", phase.seconds}});
  }
  return list;
}

}  // namespace

// WriteSummaries writes summary.md and summary.json into the run
// directory; a disk that takes neither is an infrastructure failure.
absl::Status WriteSummaries(const ConformanceOptions& options, const ConformanceResult& result);

absl::StatusOr<ConformanceResult> RunConformance(const ConformanceOptions& options,
                                                 const ConformanceProgress& progress) {
  if (options.variants < 1) return absl::InvalidArgumentError("--variants must be at least 1");
  if (options.run_directory.empty()) return absl::InvalidArgumentError("a run needs a run directory");
  if (options.paths.empty()) return absl::InvalidArgumentError("a run needs a compile path");
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  if (!registry.ok()) return registry.status();
  for (CompilePath path : options.paths) {
    if (path == CompilePath::kDriverJit) continue;
    if (absl::StatusOr<std::string> toolchain = OfflineToolchain(path); !toolchain.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("--paths ", CompilePathName(path), ": its compiler is not usable: ", toolchain.status().message()));
    }
  }
  absl::StatusOr<DeviceProbe> device = ProbeDevice(options.device, options.timeout);
  if (!device.ok()) return device.status();
  Run run(options, progress, *std::move(device), *std::move(registry));
  const absl::Status executed = run.Execute();
  if (!executed.ok()) run.result().stopped = std::string(executed.message());
  if (absl::Status written = WriteSummaries(options, run.result()); !written.ok()) return written;
  if (!executed.ok()) return executed;
  return run.result();
}

absl::Status WriteSummaries(const ConformanceOptions& options, const ConformanceResult& result) {
  const std::filesystem::path directory(options.run_directory);
  std::ofstream markdown(directory / "summary.md");
  markdown << ConformanceSummaryMarkdown(options, result);
  nlohmann::json counts;
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) counts[family][std::string(CaseClassName(kind))] = count;
  }
  std::ofstream json(directory / "summary.json");
  json << nlohmann::json{{"identity", result.identity},   {"target", result.target.Name()},
                        {"seed", options.seed},          {"variants", options.variants},
                        {"counts", counts},              {"words_compared", result.words_compared},
                        {"findings", result.findings},   {"bundles", result.bundles},
                        {"not_run", result.not_run},     {"registry_misses", result.registry_misses},
                        {"device_seconds", result.device_seconds},
                        {"phases", PhasesJson(result.phases)},
                        {"executions", result.executions},
                        {"infrastructure_retries", result.infrastructure_retries},
                        {"stopped", result.stopped}}
              .dump(2)
       << "\n";
  markdown.flush();
  json.flush();
  if (!markdown || !json) {
    return InfrastructureError(InfrastructureCause::kOutOfDisk,
                               absl::StrCat("cannot write summary.md and summary.json in ", options.run_directory));
  }
  return absl::OkStatus();
}

std::string ConformanceSummaryMarkdown(const ConformanceOptions& options, const ConformanceResult& result) {
  std::vector<CaseClass> columns;
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) {
      if (std::find(columns.begin(), columns.end(), kind) == columns.end()) columns.push_back(kind);
    }
  }
  std::sort(columns.begin(), columns.end());
  std::string text = absl::StrCat("# matload conform: ", result.target.Name(), "\n\n", result.identity, "\n\nseed ",
                                  options.seed, ", ", options.variants, " variants per form, compile paths: ");
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
  absl::StrAppend(&text, "\n\n", result.executions, " executions judged, ", result.words_compared,
                  " register words compared, ", result.findings, " findings in ", result.bundles,
                  " distinct bundles; near-miss forms the JIT accepts that the registry explains: ",
                  result.illegal_explained, ".\n",
                  absl::StrFormat("GPU phase: %.1f s for %d launches (JIT, launch, copy and judging included)",
                                  result.device_seconds, result.launches));
  std::vector<std::string> phases;
  for (const ConformancePhase& phase : result.phases) {
    phases.push_back(absl::StrFormat("%s %.1f s (%d launches)", phase.what, phase.seconds, phase.launches));
  }
  absl::StrAppend(&text, phases.empty() ? "" : ": ", absl::StrJoin(phases, ", "), ".\n");
  if (result.infrastructure_retries > 0) {
    absl::StrAppend(&text, "\n", result.infrastructure_retries,
                    " launches could not be judged at first (an infrastructure failure, never a finding) and were "
                    "tried again in fresh workers.\n");
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
