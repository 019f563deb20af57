#include "harness/conformance_run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <set>
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
#include "harness/conform_plan.h"
#include "harness/conform_recorder.h"
#include "harness/conform_report.h"
#include "harness/conform_tally.h"
#include "harness/runs/case_id.h"
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

// CompileCaseId names a conform run's compile check of a support case
// (harness/runs/case_id.h): the case without its target, on the JIT,
// "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.jit_compile".
std::string CompileCaseId(absl::string_view support_id) {
  return absl::StrCat(support_id.substr(support_id.find('.') + 1), ".jit_compile");
}

// Run holds one conformance run's state in the parent.
class Run {
 public:
  Run(const ConformanceOptions& options, const ConformanceProgress& progress, DeviceProbe device,
      DiscrepancyRegistry registry)
      : options_(options), progress_(progress), device_(std::move(device)), registry_(std::move(registry)),
        recorder_(options, result_) {
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
    absl::StatusOr<ConformPlan> plan = PlanConformance(options_, result_.target);
    if (!plan.ok()) return plan.status();
    plan_ = *std::move(plan);
    for (std::string& line : plan_.not_run) result_.not_run.push_back(std::move(line));
    if (absl::Status restored = recorder_.TakeBack(); !restored.ok()) return restored;
    const size_t chunk = ProgramsPerChunk();
    for (size_t first = 0; first < plan_.programs.size(); first += chunk) {
      if (absl::Status status = RunChunk(first, std::min(plan_.programs.size(), first + chunk)); !status.ok())
        return status;
    }
    if (options_.illegal && !recorder_.Recorded(ConformRecorder::kNearMissKey)) {
      if (absl::Status status = CheckIllegalForms(); !status.ok()) return status;
    }
    if (plan_.tensor_memory_forms > 0)
      result_.counts["tcgen05.ld"][CaseClass::kUnsupported] += plan_.tensor_memory_forms;
    return absl::OkStatus();
  }

  // result is what the run has counted; recorder what it has recorded.
  ConformanceResult& result() { return result_; }
  ConformRecorder& recorder() { return recorder_; }

 private:

  // ProgramsPerChunk is how many programs one chunk takes: about one wave
  // of launches, so that the workers stay busy and a SIGKILL costs at most
  // the chunk in flight (harness/runs/run_journal.h).
  size_t ProgramsPerChunk() const {
    return std::max<size_t>(1, static_cast<size_t>(options_.workers) * kItemsPerRound / options_.paths.size());
  }

  // CaseId names program `program`'s case on `path` (harness/runs/case_id.h).
  std::string CaseId(int program, CompilePath path, bool undefined) const {
    return ConformCaseId(plan_.programs[program]->instruction().form(),
                         plan_.programs[program]->options().shared_address_bits, CompilePathName(path), undefined);
  }

  // RunChunk runs programs [first, last) on every path the run takes and
  // has not recorded, through every phase, and records their cases.
  absl::Status RunChunk(size_t first, size_t last) {
    std::vector<Launch> launches;
    std::vector<Launch> confirmations;
    one_by_one_.clear();
    predictions_.clear();
    for (size_t program = first; program < last; ++program) {
      for (CompilePath path : options_.paths) {
        const std::string id = CaseId(static_cast<int>(program), path, false);
        if (!options_.filter.Selects(id) || (options_.journal != nullptr && options_.journal->Recorded(id))) continue;
        PlanLaunches(static_cast<int>(program), path, launches, confirmations);
      }
    }
    result_.launches += launches.size();
    absl::Status ran = RunPhases(launches, confirmations);
    if (ran.ok()) ran = recorder_.CommitComplete();
    if (ran.ok()) ran = RetrySuspects();
    // Cases held for re-runs are kept even when the run stops here.
    const absl::Status committed = recorder_.CommitComplete(/*final=*/true);
    return ran.ok() ? committed : ran;
  }

