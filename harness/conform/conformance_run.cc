#include "harness/conform/conformance_run.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "harness/conform/bundle_writer.h"
#include "harness/conform/confirmation_memory.h"
#include "harness/conform/conform_case_work.h"
#include "harness/conform/conform_near_miss.h"
#include "harness/conform/conform_plan.h"
#include "harness/conform/conform_recorder.h"
#include "harness/conform/conform_report.h"
#include "harness/conform/fault_bisection.h"
#include "harness/conform/suspect_retries.h"
#include "harness/conform/worker_waves.h"
#include "harness/families/test_program.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/launch_outcome.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/output_files.h"
#include "harness/runs/case_id.h"

namespace matload {
namespace {

// kBlocksPerLaunch bounds a pipelined launch: large enough that a launch
// costs little next to its blocks, small enough that a worker's two
// batches stay within tens of megabytes.
constexpr int kBlocksPerLaunch = 16384;

// kVariantsPerWorkerChunk is about how many variants a chunk holds for each
// worker slot, and kMostItemsPerWorker the most items, so that a worker's
// CUDA context and JIT are set up once per many items. Worker starts are
// the costly part: the host runs them one at a time, about 0.25 s each,
// however many GPUs it has
// (bench/worker_start_benchmark, reports/bench/worker-starts-h100x2-2026-11-26/),
// so a chunk is as large as a few seconds of the GPU's work allow. At
// 10^5 variants a form, 128 items a worker make every sm_90 form one
// chunk: one worker start per slot for the whole forms phase. The slots'
// workers take a chunk's items from a queue as they free up
// (worker_waves.h), so a chunk's end costs each GPU about one item and
// its first worker's start, no longer the stagger of the starts, which
// items dealt up front made every chunk pay: larger chunks would save
// little, and would keep more cases from being recorded as final until
// their chunk's later phases, so the sizes stand.
constexpr size_t kVariantsPerWorkerChunk = size_t{1} << 25;
// kSweptVariantsPerWorkerChunk is kVariantsPerWorkerChunk for a run whose
// defined variants are swept: a sweep judges a hundred or more times as
// many variants a second (1 to 4 x 10^9 on an H200) as the launch pipeline
// with the host judging, so chunks sized for the host left the GPU
// waiting on worker starts (reports/bench/sweep-skips-h200-2026-11-29/).
// It was 2^32, a few seconds of a GPU's work a worker, until soak rounds
// of 2 to 3 x 10^8 variants a form on two H200s ran in 6 chunks each, and
// each chunk's end cost both GPUs its last items and its workers' starts,
// 0.8 to 1.9 s apiece (reports/bench/worker-time-h200x2-2026-11-29/):
// those rounds ran 1.88 times as fast as one GPU's
// (reports/soak/soak-sized-rounds-h200x2-2026-11-29/). At 2^36, a run of
// up to 5 x 10^8 variants a form gives each slot kMostItemsPerWorker
// items a chunk (with 8 workers, every sm_90 form in one chunk), and one of
// 10^9 half as many; a resumed run runs again only the cases with registry
// predictions of its chunk in flight, which wait for the chunk's
// confirmations.
constexpr size_t kSweptVariantsPerWorkerChunk = size_t{1} << 36;

// kThreadsPerCore is how many pipeline threads a worker runs per core of its share.
constexpr int kThreadsPerCore = 2;

// Item is one work item of a chunk: some of one case's variants.
struct Item {
  size_t case_index = 0;  // into Run::cases_
  CaseWork work;
  int confirms = -1;  // the Prediction this item confirms, or -1
  int lineage = -1;   // the Lineage of the fault this item is half of, or -1
};

// Lineage is a fault or hang that split an item in two: if neither half
// nor any of theirs fails so again, the fault did not reproduce, and the
// case is a flake, never a pass.
struct Lineage {
  size_t case_index = 0;
  CaseClass kind = CaseClass::kUnexpectedFault;  // what the first launch did: a fault or a hang
  std::string what;                              // the item and its fault
  bool reproduced = false;
  bool noted = false;  // its case has no item left that may reproduce it, and a flake was noted if none did
};

// Phase is the phase a chunk is in (Run::RunPhases, then the re-runs). What
// a case runs in a phase depends on what it did in the earlier ones.
enum class Phase { kForms, kConfirmations, kPredicted, kUndefined, kReruns };

// CaseState is a case of the chunk in flight: what its items have left
// for the next phase.
struct CaseState {
  int program = 0;
  CompilePath path = CompilePath::kDriverJit;
  std::string id;                            // its defined variants' case
  std::string undefined_id;                  // its undefined variants' case
  size_t undefined = 0;                      // undefined variants, for their own items
  std::map<std::string, LeftOut> predicted;  // variants each registry entry predicts to fault
  size_t attributed = 0;                     // faults attributed one by one
  size_t open = 0;                           // its items of the phase in flight not yet judged
  bool handed_over = false;                  // done with every phase, and handed to the recorder
};

// Prediction is a registry entry's prediction for one case: its first
// variant runs alone to confirm it; what happens to the rest depends on that.
struct Prediction {
  size_t case_index = 0;
  std::string entry;
  LeftOut left_out;
  bool confirmed = false;
};

// Devices is the run's GPUs, as their probes found them.
struct Devices {
  std::vector<int> ordinals;
  std::vector<DeviceProbe> probes;  // probes[i] is ordinals[i]'s
};

// Run holds one conformance run's state in the parent.
class Run {
 public:
  Run(const ConformanceOptions& options, const ConformanceProgress& progress, Devices devices,
      DiscrepancyRegistry registry)
      : options_(options),
        progress_(progress),
        devices_(std::move(devices)),
        registry_(std::move(registry)),
        recorder_(options, result_) {
    result_.identity = devices_.probes[0].identity;
    for (size_t i = 1; i < devices_.probes.size(); ++i)
      absl::StrAppend(&result_.identity, "; ", devices_.probes[i].identity);
    result_.target = devices_.probes[0].target;
    // Until a test kernel finishes, a kernel's watchdog scales from the
    // probe's empty kernel, so even the run's first hang costs seconds.
    watchdog_.ObserveKernel(std::chrono::duration_cast<std::chrono::milliseconds>(devices_.probes[0].calibration));
    for (CompilePath path : options_.paths) {
      if (path == CompilePath::kDriverJit) {
        // "driver JIT CUDA 13.0", without the driver's build line.
        const std::string& jit = devices_.probes[0].toolchain;
        dialects_.push_back({path, devices_.probes[0].jit.Judged(), jit.substr(0, jit.find(';'))});
        continue;
      }
      offline_toolchains_[path] = OfflineToolchain(path).value();  // RunConformance checked it
      const PtxDialect dialect = OfflineDialect(path).value();     // and this
      dialects_.push_back({path, dialect.Judged(), offline_toolchains_[path]});
      if (dialect.AheadOfTables()) result_.not_run.push_back(DialectNote(offline_toolchains_[path], dialect));
    }
  }

