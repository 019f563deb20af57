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

// TsvField keeps a message on one line of a table: tabs and line breaks become spaces.
std::string TsvField(absl::string_view text) {
  std::string field(text);
  std::replace_if(field.begin(), field.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return field;
}

// AddPhase adds `phase` to the phase of the same name, or appends it: a
// run's chunks each pass through the same phases.
void AddPhase(const ConformancePhase& phase, std::vector<ConformancePhase>& phases) {
  for (ConformancePhase& known : phases) {
    if (known.what != phase.what) continue;
    known.launches += phase.launches;
    known.seconds += phase.seconds;
    return;
  }
  phases.push_back(phase);
}

// TotalsJson is what a run has counted so far, and RestoreTotals takes it
// back into `result`, so that a resumed run's summary counts what the
// earlier attempts judged too.
nlohmann::json TotalsJson(const ConformanceResult& result) {
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) counts[family][std::to_string(static_cast<int>(kind))] = count;
  }
  nlohmann::json phases = nlohmann::json::array();
  for (const ConformancePhase& phase : result.phases) phases.push_back({phase.what, phase.launches, phase.seconds});
  return {{"counts", counts},       {"launches", result.launches},
          {"words", result.words_compared}, {"findings", result.findings},
          {"explained", result.illegal_explained}, {"misses", result.registry_misses},
          {"seconds", result.device_seconds}, {"phases", phases},
          {"executions", result.executions}, {"retries", result.infrastructure_retries},
          {"flakes", result.flakes}};
}