  // PlanLaunches adds `program`'s launch on `path`, its undefined variants'
  // launch, and the confirmation of a registry-predicted fault. Variants the
  // registry says fault would each cost a worker: one per form and path
  // runs alone to confirm the entry; if it faults, the rest are recorded as
  // known faults without running, and if it does not, the entry
  // over-predicts (a finding) and the rest run like any others.
  void PlanLaunches(int program, CompilePath path, std::vector<Launch>& launches, std::vector<Launch>& confirmations) {
    Launch launch{program, path, {}, false, -1};
    Launch undefined{program, path, {}, true, -1};
    Prediction prediction{program, path, "", {}, false};
    for (size_t v = 0; v < plan_.variants[program].size(); ++v) {
      const Variant& variant = plan_.variants[program][v];
      if (std::holds_alternative<Undefined>(plan_.expected[program][v])) {
        undefined.variants.push_back(static_cast<int>(v));
        continue;
      }
      const DiscrepancyEntry* known = registry_.Find(plan_.programs[program]->FaultCaseText(variant), result_.target,
                                                     Direction::kDeviceFaults, Toolchain(path));
      if (known == nullptr) {
        launch.variants.push_back(static_cast<int>(v));
      } else if (prediction.entry.empty()) {
        prediction.entry = known->id;
        confirmations.push_back({program, path, {static_cast<int>(v)}, false, static_cast<int>(predictions_.size())});
      } else {
        prediction.rest.push_back(static_cast<int>(v));
      }
    }
    const std::string family = plan_.programs[program]->instruction().spec().MnemonicText();
    case_sources_[CaseId(program, path, false)] = {program, path};
    recorder_.Expect(CaseId(program, path, false), family, plan_.variants[program].size() - undefined.variants.size());
    recorder_.Expect(CaseId(program, path, true), family, undefined.variants.size());
    if (!launch.variants.empty()) launches.push_back(std::move(launch));
    if (!undefined.variants.empty()) launches.push_back(std::move(undefined));
    if (!prediction.entry.empty()) predictions_.push_back(std::move(prediction));
  }