  absl::Status Execute() {
    if (absl::Status made = CreateDirectories(options_.run_directory); !made.ok()) return made;
    absl::StatusOr<ConformPlan> plan = PlanConformance(options_, result_.target, dialects_);
    if (!plan.ok()) return plan.status();
    plan_ = *std::move(plan);
    for (std::string& line : plan_.not_run) result_.not_run.push_back(std::move(line));
    for (const auto& [family, forms] : plan_.missing_hardware_forms) {
      if (forms > 0) result_.counts[family][CaseClass::kUnsupported] = forms;
    }
    if (absl::Status restored = recorder_.TakeBack(); !restored.ok()) return restored;
    // The near-miss sweep keeps one worker busy with GPU 0's JIT and no
    // kernel, so it runs beside the forms' workers, on a thread of its own,
    // and is recorded once they are done.
    std::optional<NearMissSweep> near_misses;
    std::thread sweeper;
    if (options_.illegal && !recorder_.Recorded(ConformRecorder::kNearMissKey)) {
      near_misses.emplace();
      sweeper = std::thread([this, &near_misses, target = result_.target] {
        *near_misses =
            SweepNearMisses(devices_.ordinals[0], options_, registry_, target, devices_.probes[0].jit.Judged());
      });
    }
    absl::Cleanup join = [&sweeper] {
      if (sweeper.joinable()) sweeper.join();
    };
    const size_t chunk = ProgramsPerChunk();
    for (size_t first = 0; first < plan_.programs.size(); first += chunk) {
      if (absl::Status status = RunChunk(first, std::min(plan_.programs.size(), first + chunk)); !status.ok())
        return status;
    }
    std::move(join).Invoke();
    if (!near_misses.has_value()) return absl::OkStatus();
    return RecordNearMisses(*std::move(near_misses), result_, recorder_);
  }

  // result is what the run has counted; recorder what it has recorded.
  ConformanceResult& result() { return result_; }
  ConformRecorder& recorder() { return recorder_; }

 private:
  // Judgement judges an item that ran (or was judged to have faulted or
  // hung) on GPU `device`: it is never told of an infrastructure failure.
  using Judgement = std::function<absl::Status(const Item&, const ItemResult&, const LaunchOutcome&, int device)>;