absl::Status RestoreTotals(const nlohmann::json& json, ConformanceResult& result) {
  try {
    for (const auto& [family, classes] : json.at("counts").items()) {
      for (const auto& [kind, count] : classes.items()) {
        result.counts[family][static_cast<CaseClass>(std::stoi(kind))] = count.get<size_t>();
      }
    }
    for (const nlohmann::json& phase : json.at("phases")) result.phases.push_back({phase.at(0), phase.at(1), phase.at(2)});
    result.launches = json.at("launches");
    result.words_compared = json.at("words");
    result.findings = json.at("findings");
    result.illegal_explained = json.at("explained");
    result.registry_misses = json.at("misses").get<std::vector<std::string>>();
    result.device_seconds = json.at("seconds");
    result.executions = json.at("executions");
    result.infrastructure_retries = json.at("retries");
    result.flakes = json.at("flakes");
  } catch (const std::exception& error) {
    return absl::DataLossError(absl::StrCat("the recorded conform totals do not read back: ", error.what()));
  }
  return absl::OkStatus();
}

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
    if (absl::Status built = BuildPrograms(); !built.ok()) return built;
    if (absl::Status restored = TakeBackRecorded(); !restored.ok()) return restored;
    const size_t chunk = ProgramsPerChunk();
    for (size_t first = 0; first < programs_.size(); first += chunk) {
      if (absl::Status status = RunChunk(first, std::min(programs_.size(), first + chunk)); !status.ok()) return status;
    }
    if (options_.illegal && !Recorded(kNearMissKey)) {
      if (absl::Status status = CheckIllegalForms(); !status.ok()) return status;
    }
    NoteTcgen05();
    return absl::OkStatus();
  }

  // WriteResults writes results.tsv and the bundle index: what the run
  // recorded, whether it judged everything or stopped.
  absl::Status WriteResults() {
    result_.bundles = bundles_.distinct();
    if (absl::Status written = WriteCaseTable(); !written.ok()) return written;
    return bundles_.WriteIndex();
  }

  const ConformanceResult& result() const { return result_; }
  ConformanceResult& result() { return result_; }

 private:
  // kNearMissKey is the artifact that marks the near-miss sweep recorded.
  static constexpr absl::string_view kNearMissKey = "conform/near-miss";

  std::string ResultsPath() const { return (std::filesystem::path(options_.run_directory) / "results.tsv").string(); }

  // ProgramsPerChunk is how many programs one chunk takes: about one wave
  // of launches, so that the workers stay busy and a SIGKILL costs at most
  // the chunk in flight (harness/runs/run_journal.h).
  size_t ProgramsPerChunk() const {
    return std::max<size_t>(1, static_cast<size_t>(options_.workers) * kItemsPerRound / options_.paths.size());
  }

  // CaseId names program `program`'s case on `path` (harness/runs/case_id.h).
  std::string CaseId(int program, CompilePath path, bool undefined) const {
    return ConformCaseId(programs_[program]->instruction().form(), programs_[program]->options().shared_address_bits,
                         CompilePathName(path), undefined);
  }

  // Recorded says whether an earlier attempt of a resumed run recorded `key`.
  bool Recorded(absl::string_view key) const { return recorded_keys_.contains(std::string(key)); }

  // TakeBackRecorded takes back what an earlier attempt of a resumed run
  // recorded: its cases, its totals and its bundles.
  absl::Status TakeBackRecorded() {
    if (options_.journal == nullptr || !options_.journal->resumed()) return absl::OkStatus();
    absl::StatusOr<std::vector<CaseRecord>> cases = options_.journal->Cases();
    if (!cases.ok()) return cases.status();
    cases_ = *std::move(cases);
    absl::StatusOr<std::optional<std::string>> near_miss = options_.journal->Artifact(std::string(kNearMissKey));
    if (!near_miss.ok()) return near_miss.status();
    if (near_miss->has_value()) recorded_keys_.insert(std::string(kNearMissKey));
    absl::StatusOr<std::optional<std::string>> totals = options_.journal->Artifact("conform/totals");
    absl::StatusOr<std::optional<std::string>> bundles = options_.journal->Artifact("conform/bundles");
    if (!totals.ok()) return totals.status();
    if (!bundles.ok()) return bundles.status();
    if (!totals->has_value() || !bundles->has_value()) return absl::OkStatus();
    if (absl::Status restored = RestoreTotals(nlohmann::json::parse(**totals, nullptr, false), result_); !restored.ok()) {
      return restored;
    }
    return bundles_.Restore(nlohmann::json::parse(**bundles, nullptr, false));
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
    if (ran.ok()) ran = CommitComplete();
    if (ran.ok()) ran = RetrySuspects();
    // Cases held for re-runs are kept even when the run stops here.
    const absl::Status committed = CommitComplete(/*final=*/true);
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
        confirmations.push_back({program, path, {static_cast<int>(v)}, false, static_cast<int>(predictions_.size())});
      } else {
        prediction.rest.push_back(static_cast<int>(v));
      }
    }
    const std::string family = programs_[program]->instruction().spec().MnemonicText();
    case_sources_[CaseId(program, path, false)] = {program, path};
    tally_.Expect(CaseId(program, path, false), family, variants_[program].size() - undefined.variants.size());
    tally_.Expect(CaseId(program, path, true), family, undefined.variants.size());
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

  // CommitComplete records the cases whose every variant is judged: they
  // join the run's totals and bundle counts, and are stored with them. A
  // case whose findings a re-run could contradict waits for its re-runs
  // (RetrySuspects) unless `final`.
  absl::Status CommitComplete(bool final = false) {
    std::vector<TalliedCase> complete = tally_.TakeComplete();
    if (final) {
      for (TalliedCase& suspect : suspects_) complete.push_back(Settled(std::move(suspect)));
      suspects_.clear();
    }
    std::vector<CaseRecord> records;
    for (TalliedCase& tallied : complete) {
      if (!final && options_.retries > 0 && Retryable(tallied.record.outcome)) {
        suspects_.push_back(std::move(tallied));
        continue;
      }
      AddToTotals(tallied);
      records.push_back(std::move(tallied.record));
    }
    if (records.empty()) return absl::OkStatus();
    return Commit(std::move(records), {});
  }

  // Retryable says whether a case's outcome could be a flake: a wrong
  // value, a fault or a hang the model did not predict. A compiler's
  // verdict is not re-run: it does not vary from run to run.
  static bool Retryable(absl::string_view outcome) {
    return outcome == "mismatch" || outcome == "unexpected_fault" || outcome == "missing_fault" || outcome == "timeout";
  }

  // AddToTotals adds a finished case to the run's totals and bundle counts,
  // and makes its bundle path relative to the run directory.
  void AddToTotals(TalliedCase& tallied) {
    for (const auto& [kind, count] : tallied.classes) result_.counts[tallied.family][kind] += count;
    result_.executions += tallied.executions;
    result_.words_compared += tallied.words_compared;
    result_.findings += tallied.findings;
    for (std::string& miss : tallied.registry_misses) result_.registry_misses.push_back(std::move(miss));
    for (const auto& [directory, cases] : tallied.bundle_cases) bundles_.Count(directory, cases);
    CaseRecord& record = tallied.record;
    if (!record.bundle.empty()) {
      record.bundle = std::filesystem::path(record.bundle).lexically_relative(options_.run_directory).string();
    }
    if (record.outcome == "flake") ++result_.flakes;
  }

  // RetrySuspects re-runs each held case's first failing variants, each
  // time in fresh workers, up to --retries times. Every attempt's outcome
  // is kept in the record; a case whose attempts disagree is a "flake",
  // still a finding, so that nothing a GPU did once is dropped. A re-run
  // that an infrastructure failure spoils counts as no attempt.
  absl::Status RetrySuspects() {
    for (int attempt = 0; attempt < options_.retries && !suspects_.empty(); ++attempt) {
      std::vector<Launch> launches;
      absl::flat_hash_map<std::string, size_t> suspect_of;
      for (size_t i = 0; i < suspects_.size(); ++i) {
        const CaseRecord& record = suspects_[i].record;
        const auto [program, path] = case_sources_.at(record.id);
        std::vector<int> variants(record.first_failures.begin(), record.first_failures.end());
        launches.push_back({program, path, std::move(variants), false, -1});
        suspect_of[record.id] = i;
      }
      auto judge = [&](const Launch& launch, const ItemResult& ran, const LaunchOutcome& outcome) -> absl::Status {
        CaseRecord& record = suspects_[suspect_of.at(CaseId(launch.program, launch.path, false))].record;
        absl::StatusOr<CaseClass> worst = WorstOfRerun(launch, ran, outcome);
        if (!worst.ok()) return worst.status();
        record.attempts.push_back(std::string(CaseClassToken(*worst)));
        return absl::OkStatus();
      };
      if (absl::Status status = RunRounds(launches, judge, "re-runs of failing variants"); !status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // Settled is a held case after its re-runs: its attempts start with its
  // first outcome, and attempts that disagree make it a "flake".
  static TalliedCase Settled(TalliedCase suspect) {
    CaseRecord& record = suspect.record;
    if (record.attempts.empty()) return suspect;
    const bool differs = std::any_of(record.attempts.begin(), record.attempts.end(),
                                     [&](const std::string& attempt) { return attempt != record.outcome; });
    record.attempts.insert(record.attempts.begin(), record.outcome);
    if (differs) record.outcome = "flake";
    return suspect;
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

  // Commit stores finished cases with the run's totals and bundles, in
  // one transaction of the results store when the run has one.
  absl::Status Commit(std::vector<CaseRecord> records, std::map<std::string, std::string> artifacts) {
    if (options_.journal != nullptr) {
      artifacts["conform/totals"] = TotalsJson(result_).dump();
      artifacts["conform/bundles"] = bundles_.State().dump();
      if (absl::Status recorded = options_.journal->Record(records, artifacts); !recorded.ok()) return recorded;
    }
    for (CaseRecord& record : records) cases_.push_back(std::move(record));
    return absl::OkStatus();
  }

  // WriteCaseTable writes results.tsv: one line per case, in case ID order.
  absl::Status WriteCaseTable() {
    std::sort(cases_.begin(), cases_.end(), [](const CaseRecord& a, const CaseRecord& b) { return a.id < b.id; });
    std::string table = absl::StrCat("# ", device_.identity, "\n# case\toutcome\tvariants by outcome\tfirst failing ",
                                     "variants\tdetail\tbundle\n");
    for (const CaseRecord& record : cases_) {
      std::vector<std::string> counts;
      for (const auto& [outcome, count] : record.counts) counts.push_back(absl::StrCat(outcome, "=", count));
      absl::StrAppend(&table, record.id, "\t", record.outcome, "\t", absl::StrJoin(counts, ","), "\t",
                      absl::StrJoin(record.first_failures, ","), "\t", TsvField(record.detail), "\t", record.bundle,
                      "\n");
    }
    return WriteFile(ResultsPath(), table);
  }

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
            absl::StrCat(programs_[unjudged.front().program]->Label(), " on ", CompilePathName(unjudged.front().path),
                         " could not be judged in ", kInfrastructureAttempts, " attempts, each in a fresh worker: ",
                         failures.front().detail, " (", unjudged.size(), " launches of ", what, " unjudged)"));
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
      if (absl::Status committed = CommitComplete(); !committed.ok()) return committed;
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
    const bool split = outcome.kind == LaunchOutcome::Kind::kKernelFault ||
                       outcome.kind == LaunchOutcome::Kind::kKernelHang;
    if (split && !attributing && !launch.undefined) {
      one_by_one_.push_back(launch);
      return absl::OkStatus();
    }
    for (size_t block = 0; block < launch.variants.size(); ++block) {
      BundleCase bundle_case = CaseOf(launch.program, launch.variants[block], launch.path);
      JudgedVariant judged{.index = bundle_case.variant.index};
      if (absl::Status status = JudgeBlock(launch, ran, outcome, block, bundle_case, judged); !status.ok()) return status;
      if (launch.confirms >= 0) judged.registry_miss = Confirm(predictions_[launch.confirms], bundle_case);
      if (absl::Status status = Record(bundle_case, judged, launch.program, launch.path, launch.undefined);
          !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  }

  // CaseOf is the bundle case of variant `variant` of `program` on `path`, not yet judged.
  BundleCase CaseOf(int program, int variant, CompilePath path) const {
    BundleCase bundle_case{.program = programs_[program].get(),
                           .variant = variants_[program][variant],
                           .seed = options_.seed,
                           .compile_path = std::string(CompilePathName(path)),
                           .identity = device_.identity};
    bundle_case.expected = expected_[program][variant];
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
          absl::StrAppend(&bundle_case.verdict.detail, " (in a launch of ", launch.variants.size(), " undefined cases)");
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
    return Record(bundle_case, {.index = bundle_case.variant.index}, program, path, false);
  }

  // Record counts one judged variant against its case (ConformTally), and
  // files a bundle for a finding.
  absl::Status Record(const BundleCase& bundle_case, JudgedVariant judged, int program, CompilePath path,
                      bool undefined) {
    const CaseVerdict& verdict = bundle_case.verdict;
    judged.kind = verdict.kind;
    judged.detail = verdict.detail.substr(0, verdict.detail.find('\n'));
    if (IsFinding(verdict.kind)) {
      absl::StatusOr<std::string> filed = bundles_.Add(bundle_case);
      if (!filed.ok()) return filed.status();
      judged.bundle = *filed;
    }
    tally_.Add(CaseId(program, path, undefined), judged);
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
    return Commit(std::move(records), {{std::string(kNearMissKey), "done"}});
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
  ConformTally tally_;             // the variants of the cases in flight
  std::vector<TalliedCase> suspects_;  // complete cases whose findings wait for their re-runs
  absl::flat_hash_map<std::string, std::pair<int, CompilePath>> case_sources_;  // case ID -> (program, path)
  std::vector<CaseRecord> cases_;  // every finished case, taken back ones included
  std::set<std::string> recorded_keys_;  // markers an earlier attempt of a resumed run recorded
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
  if (absl::Status written = run.WriteResults(); !written.ok()) return written;
  if (absl::Status written = WriteSummaries(options, run.result()); !written.ok()) return written;
  if (!executed.ok()) return executed;
  return run.result();
}

absl::Status WriteSummaries(const ConformanceOptions& options, const ConformanceResult& result) {
  const std::filesystem::path directory(options.run_directory);
  nlohmann::json counts;
  for (const auto& [family, classes] : result.counts) {
    for (const auto& [kind, count] : classes) counts[family][std::string(CaseClassName(kind))] = count;
  }
  const nlohmann::json summary = {{"identity", result.identity},   {"target", result.target.Name()},
                                  {"seed", options.seed},          {"variants", options.variants},
                                  {"counts", counts},              {"words_compared", result.words_compared},
                                  {"findings", result.findings},   {"bundles", result.bundles},
                                  {"not_run", result.not_run},     {"registry_misses", result.registry_misses},
                                  {"device_seconds", result.device_seconds},
                                  {"phases", PhasesJson(result.phases)},
                                  {"executions", result.executions},
                                  {"infrastructure_retries", result.infrastructure_retries},
                                  {"flakes", result.flakes},
                                  {"stopped", result.stopped}};
  if (absl::Status written = WriteFile(directory / "summary.md", ConformanceSummaryMarkdown(options, result));
      !written.ok()) {
    return written;
  }
  return WriteFile(directory / "summary.json", summary.dump(2) + "\n");
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
  if (result.flakes > 0) {
    absl::StrAppend(&text, "\n", result.flakes,
                    " cases failed and then behaved otherwise when re-run: each is a \"flake\" in results.tsv, with "
                    "every attempt, and still a finding.\n");
  }
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