  // RunPhases runs one chunk's launches, then the registry confirmations,
  // then what the confirmations decide, then each faulting variant alone.
  absl::Status RunPhases(const std::vector<Launch>& launches, const std::vector<Launch>& confirmations) {
    const absl::Time start = absl::Now();
    if (absl::Status status = RunRounds(launches, JudgeWith(false), "forms"); !status.ok()) return status;
    if (absl::Status status = RunRounds(confirmations, JudgeWith(true), "registry confirmations"); !status.ok()) {
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
    if (absl::Status status = RunRounds(unconfirmed, JudgeWith(false), "variants the registry over-predicts");
        !status.ok()) {
      return status;
    }
    // A fault leaves no block's output: run each variant of the launches
    // that faulted on its own, so that each fault lands on its own case.
    std::vector<Launch> singles;
    for (const Launch& launch : one_by_one_) {
      for (int variant : launch.variants) singles.push_back({launch.program, launch.path, {variant}, false, -1});
    }
    if (absl::Status status = RunRounds(singles, JudgeWith(true), "faulting variants, one by one"); !status.ok()) {
      return status;
    }
    result_.device_seconds += absl::ToDoubleSeconds(absl::Now() - start);
    return absl::OkStatus();
  }

  // RetrySuspects re-runs each held case's first failing variants, each
  // time in fresh workers, up to --retries times. Every attempt's outcome
  // is kept in the record; a case whose attempts disagree is a "flake",
  // still a finding, so that nothing a GPU did once is dropped. A re-run
  // that an infrastructure failure spoils counts as no attempt.
  absl::Status RetrySuspects() {
    for (int attempt = 0; attempt < options_.retries && !recorder_.suspects().empty(); ++attempt) {
      std::vector<Launch> launches;
      absl::flat_hash_map<std::string, size_t> suspect_of;
      for (size_t i = 0; i < recorder_.suspects().size(); ++i) {
        const CaseRecord& record = recorder_.suspects()[i].record;
        const auto [program, path] = case_sources_.at(record.id);
        std::vector<int> variants(record.first_failures.begin(), record.first_failures.end());
        launches.push_back({program, path, std::move(variants), false, -1});
        suspect_of[record.id] = i;
      }
      auto judge = [&](const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome) -> absl::Status {
        CaseRecord& record = recorder_.suspects()[suspect_of.at(CaseId(launch.program, launch.path, false))].record;
        absl::StatusOr<CaseClass> worst = WorstOfRerun(launch, ran, outcome);
        if (!worst.ok()) return worst.status();
        record.attempts.push_back(std::string(CaseClassToken(*worst)));
        return absl::OkStatus();
      };
      if (absl::Status status = RunRounds(launches, judge, "re-runs of failing variants"); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // WorstOfRerun is the most severe class among a re-run's blocks.
  absl::StatusOr<CaseClass> WorstOfRerun(const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome) {
    CaseClass worst = CaseClass::kPass;
    for (size_t block = 0; block < launch.variants.size(); ++block) {
      BundleCase bundle_case = CaseOf(launch.program, launch.variants[block], launch.path);
      JudgedVariant judged;
      if (absl::Status status = JudgeBlock(launch, ran, outcome, block, bundle_case, judged); !status.ok()) {
        return status;
      }
      if (Severity(bundle_case.verdict.kind) > Severity(worst)) worst = bundle_case.verdict.kind;
    }
    return worst;
  }

  // Judgement judges a launch that ran (or was judged to have faulted,
  // hung or been rejected): it is never told of an infrastructure failure.
  using Judgement = std::function<absl::Status(const Launch&, const ItemResult&, const LaunchOutcome&)>;

  // JudgeWith is the Judgement that records verdicts (Judge); `attributing`
  // launches are not split again when they fault.
  Judgement JudgeWith(bool attributing) {
    return [this, attributing](const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome) {
      return Judge(launch, ran, outcome, attributing);
    };
  }

  // RunRounds runs `launches` (RunWaves), then tries again, one worker at
  // a time, the launches an infrastructure failure kept from being judged:
  // a busy or briefly lost GPU, a crashed worker. One that still fails after
  // kInfrastructureAttempts stops the run with its cause; everything judged
  // until then is in results.tsv.
  absl::Status RunRounds(const std::vector<Launch>& launches, const Judgement& judge, const std::string& what) {
    if (launches.empty()) return absl::OkStatus();
    const absl::Time start = absl::Now();
    std::vector<Launch> pending = launches;
    std::vector<LaunchOutcome> failures;
    for (int attempt = 1; !pending.empty(); ++attempt) {
      std::vector<Launch> unjudged;
      failures.clear();
      const int workers = attempt == 1 ? options_.workers : 1;
      if (absl::Status status = RunWaves(pending, judge, workers, what, unjudged, failures); !status.ok()) {
        return status;
      }
      if (!unjudged.empty() && attempt == kInfrastructureAttempts) {
        result_.infrastructure_retries += unjudged.size();
        return InfrastructureError(
            failures.front().cause,
            absl::StrCat(plan_.programs[unjudged.front().program]->Label(), " on ",
                         CompilePathName(unjudged.front().path), " could not be judged in ", kInfrastructureAttempts,
                         " attempts, each in a fresh worker: ", failures.front().detail, " (", unjudged.size(),
                         " launches of ", what, " unjudged)"));
      }
      result_.infrastructure_retries += unjudged.size();
      pending = std::move(unjudged);
    }
    AddPhase({what, launches.size(), absl::ToDoubleSeconds(absl::Now() - start)}, result_.phases);
    return absl::OkStatus();
  }

  // RunWaves runs `launches` in rounds of kItemsPerRound, up to `workers`
  // rounds at once, each in worker processes of its own, so that the driver
  // JIT compiles on as many cores. Each wave of rounds is judged in order
  // when its last round ends, so the results reach the run directory in
  // launch order as the run goes. Launches that could not be judged go to
  // `unjudged`, with why in `failures`.
  absl::Status RunWaves(const std::vector<Launch>& launches, const Judgement& judge, int workers_wanted,
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
          if (absl::Status status = judge(round[item], ran_item, outcome); !status.ok()) return status;
        }
      }
      if (absl::Status committed = recorder_.CommitComplete(); !committed.ok()) return committed;
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
          for (int index : launch.variants) blocks.push_back(&plan_.variants[launch.program][index]);
          return LaunchProgram(options_.device, *plan_.programs[launch.program], blocks, launch.path);
        },
        watchdog_);
  }