  // Slots is how many workers run at once: --workers for the host, dealt
  // over its GPUs, and at least one a GPU (WorkerWaves). The host's cores
  // and its worker starts, which it runs one at a time, are what the
  // workers share, not the GPUs: one GPU's nightly run keeps 25 of 32
  // cores busy, and its GPU busy a third of the time
  // (reports/bench/host-bound-h100x2-2026-11-27/).
  size_t Slots() const { return waves_.slots(); }
  // ItemsPerWorker is how many items a chunk holds for each worker slot.
  size_t ItemsPerWorker() const {
    const size_t budget = Sweeps() ? kSweptVariantsPerWorkerChunk : kVariantsPerWorkerChunk;
    return std::clamp<size_t>(budget / static_cast<size_t>(options_.variants), 1, kMostItemsPerWorker);
  }
  // Sweeps says whether the run sweeps the defined variants of the forms
  // that have a sweep kernel (conform_case_work.cc): the GPU judges, and no
  // undefined variants are asked for.
  bool Sweeps() const { return options_.judge == JudgePlace::kGpu && !options_.undefined; }
  // ProgramsPerChunk is how many programs one chunk takes: ItemsPerWorker
  // items for every slot, one a case.
  size_t ProgramsPerChunk() const { return std::max<size_t>(1, Slots() * ItemsPerWorker() / options_.paths.size()); }

  // CaseId names program `program`'s case on `path` (harness/runs/case_id.h).
  std::string CaseId(int program, CompilePath path, bool undefined) const {
    const TestProgram& planned = *plan_.programs[program].program;
    return ConformCaseId(planned.instruction().form(), planned.options().shared_address_bits, CompilePathName(path),
                         undefined);
  }
  // CaseIdOf is the case an item's variants count in.
  const std::string& CaseIdOf(const Item& item) const {
    const CaseState& state = cases_[item.case_index];
    return item.work.take == VariantRole::kUndefined ? state.undefined_id : state.id;
  }
  // Work is an item of case `case_index`'s variants [begin, end) of role `take`.
  CaseWork Work(size_t case_index, VariantRole take, std::string entry, std::int64_t begin, std::int64_t end) const {
    const CaseState& state = cases_[case_index];
    const PlannedProgram& planned = plan_.programs[state.program];
    return {.program = planned.program.get(),
            .device_judged = take == VariantRole::kDefined ? planned.device_judged.get() : nullptr,
            .path = state.path,
            .seed = options_.seed,
            .undefined = options_.undefined,
            .take = take,
            .entry = std::move(entry),
            .begin = begin,
            .end = end};
  }

  // RunChunk runs programs [first, last) on every path the run takes and
  // has not recorded, through every phase and the re-runs, recording each
  // case once it is final (CommitFinal). A chunk stopped by an
  // interruption or a failure records nothing more: its cases that are not
  // final run again, whole, when the run is resumed.
  absl::Status RunChunk(size_t first, size_t last) {
    cases_.clear();
    case_of_.clear();
    predictions_.clear();
    std::vector<Item> forms;
    for (size_t program = first; program < last; ++program) {
      for (CompilePath path : plan_.programs[program].paths) {
        const int index = static_cast<int>(program);
        const std::string id = CaseId(index, path, false);
        if (!options_.filter.Selects(id) || (options_.journal != nullptr && options_.journal->Recorded(id))) continue;
        const std::string family = plan_.programs[program].program->instruction().spec().MnemonicText();
        cases_.push_back({.program = index, .path = path, .id = id, .undefined_id = CaseId(index, path, true)});
        case_of_[id] = cases_.size() - 1;
        recorder_.Expect(id, family);
        recorder_.Expect(cases_.back().undefined_id, family);
        forms.push_back({cases_.size() - 1, Work(cases_.size() - 1, VariantRole::kDefined, "", 0, options_.variants)});
      }
    }
    result_.launches += forms.size();
    if (absl::Status ran = RunPhases(std::move(forms)); !ran.ok()) return ran;
    if (absl::Status retried = RetrySuspects(); !retried.ok()) return retried;
    return CommitFinal();  // the cases that became final without a launch since the last wave
  }

  // CommitFinal hands the recorder each case of the chunk that is done with
  // every phase (WorkLeft), once the faults of its that did not happen
  // again are noted; the recorder records it, or holds it for its re-runs,
  // and records the held cases whose re-runs are done. It runs after every
  // wave, so that cases are recorded as they finish.
  absl::Status CommitFinal() {
    for (Lineage& lineage : lineages_) {
      if (lineage.noted || cases_[lineage.case_index].open > 0) continue;
      lineage.noted = true;
      if (!lineage.reproduced) recorder_.NoteUnreproduced(cases_[lineage.case_index].id, lineage.kind, lineage.what);
    }
    std::vector<std::string> done;
    for (CaseState& state : cases_) {
      if (state.handed_over || WorkLeft(state)) continue;
      state.handed_over = true;
      done.push_back(state.id);
      done.push_back(state.undefined_id);
    }
    return recorder_.CommitFinal(done);
  }