  // Judge records the verdict on each case of a launch that judged them.
  // A launch of several defined cases that faulted or hung is first split,
  // so that each fault or hang lands on its own case.
  absl::Status Judge(const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome, bool attributing) {
    const bool split = outcome.kind == LaunchOutcome::Kind::kKernelFault ||
                       outcome.kind == LaunchOutcome::Kind::kKernelHang;
    if (split && !attributing && !launch.undefined) {
      one_by_one_.push_back(launch);
      return absl::OkStatus();
    }
    for (size_t block = 0; block < launch.variants.size(); ++block) {
      BundleCase bundle_case = CaseOf(launch.program, launch.variants[block], launch.path);
      JudgedVariant judged{.index = bundle_case.variant.index};
      if (absl::Status status = JudgeBlock(launch, ran, outcome, block, bundle_case, judged); !status.ok())
        return status;
      if (launch.confirms >= 0) judged.registry_miss = Confirm(predictions_[launch.confirms], bundle_case);
      if (absl::Status status =
              recorder_.Add(CaseId(launch.program, launch.path, launch.undefined), bundle_case, judged);
          !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  }

  // CaseOf is the bundle case of variant `variant` of `program` on `path`, not yet judged.
  BundleCase CaseOf(int program, int variant, CompilePath path) const {
    BundleCase bundle_case{.program = plan_.programs[program].get(),
                           .variant = plan_.variants[program][variant],
                           .seed = options_.seed,
                           .compile_path = std::string(CompilePathName(path)),
                           .identity = device_.identity};
    bundle_case.expected = plan_.expected[program][variant];
    return bundle_case;
  }

  // JudgeBlock judges block `block` of a launch that ended in `outcome`.
  absl::Status JudgeBlock(const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome, size_t block,
                          BundleCase& bundle_case, JudgedVariant& judged) const {
    const TestProgram& program = *bundle_case.program;
    switch (outcome.kind) {
      case LaunchOutcome::Kind::kRan: {
        const size_t bytes = program.frame().output_bytes;
        bundle_case.actual.assign(ran.output.begin() + block * bytes, ran.output.begin() + (block + 1) * bytes);
        bundle_case.verdict = JudgeOutput(bundle_case.expected, bundle_case.actual);
        judged.ran = true;
        if (const auto* values = std::get_if<LaneValues>(&bundle_case.expected)) {
          judged.words_compared = values->words.size();
        }
        return absl::OkStatus();
      }
      case LaunchOutcome::Kind::kCompileRejected:
        bundle_case.verdict = {CaseClass::kLegalRejected, {}, outcome.detail};
        return absl::OkStatus();
      case LaunchOutcome::Kind::kKernelFault: {
        const DiscrepancyEntry* known = registry_.Find(program.FaultCaseText(bundle_case.variant), result_.target,
                                                       Direction::kDeviceFaults, Toolchain(launch.path));
        bundle_case.verdict = JudgeFault(bundle_case.expected, outcome.detail, known != nullptr ? known->id : "");
        if (launch.variants.size() > 1) {
          absl::StrAppend(&bundle_case.verdict.detail, " (in a launch of ", launch.variants.size(),
                          " undefined cases)");
        }
        return absl::OkStatus();
      }
      case LaunchOutcome::Kind::kKernelHang:
        bundle_case.verdict = {CaseClass::kTimeout, {}, outcome.detail};
        return absl::OkStatus();
      case LaunchOutcome::Kind::kInfrastructure:
        break;
    }
    return absl::InternalError("an infrastructure failure reached the judge");
  }

  // Confirm settles `prediction` by its first variant's verdict, and
  // returns the registry miss (a finding) when the fault did not happen.
  static std::string Confirm(Prediction& prediction, const BundleCase& bundle_case) {
    prediction.confirmed = bundle_case.verdict.kind == CaseClass::kKnownFault;
    if (prediction.confirmed) return "";
    return absl::StrCat(prediction.entry, " predicts a fault for ", bundle_case.program->Label(), " variant ",
                        bundle_case.variant.index, " (", bundle_case.variant.kind, ", ", bundle_case.compile_path,
                        "); it was ", CaseClassName(bundle_case.verdict.kind));
  }

  // Toolchain names a compile path's compiler as the discrepancy registry
  // does: "driver JIT CUDA 13.0; ...", "ptxas 13.0.88" or "nvJitLink 13.0".
  const std::string& Toolchain(CompilePath path) const {
    return path == CompilePath::kDriverJit ? device_.toolchain : offline_toolchains_.at(path);
  }

  absl::Status RecordUnrunKnownFault(int program, int variant, CompilePath path, const std::string& id) {
    BundleCase bundle_case = CaseOf(program, variant, path);
    bundle_case.verdict = {CaseClass::kKnownFault, {}, absl::StrCat(id, ": not run, the registry predicts this fault")};
    return recorder_.Add(CaseId(program, path, false), bundle_case, {.index = bundle_case.variant.index});
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
          SweepHooks hooks{.select = [&](const std::string& id) { return options_.filter.Selects(CompileCaseId(id)); }};
          absl::StatusOr<SupportSweep> sweep = RunSupportSweep(
              **jit, registry_, {target}, NewestPtxVersion(), 1, [](size_t, size_t, const std::string&) {}, "", hooks);
          if (!sweep.ok()) return sweep.status();
          std::string text = absl::StrCat(sweep->summaries[0].near_miss, "\n");
          for (const Disagreement& disagreement : sweep->disagreements) {
            absl::StrAppend(&text, disagreement.model_legal ? "legal" : "illegal", "\t", disagreement.registry_id, "\t",
                            disagreement.instruction, "\t", absl::StrJoin(disagreement.compiler_messages, " | "), "\n");
          }
          for (const CaseRecord& record : sweep->cases) {
            absl::StrAppend(&text, "case\t", CompileCaseId(record.id), "\t", record.outcome, "\t",
                            record.finding ? 1 : 0, "\t", TsvField(record.detail), "\n");
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
    std::vector<CaseRecord> records;
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> fields = absl::StrSplit(lines[i], absl::MaxSplits('\t', 4));
      if (fields.size() < 4) return absl::InternalError("bad sweep report line");
      if (fields[0] == "case") {
        records.push_back({.id = fields[1], .outcome = fields[2], .finding = fields[3] == "1",
                           .detail = fields.size() > 4 ? fields[4] : ""});
        continue;
      }
      const bool illegal = fields[0] == "illegal";
      if (illegal) ++accepted;
      if (!fields[1].empty()) {
        ++result_.illegal_explained;
        continue;
      }
      const CaseClass kind = illegal ? CaseClass::kIllegalAccepted : CaseClass::kLegalRejected;
      ++result_.counts["compile (all operand styles)"][kind];
      ++result_.findings;
    }
    result_.counts["compile (all operand styles)"][CaseClass::kIllegalRejected] += near_miss - accepted;
    return recorder_.Commit(std::move(records), {{std::string(ConformRecorder::kNearMissKey), "done"}});
  }

  const ConformanceOptions& options_;
  const ConformanceProgress& progress_;
  DeviceProbe device_;
  // The offline paths' compilers, as the registry names them.
  absl::flat_hash_map<CompilePath, std::string> offline_toolchains_;
  DiscrepancyRegistry registry_;
  absl::flat_hash_map<std::string, std::pair<int, CompilePath>> case_sources_;  // case ID -> (program, path)
  ConformPlan plan_;  // the programs, their variants and the model's predictions
  std::vector<Launch> one_by_one_;  // launches to run variant by variant
  std::vector<Prediction> predictions_;
  ConformanceResult result_;
  ConformRecorder recorder_;  // after result_, which it counts into
  Watchdog watchdog_{options_.timeout};  // shared by every round's workers, calibrated by their kernels
};

}  // namespace

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
      return absl::FailedPreconditionError(absl::StrCat(
          "--paths ", CompilePathName(path), ": its compiler is not usable: ", toolchain.status().message()));
    }
  }
  absl::StatusOr<DeviceProbe> device = ProbeDevice(options.device, options.timeout);
  if (!device.ok()) return device.status();
  if (options.journal != nullptr) {
    std::vector<std::string> toolkits;
    for (CompilePath path : options.paths) {
      if (path != CompilePath::kDriverJit) toolkits.push_back(*OfflineToolchain(path));
    }
    if (absl::Status described = options.journal->Describe(absl::StrJoin(toolkits, "; "), device->toolchain,
                                                           device->name, device->uuid);
        !described.ok()) {
      return described;
    }
  }
  Run run(options, progress, *std::move(device), *std::move(registry));
  const absl::Status executed = run.Execute();
  if (!executed.ok()) run.result().stopped = std::string(executed.message());
  if (absl::Status written = run.recorder().WriteResults(run.result().identity); !written.ok()) return written;
  if (absl::Status written = WriteSummaries(options, run.result()); !written.ok()) return written;
  if (!executed.ok()) return executed;
  return run.result();
}

}  // namespace matload