  // WorkLeft says whether a case has work left in the phase in flight or a
  // later one: items not yet judged, predictions to confirm, the rest of a
  // prediction's variants (AfterConfirmations), or undefined variants.
  bool WorkLeft(const CaseState& state) const {
    if (state.open > 0) return true;
    if (phase_ < Phase::kConfirmations && !state.predicted.empty()) return true;
    const bool rest = std::any_of(state.predicted.begin(), state.predicted.end(),
                                  [](const auto& entry) { return entry.second.count >= 2; });
    if (phase_ < Phase::kPredicted && rest) return true;
    return phase_ < Phase::kUndefined && state.undefined > 0;
  }

  // RunPhases runs one chunk's items: every case's defined variants; then
  // one variant of each registry prediction, alone, to confirm it; then
  // what the confirmations decide; then the undefined variants.
  absl::Status RunPhases(std::vector<Item> forms) {
    const absl::Time start = absl::Now();
    phase_ = Phase::kForms;
    if (absl::Status status = RunSplitting(std::move(forms), "forms"); !status.ok()) return status;
    phase_ = Phase::kConfirmations;
    absl::StatusOr<std::vector<Item>> confirmations = Confirmations();
    if (!confirmations.ok()) return confirmations.status();
    if (absl::Status status = RunSplitting(*std::move(confirmations), "registry confirmations"); !status.ok()) {
      return status;
    }
    absl::StatusOr<std::vector<Item>> predicted = AfterConfirmations();
    if (!predicted.ok()) return predicted.status();
    phase_ = Phase::kPredicted;
    if (absl::Status status = RunSplitting(*std::move(predicted), "variants the registry predicts to fault");
        !status.ok()) {
      return status;
    }
    std::vector<Item> undefined;
    for (size_t i = 0; i < cases_.size(); ++i) {
      if (cases_[i].undefined > 0) undefined.push_back({i, Work(i, VariantRole::kUndefined, "", 0, options_.variants)});
    }
    result_.launches += undefined.size();
    phase_ = Phase::kUndefined;
    if (absl::Status status = RunSplitting(std::move(undefined), "undefined variants"); !status.ok()) return status;
    result_.device_seconds += absl::ToDoubleSeconds(absl::Now() - start);
    return absl::OkStatus();
  }

  // Confirmations are one item per registry prediction: its first variant,
  // alone, unless the fault memory settles it (Remembered).
  absl::StatusOr<std::vector<Item>> Confirmations() {
    std::vector<Item> items;
    for (size_t i = 0; i < cases_.size(); ++i) {
      for (const auto& [entry, left_out] : cases_[i].predicted) {
        predictions_.push_back({.case_index = i, .entry = entry, .left_out = left_out});
        Item item{i, Work(i, VariantRole::kPredicted, entry, 0, 0), static_cast<int>(predictions_.size()) - 1};
        item.work.listed = {left_out.first};
        absl::StatusOr<bool> remembered = Remembered(item);
        if (!remembered.ok()) return remembered.status();
        if (!*remembered) items.push_back(std::move(item));
      }
    }
    return items;
  }

  // Remembered settles a confirmation item without a launch when its fault
  // is known (ConfirmationMemory::Recall): its variant is the known fault it was then,
  // recorded and attributed as RecordSingle would, with the same detail.
  absl::StatusOr<bool> Remembered(const Item& item) {
    absl::StatusOr<std::optional<std::string>> fault = memory_.Recall(ConfirmationOf(item));
    if (!fault.ok()) return fault.status();
    if (!fault->has_value()) return false;
    BundleCase bundle_case = CaseOf(item, item.work.IndexAt(0), devices_.ordinals[0]);
    bundle_case.verdict = {CaseClass::kKnownFault, {}, **fault};
    predictions_[item.confirms].confirmed = true;
    result_.confirmed[{CaseIdOf(item), item.work.entry}] = **fault;
    ++cases_[item.case_index].attributed;
    ++result_.confirmations_remembered;
    if (absl::Status added = recorder_.Add(CaseIdOf(item), bundle_case, {.index = bundle_case.variant.index});
        !added.ok()) {
      return added;
    }
    return true;
  }

  // ConfirmationOf is the confirming launch of a confirmation item.
  Confirmation ConfirmationOf(const Item& item) const {
    return {.case_id = CaseIdOf(item),
            .entry = item.work.entry,
            .program = item.work.program,
            .path = item.work.path,
            .variant = item.work.program->MakeVariant(options_.seed, static_cast<int>(item.work.IndexAt(0)),
                                                      options_.undefined)};
  }

  // Remember keeps a confirmation item's fault, `detail`, in the run's
  // result (ConformanceResult::confirmed) and in the fault memory: the
  // verdict's detail as it was recorded, so that a run that remembers it
  // records the same.
  absl::Status Remember(const Item& item, const std::string& detail) {
    result_.confirmed[{CaseIdOf(item), item.work.entry}] = detail;
    return memory_.Keep(ConfirmationOf(item), detail);
  }

  // AfterConfirmations records the rest of each confirmed prediction's
  // variants as known faults, not run (unless --confirm_all_faults), and
  // returns the items that run the rest of the others: an entry that
  // over-predicts is a finding, and its variants run like any others.
  absl::StatusOr<std::vector<Item>> AfterConfirmations() {
    std::vector<Item> items;
    for (const Prediction& prediction : predictions_) {
      const std::int64_t rest = prediction.left_out.first + 1;
      if (prediction.left_out.count < 2) continue;
      if (!prediction.confirmed || options_.confirm_all_faults) {
        items.push_back({prediction.case_index, Work(prediction.case_index, VariantRole::kPredicted, prediction.entry,
                                                     rest, options_.variants)});
        continue;
      }
      CaseSummary unrun;
      unrun.AddUnrun(CaseClass::kKnownFault, prediction.left_out.count - 1, rest,
                     absl::StrCat(prediction.entry, ": not run, the registry predicts this fault"));
      const CaseState& state = cases_[prediction.case_index];
      if (absl::Status status = recorder_.AddSummary(state.id, unrun, nullptr); !status.ok()) return status;
    }
    return items;
  }

  // RunSplitting runs `items`, then again, split in two, those a fault or
  // a hang ended (Split), until every variant is judged. Each case counts
  // its items not yet judged, halves included (CaseState::open).
  absl::Status RunSplitting(std::vector<Item> items, const std::string& what) {
    lineages_.clear();
    for (const Item& item : items) ++cases_[item.case_index].open;
    while (!items.empty()) {
      std::vector<Item> again;
      const Judgement judge = [&](const Item& item, const ItemResult& ran, const LaunchOutcome& outcome, int device) {
        const size_t before = again.size();
        const absl::Status judged = Judge(item, ran, outcome, device, again);
        cases_[item.case_index].open += again.size() - before;
        --cases_[item.case_index].open;
        return judged;
      };
      if (absl::Status status = RunRounds(items, judge, what); !status.ok()) return status;
      items = std::move(again);
    }
    return absl::OkStatus();
  }

  // Judge records what an item judged, or splits it when it faulted or hung.
  absl::Status Judge(const Item& item, const ItemResult& ran, const LaunchOutcome& outcome, int device,
                     std::vector<Item>& again) {
    switch (outcome.kind) {
      case LaunchOutcome::Kind::kRan: {
        absl::StatusOr<CaseSummary> summary = CaseSummary::Decode(ran.output);
        if (!summary.ok()) return summary.status();
        CaseState& state = cases_[item.case_index];
        state.undefined += summary->undefined;
        result_.worker_seconds.Add(summary->seconds);
        for (const auto& [entry, left_out] : summary->predicted) state.predicted[entry].Add(left_out);
        if (item.confirms >= 0) Settle(predictions_[item.confirms], item, summary->Worst());
        return recorder_.AddSummary(CaseIdOf(item), *summary,
                                    [&](const FailureSample& sample) { return CaseOf(item, sample); });
      }
      case LaunchOutcome::Kind::kKernelFault:
      case LaunchOutcome::Kind::kKernelHang:
        return Split(item, outcome, device, again);
      case LaunchOutcome::Kind::kCompileRejected:  // a worker judges a rejection itself (RunCaseWork)
      case LaunchOutcome::Kind::kInfrastructure:
        break;
    }
    return absl::InternalError(
        absl::StrCat("an item came back as '", outcome.detail, "', which the judge cannot take"));
  }

  // Split decides what becomes of an item whose launch faulted or hung
  // (fault_bisection.h): its one variant's verdict, a verdict for all its
  // variants, or two halves that run again.
  absl::Status Split(const Item& item, const LaunchOutcome& outcome, int device, std::vector<Item>& again) {
    const CaseState& state = cases_[item.case_index];
    if (item.lineage >= 0) lineages_[item.lineage].reproduced = true;
    BisectionStep step =
        Bisect(item.work, outcome, state.attributed, state.undefined,
               {.first_failures = options_.first_failures, .confirm_all_faults = options_.confirm_all_faults});
    switch (step.kind) {
      case BisectionStep::Kind::kAttributeOne: return RecordSingle(item, outcome, device);
      case BisectionStep::Kind::kJudgeWhole:
        again.push_back({item.case_index, std::move(step.whole), item.confirms, item.lineage});
        return absl::OkStatus();
      case BisectionStep::Kind::kSplit:
        lineages_.push_back(
            {.case_index = item.case_index, .kind = step.unreproduced_kind, .what = std::move(step.unreproduced)});
        const int lineage = static_cast<int>(lineages_.size()) - 1;
        again.push_back({item.case_index, std::move(step.halves.first), item.confirms, lineage});
        again.push_back({item.case_index, std::move(step.halves.second), item.confirms, lineage});
        return absl::OkStatus();
    }
    return absl::InternalError("an unknown bisection step");
  }

  // RecordSingle records the fault or hang of an item of one variant.
  absl::Status RecordSingle(const Item& item, const LaunchOutcome& outcome, int device) {
    CaseState& state = cases_[item.case_index];
    BundleCase bundle_case = CaseOf(item, item.work.IndexAt(0), device);
    if (outcome.kind == LaunchOutcome::Kind::kKernelHang) {
      bundle_case.verdict = {CaseClass::kTimeout, {}, outcome.detail};
    } else {
      bundle_case.verdict = JudgeFault(bundle_case.expected, outcome.detail, KnownFault(bundle_case, state.path));
    }
    ++state.attributed;
    if (item.confirms >= 0) {
      Settle(predictions_[item.confirms], item, bundle_case.verdict.kind);
      if (predictions_[item.confirms].confirmed) {
        if (absl::Status kept = Remember(item, bundle_case.verdict.detail); !kept.ok()) return kept;
      }
    }
    return recorder_.Add(CaseIdOf(item), bundle_case, {.index = bundle_case.variant.index});
  }

  // Settle settles a prediction by its first variant's class, and notes a
  // registry miss (a finding) when the fault did not happen.
  void Settle(Prediction& prediction, const Item& item, CaseClass kind) {
    prediction.confirmed = kind == CaseClass::kKnownFault;
    if (prediction.confirmed) return;
    const CaseState& state = cases_[prediction.case_index];
    const Variant variant =
        item.work.program->MakeVariant(options_.seed, static_cast<int>(prediction.left_out.first), options_.undefined);
    recorder_.NoteRegistryMiss(
        state.id,
        absl::StrCat(prediction.entry, " predicts a fault for ", item.work.program->Label(), " variant ", variant.index,
                     " (", variant.kind, ", ", CompilePathName(state.path), "); it was ", CaseClassName(kind)));
  }

  // CaseOf is the bundle case of the item's variant `index`, run on GPU
  // `device`, not yet judged.
  BundleCase CaseOf(const Item& item, std::int64_t index, int device) const {
    const TestProgram& program = *item.work.program;
    BundleCase bundle_case{.program = &program,
                           .variant = program.MakeVariant(options_.seed, static_cast<int>(index), options_.undefined),
                           .seed = options_.seed,
                           .compile_path = std::string(CompilePathName(item.work.path)),
                           .identity = IdentityOf(device)};
    bundle_case.expected = program.Expect(bundle_case.variant);
    return bundle_case;
  }

  // CaseOf is a worker's failure sample as a bundle case, judged again
  // from its output (the same verdict, with its mismatches).
  BundleCase CaseOf(const Item& item, const FailureSample& sample) const {
    BundleCase bundle_case = CaseOf(item, sample.index, sample.device);
    bundle_case.actual = sample.output;
    bundle_case.verdict = sample.output.empty() ? CaseVerdict{sample.kind, {}, sample.detail}
                                                : JudgeOutput(bundle_case.expected, sample.output);
    return bundle_case;
  }

  // IdentityOf is GPU `device`'s identity line.
  const std::string& IdentityOf(int device) const {
    for (size_t i = 0; i < devices_.ordinals.size(); ++i) {
      if (devices_.ordinals[i] == device) return devices_.probes[i].identity;
    }
    return result_.identity;
  }

  // KnownFault is the registry entry that explains a fault of `bundle_case`
  // compiled on `path`, or empty.
  std::string KnownFault(const BundleCase& bundle_case, CompilePath path) const {
    const DiscrepancyEntry* known = registry_.Find(bundle_case.program->FaultCaseText(bundle_case.variant),
                                                   result_.target, Direction::kDeviceFaults, Toolchain(path));
    return known != nullptr ? known->id : "";
  }

  // Toolchain names a compile path's compiler as the discrepancy registry
  // does: "driver JIT CUDA 13.0; ...", "ptxas 13.0.88" or "nvJitLink 13.0".
  const std::string& Toolchain(CompilePath path) const {
    return path == CompilePath::kDriverJit ? devices_.probes[0].toolchain : offline_toolchains_.at(path);
  }

  // RetrySuspects re-runs each held case's first failing variants, each
  // time in fresh workers, up to --retries times, and notes each attempt's
  // class (suspect_retries.h). A case is recorded after the wave of its
  // last re-run (CommitFinal).
  absl::Status RetrySuspects() {
    phase_ = Phase::kReruns;
    for (int attempt = 0; attempt < options_.retries && !recorder_.suspects().empty(); ++attempt) {
      std::vector<Item> items;
      for (const auto& [id, suspect] : recorder_.suspects()) {
        const size_t case_index = case_of_.at(id);
        items.push_back({case_index, Rerun(Work(case_index, VariantRole::kAny, "", 0, 0), suspect.record)});
      }
      const Judgement judge = [&](const Item& item, const ItemResult& ran, const LaunchOutcome& outcome,
                                  int device) -> absl::Status {
        absl::StatusOr<CaseClass> worst = AttemptClass(item.work, ran, outcome, [&](std::int64_t index) {
          const BundleCase bundle_case = CaseOf(item, index, device);
          return JudgeFault(bundle_case.expected, outcome.detail, KnownFault(bundle_case, item.work.path)).kind;
        });
        if (!worst.ok()) return worst.status();
        recorder_.NoteAttempt(CaseIdOf(item), *worst);
        return absl::OkStatus();
      };
      if (absl::Status status = RunRounds(items, judge, "re-runs of failing variants"); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // RunRounds runs `items` on the workers (worker_waves.h), judging each
  // with `judge` and recording the cases each makes final (CommitFinal).
  absl::Status RunRounds(const std::vector<Item>& items, const Judgement& judge, const std::string& what) {
    std::vector<const CaseWork*> works;
    for (const Item& item : items) works.push_back(&item.work);
    return waves_.Run(
        works, [this](const CaseWork& work, int device) { return Context(work, device); },
        [&](size_t index, const ItemResult& ran, const LaunchOutcome& outcome, int device) {
          return judge(items[index], ran, outcome, device);
        },
        [this] { return CommitFinal(); }, what);
  }

  // Context is what a worker on GPU `device` runs `work` with: host threads
  // enough to keep the machine's cores busy with every worker at once.
  // A worker runs kThreadsPerCore host threads per core its share of the
  // cores, so that a worker with more work left than the others takes
  // the cores they leave. The registry's answers are remembered per fault
  // case text.
  CaseWorkContext Context(const CaseWork& work, int device) const {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = std::max(1, kThreadsPerCore * cores / static_cast<int>(Slots()));
    const auto memo = std::make_shared<FaultTextMemo>(threads);
    const auto registry_answer = [this, &work](const std::string& text) -> std::string {
      const DiscrepancyEntry* known =
          registry_.Find(text, result_.target, Direction::kDeviceFaults, Toolchain(work.path));
      return known != nullptr ? known->id : "";
    };
    return {.device = device,
            .threads = threads,
            .blocks = kBlocksPerLaunch,
            .keep = options_.first_failures,
            .predict = [memo, registry_answer](const std::string& text, int thread) {
              return memo->Find(thread, text, registry_answer);
            }};
  }

  const ConformanceOptions& options_;
  const ConformanceProgress& progress_;
  Devices devices_;
  // The offline paths' compilers, as the registry names them.
  absl::flat_hash_map<CompilePath, std::string> offline_toolchains_;
  // dialects_ is each path's PTX ISA version, in --paths order (conform_plan.h).
  std::vector<PathDialect> dialects_;
  DiscrepancyRegistry registry_;
  ConformPlan plan_;                                  // the programs
  std::vector<CaseState> cases_;                      // the chunk's cases
  absl::flat_hash_map<std::string, size_t> case_of_;  // case ID -> index into cases_
  std::vector<Prediction> predictions_;               // the chunk's registry predictions
  std::vector<Lineage> lineages_;                     // the faults that split the phase's items
  Phase phase_ = Phase::kForms;                       // the chunk's phase in flight
  ConformanceResult result_;
  ConformRecorder recorder_;             // after result_, which it counts into
  Watchdog watchdog_{options_.timeout};  // shared by every slot's workers, calibrated by their kernels
  WorkerWaves waves_{devices_.ordinals, static_cast<size_t>(options_.workers), watchdog_, progress_, result_};
  ConfirmationMemory memory_{options_, devices_.probes};  // the confirmations met before
};

// ProbeDevices is the run's GPUs as options.probed has them, or as their
// probes find them (ProbeRunDevices).
absl::StatusOr<Devices> ProbeDevices(const ConformanceOptions& options) {
  if (options.probed != nullptr) return Devices{.ordinals = options.devices, .probes = *options.probed};
  absl::StatusOr<std::vector<DeviceProbe>> probes = ProbeRunDevices(options);
  if (!probes.ok()) return probes.status();
  return Devices{.ordinals = options.devices, .probes = *std::move(probes)};
}

// Describe tells the run's journal which toolkits and GPUs it runs on.
absl::Status Describe(const ConformanceOptions& options, const Devices& devices) {
  if (options.journal == nullptr) return absl::OkStatus();
  std::vector<std::string> toolkits;
  for (CompilePath path : options.paths) {
    if (path != CompilePath::kDriverJit) toolkits.push_back(*OfflineToolchain(path));
  }
  std::vector<std::string> names;
  std::vector<std::string> uuids;
  for (const DeviceProbe& probe : devices.probes) {
    names.push_back(probe.name);
    uuids.push_back(probe.uuid);
  }
  return options.journal->Describe(absl::StrJoin(toolkits, "; "), devices.probes[0].toolchain,
                                   absl::StrJoin(names, "; "), absl::StrJoin(uuids, "; "));
}

// CheckOptions refuses what cannot run before anything runs.
absl::Status CheckOptions(const ConformanceOptions& options) {
  if (options.variants < 1) return absl::InvalidArgumentError("--variants must be at least 1");
  if (options.run_directory.empty()) return absl::InvalidArgumentError("a run needs a run directory");
  if (options.paths.empty()) return absl::InvalidArgumentError("a run needs a compile path");
  if (options.devices.empty()) return absl::InvalidArgumentError("a run needs a GPU");
  for (CompilePath path : options.paths) {
    if (path == CompilePath::kDriverJit) continue;
    if (absl::StatusOr<std::string> toolchain = OfflineToolchain(path); !toolchain.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "--paths ", CompilePathName(path), ": its compiler is not usable: ", toolchain.status().message()));
    }
    // A compiler that cannot say what it speaks cannot be given kernels.
    if (absl::StatusOr<PtxDialect> dialect = OfflineDialect(path); !dialect.ok()) return dialect.status();
  }
  return absl::OkStatus();
}

}  // namespace

// The probes run at once, a thread each: a probe is a worker of its own,
// which creates a context, asks the JIT its PTX version and times a
// calibration kernel. One after another, they were a likely part of the
// 1.2 s a GPU that runs on four H200s spent outside their GPU phase
// (reports/bench/multi-gpu-remembered-h200x4-2026-11-29/).
absl::StatusOr<std::vector<DeviceProbe>> ProbeRunDevices(const ConformanceOptions& options) {
  std::vector<absl::StatusOr<DeviceProbe>> probes(options.devices.size(), absl::UnknownError("not probed"));
  {
    std::vector<std::jthread> probing;
    for (size_t i = 0; i < options.devices.size(); ++i) {
      probing.emplace_back([&, i] { probes[i] = ProbeDevice(options.devices[i], options.timeout); });
    }
  }
  std::vector<DeviceProbe> found;
  for (size_t i = 0; i < options.devices.size(); ++i) {
    absl::StatusOr<DeviceProbe>& probe = probes[i];
    if (!probe.ok()) return probe.status();
    if (!found.empty() && probe->target != found[0].target) {
      return absl::FailedPreconditionError(
          absl::StrCat("--devices: GPU ", options.devices[i], " is ", probe->target.Name(), " but GPU ",
                       options.devices[0], " is ", found[0].target.Name(), "; one run takes GPUs of one architecture"));
    }
    found.push_back(*std::move(probe));
  }
  return found;
}

absl::StatusOr<ConformanceResult> RunConformance(const ConformanceOptions& options,
                                                 const ConformanceProgress& progress) {
  if (absl::Status checked = CheckOptions(options); !checked.ok()) return checked;
  absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  if (!registry.ok()) return registry.status();
  absl::StatusOr<Devices> devices = ProbeDevices(options);
  if (!devices.ok()) return devices.status();
  if (absl::Status described = Describe(options, *devices); !described.ok()) return described;
  Run run(options, progress, *std::move(devices), *std::move(registry));
  const absl::Status executed = run.Execute();
  if (!executed.ok()) run.result().stopped = std::string(executed.message());
  if (absl::Status written = run.recorder().WriteResults(run.result().identity); !written.ok()) return written;
  if (absl::Status written = WriteSummaries(options, run.result()); !written.ok()) return written;
  if (!executed.ok()) return executed;
  return run.result();
}

absl::Status DescribeRun(const ConformanceOptions& options, RunJournal& journal) {
  absl::StatusOr<Devices> devices = ProbeDevices(options);
  if (!devices.ok()) return devices.status();
  ConformanceOptions describing = options;
  describing.journal = &journal;
  return Describe(describing, *devices);
}

}  // namespace matload
