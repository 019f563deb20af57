#include "harness/support/support_sweep.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/cached_check.h"
#include "harness/compile/cached_compiler.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/sass_lowering.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/runs/case_id.h"
#include "harness/support/registry_standing.h"
#include "reference/declaration_index.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/printer.h"

namespace matload {
namespace {

// MatrixForm is one row of the matrix: a qualifier set legal on some target,
// in the plain operand style.
struct MatrixForm {
  std::string family;
  std::string opcode;
  RawInstruction instruction;
};

// MatrixForms lists every qualifier set legal on at least one target at
// `ptx`, once, in a fixed order.
std::vector<MatrixForm> MatrixForms(PtxVersion ptx) {
  std::map<std::string, MatrixForm> forms;
  for (const TargetInfo& info : AllTargets()) {
    if (!TargetExistsIn(info.target, ptx)) continue;
    for (const FamilySpec* spec : AllFamilies()) {
      for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, info.target)) {
        const OperandSignature signature = *spec->Signature(qualifiers);
        RawInstruction raw = ToRaw(Form{spec->family, std::nullopt, qualifiers,
                                        StandardOperands(signature, OperandStyles(signature)[0])});
        std::string opcode = PrintOpcode(spec->family, qualifiers);
        forms.try_emplace(opcode, MatrixForm{spec->MnemonicText(), opcode, std::move(raw)});
      }
    }
  }
  std::vector<MatrixForm> ordered;
  for (auto& [opcode, form] : forms) ordered.push_back(std::move(form));
  return ordered;
}

// kNotSelected is the message of a matrix cell the run's case filter left out.
constexpr absl::string_view kNotSelected = "not selected by the run's case filter (--cases, --include, --exclude)";

// TargetSnippets are the forms one target's sweep compiles: the matrix
// rows first, then the legal forms in every operand style, then the near
// misses, each with its case ID and its text (PrintRaw); `matrix` marks the
// matrix rows the case filter took. Every form is written against the
// standard register file (reference/enumerate.h), which they share.
struct TargetSnippets {
  std::vector<RawInstruction> instructions;
  std::vector<std::string> texts;
  std::vector<std::string> ids;
  std::vector<bool> matrix_selected;
};

// SelectSnippets lists what `target`'s sweep compiles, as the case filter
// chooses, naming the forms with `names`, which the sweep's targets share.
TargetSnippets SelectSnippets(const std::vector<MatrixForm>& matrix, Target target, PtxVersion ptx,
                              const SweepHooks& hooks, InstructionCaseIds& names, TargetSummary& summary) {
  TargetSnippets selected;
  auto offer = [&](RawInstruction raw) {
    std::string text = PrintRaw(raw);
    std::string id = SupportCaseId(target, names.Of(raw, text));
    if (hooks.select && !hooks.select(id)) return false;
    selected.texts.push_back(std::move(text));
    selected.instructions.push_back(std::move(raw));
    selected.ids.push_back(std::move(id));
    return true;
  };
  for (const MatrixForm& form : matrix) selected.matrix_selected.push_back(offer(form.instruction));
  const size_t matrix_count = selected.instructions.size();
  for (const Form& form : LegalForms(ptx, target)) offer(ToRaw(form));
  summary.legal = selected.instructions.size() - matrix_count;
  for (RawInstruction& raw : NearMissInstructions(ptx, target)) offer(std::move(raw));
  summary.near_miss = selected.instructions.size() - matrix_count - summary.legal;
  summary.matrix_rows = matrix_count;
  return selected;
}

}  // namespace

CellState CellStateOf(const SupportCell& cell) {
  if (!cell.compiled) return cell.model_legal ? CellState::kModelLegalUncompiled : CellState::kModelIllegalUncompiled;
  if (cell.model_legal) return cell.compiler_accepted ? CellState::kBoth : CellState::kModelOnly;
  return cell.compiler_accepted ? CellState::kCompilerOnly : CellState::kNeither;
}

// SweepPlan is what one target's sweep compares: its forms as the case
// filter chose them, how many of each kind, and the model's verdicts.
struct SweepPlan {
  TargetSnippets snippets;
  size_t matrix_rows = 0;  // of the snippets, the matrix rows taken
  size_t legal = 0;
  size_t near_miss = 0;
  std::vector<bool> model_legal;
  // first_of_its_case: whether a snippet is the first with its case ID. A
  // matrix row in its plain style is also a legal form, one case; the
  // progress counts cases, as the summary and the store do.
  std::vector<bool> first_of_its_case;
  size_t cases = 0;
};

std::shared_ptr<const SweepPlan> SweepPlans::For(PtxVersion ptx, Target target,
                                                 const std::function<std::shared_ptr<const SweepPlan>()>& make) {
  const std::pair<PtxVersion, std::string> key{ptx, target.Name()};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto kept = plans_.find(key); kept != plans_.end()) return kept->second;
  }
  std::shared_ptr<const SweepPlan> made = make();
  std::lock_guard<std::mutex> lock(mutex_);
  return plans_.try_emplace(key, std::move(made)).first->second;
}

void SweepPlans::Forget(PtxVersion ptx) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(plans_, [ptx](const auto& plan) { return plan.first.first == ptx; });
}

namespace {

// PlanTarget selects `target`'s forms and has the model judge them. The
// near misses, last, are judged illegal already (NearMissInstructions,
// reference/enumerate.h): the model judges only the forms before them.
std::shared_ptr<const SweepPlan> PlanTarget(const std::vector<MatrixForm>& matrix, Target target, PtxVersion ptx,
                                            const SweepHooks& hooks, InstructionCaseIds& names) {
  auto plan = std::make_shared<SweepPlan>();
  TargetSummary counted;
  plan->snippets = SelectSnippets(matrix, target, ptx, hooks, names, counted);
  plan->matrix_rows = counted.matrix_rows;
  plan->legal = counted.legal;
  plan->near_miss = counted.near_miss;
  const size_t first_near_miss = plan->matrix_rows + plan->legal;
  absl::flat_hash_set<absl::string_view> seen;
  for (size_t i = 0; i < plan->snippets.instructions.size(); ++i) {
    plan->model_legal.push_back(i < first_near_miss &&
                                JudgedLegal(plan->snippets.instructions[i], StandardDeclarationIndex(), ptx, target));
    plan->first_of_its_case.push_back(seen.insert(plan->snippets.ids[i]).second);
    plan->cases += plan->first_of_its_case.back();
  }
  return plan;
}

// Agrees says whether the compiler's verdict is the model's: a crash never
// is, whatever the model says.
bool Agrees(bool model_legal, const CompilerVerdict& verdict) {
  return !verdict.crashed && model_legal == verdict.accepted;
}

// DisagreementOutcome is the outcome of a form the compiler and the model
// disagree on: a crash, else the model's verdict that the compiler did not
// share.
CaseOutcome DisagreementOutcome(bool crashed, bool model_legal) {
  return crashed ? CaseOutcome::kCrash : model_legal ? CaseOutcome::kLegalRejected : CaseOutcome::kIllegalAccepted;
}

// CaseOf is the case record of one compared form: "pass" when model and
// compiler agree, else the direction of the disagreement, a finding unless
// the registry explains it; `standing` says how the entry stands on the
// compiler, where it was not measured there ("also seen on ptxas 13.6.1").
CaseRecord CaseOf(const std::string& id, bool compiled, bool model_legal, const CompilerVerdict& verdict,
                  const std::string& registry_id, const std::string& standing) {
  CaseRecord record{.id = id};
  if (!compiled) {
    record.outcome = CaseOutcome::kNotCompiled;
  } else if (Agrees(model_legal, verdict)) {
    record.outcome = CaseOutcome::kPass;
  } else {
    record.outcome = DisagreementOutcome(verdict.crashed, model_legal);
    record.finding = registry_id.empty();
    record.detail = registry_id.empty() ? (verdict.messages.empty() ? "" : verdict.messages.front())
                                        : absl::StrCat("known discrepancy ", registry_id,
                                                       standing.empty() ? "" : absl::StrCat(" (", standing, ")"));
  }
  return record;
}

// SpreadMatrixCells widens the cells of the selected matrix rows to one
// cell per row, in row order: a row the case filter left out is not
// compiled, and says why.
void SpreadMatrixCells(const std::vector<bool>& selected, std::vector<SupportCell>& cells) {
  std::vector<SupportCell> spread;
  size_t next = 0;
  for (bool taken : selected) {
    spread.push_back(taken ? std::move(cells[next++])
                           : SupportCell{.compiled = false, .compiler_messages = {std::string(kNotSelected)}});
  }
  cells = std::move(spread);
}

// CheckTarget is CheckShared of the target's forms against the standard
// register file, answered from the verdict cache where `cache` has one
// (cached_check.h).
absl::StatusOr<std::vector<CompilerVerdict>> CheckTarget(const CompileOracle& compiler, const SweepCache& cache,
                                                         const std::vector<std::string>& texts, PtxVersion ptx,
                                                         Target target, const BatchOptions& options) {
  if (cache.verdicts == nullptr) return CheckShared(compiler, StandardRegisterFile(), texts, ptx, target, options);
  return CheckSharedCached(compiler, *cache.verdicts, cache.compiler, StandardRegisterFile(), texts, ptx, target,
                           options);
}

// AddSassLowering gives every matrix cell of `result` that both the model
// and the compiler accept its SASS lowering, when `compiler` is a Ptxas and
// `cuobjdump` names a cuobjdump; from the verdict cache when `cache` keeps
// the lowering. A lowering that failed for another reason than the
// infrastructure leaves the column empty, and says why.
absl::Status AddSassLowering(const CompileOracle& compiler, const std::string& cuobjdump, const SweepCache& cache,
                             const std::vector<MatrixForm>& matrix, PtxVersion ptx, Target target,
                             TargetSweep& result) {
  const auto* ptxas = dynamic_cast<const Ptxas*>(&compiler);
  if (ptxas == nullptr || cuobjdump.empty() || !result.summary.compiled) return absl::OkStatus();
  std::vector<RawInstruction> accepted;
  std::vector<size_t> rows;
  for (size_t row = 0; row < matrix.size(); ++row) {
    if (result.cells[row].compiled && result.cells[row].model_legal && result.cells[row].compiler_accepted) {
      accepted.push_back(matrix[row].instruction);
      rows.push_back(row);
    }
  }
  absl::StatusOr<std::vector<std::string>> lowering =
      cache.verdicts != nullptr && !cache.sass.empty()
          ? LowerToSassCached(*cache.verdicts, cache.sass, *ptxas, cuobjdump, accepted, ptx, target)
          : LowerToSass(*ptxas, cuobjdump, accepted, ptx, target);
  if (InfrastructureCauseOf(lowering.status()).has_value()) return lowering.status();
  if (lowering.ok()) {
    for (size_t i = 0; i < rows.size(); ++i) result.cells[rows[i]].sass = (*lowering)[i];
  } else {
    result.summary.sass_error = std::string(lowering.status().message());
  }
  return absl::OkStatus();
}

// TargetProgress is how SweepTarget tells its progress: `counted` its
// cases once it has selected them, and `judged` the cases each compiler run
// settles (a matrix row in its plain style is also a legal form: one case,
// counted once, as the summary and the store count it).
struct TargetProgress {
  std::function<void(size_t cases)> counted;
  std::function<void(size_t cases)> judged;
};

// SweepTarget sweeps one target: it selects its forms, judges them by the
// model and `compiler` (from `cache` where it can) and compares the two,
// naming the forms with `names`, which the sweep's targets share.
absl::StatusOr<TargetSweep> SweepTarget(const CompileOracle& compiler, const DiscrepancyRegistry& registry,
                                        const std::vector<MatrixForm>& matrix, Target target, PtxVersion ptx,
                                        const std::string& cuobjdump, const SweepHooks& hooks, const SweepCache& cache,
                                        InstructionCaseIds& names, const TargetProgress& progress) {
  const absl::Time start = absl::Now();
  const auto plan_now = [&] { return PlanTarget(matrix, target, ptx, hooks, names); };
  const std::shared_ptr<const SweepPlan> plan =
      hooks.plans == nullptr ? plan_now() : hooks.plans->For(ptx, target, plan_now);
  const TargetSnippets& selected = plan->snippets;
  const size_t count = selected.instructions.size();
  const size_t matrix_count = plan->matrix_rows;
  TargetSweep result;
  result.summary = {
      .target = target.Name(), .legal = plan->legal, .near_miss = plan->near_miss, .matrix_rows = matrix.size()};
  progress.counted(plan->cases);

  // The model's verdicts, compared below, also keep the forms it calls legal
  // out of the modules its near misses stop.
  BatchOptions options;
  options.judged = [&progress, &plan](const std::vector<size_t>& settled) {
    progress.judged(
        std::count_if(settled.begin(), settled.end(), [&](size_t i) { return plan->first_of_its_case[i]; }));
  };
  options.predicted_legal = plan->model_legal;
  std::vector<CompilerVerdict> verdicts(count);
  result.summary.compiled = compiler.Supports(target);
  if (result.summary.compiled) {
    BatchReport report;
    options.report = &report;
    absl::StatusOr<std::vector<CompilerVerdict>> checked =
        CheckTarget(compiler, cache, selected.texts, ptx, target, options);
    if (!checked.ok()) return checked.status();
    verdicts = *std::move(checked);
    result.summary.compiler_runs = report.runs;
    result.summary.bisection_runs = report.bisection_runs;
    result.summary.unjudged = report.unjudged;
    result.summary.unrecognised_lines = std::move(report.unrecognised_lines);
    if (hooks.compared) {
      hooks.compared({target, matrix_count, selected.instructions, selected.texts, options.predicted_legal, verdicts});
    }
  }
  absl::flat_hash_set<absl::string_view> recorded;  // the IDs of result.cases, in selected.ids
  for (size_t i = 0; i < count; ++i) {
    const bool model_legal = options.predicted_legal[i];
    if (i < matrix_count) {
      // A matrix row is compared like any form: on a target where it is
      // not legal, it is one more illegal form the compiler may accept.
      result.cells.push_back({.model_legal = model_legal,
                              .compiled = result.summary.compiled,
                              .compiler_accepted = verdicts[i].accepted,
                              .compiler_messages = verdicts[i].messages});
    }
    // An unjudged form is counted in summary.unjudged and compared with nothing.
    if (result.summary.compiled && !verdicts[i].judged) continue;
    // A matrix row in its plain style is also a legal form: one case, with
    // one case ID, counted once everywhere (the summary, the reports, the
    // store, the diffs), so its second snippet adds nothing but its cell.
    if (!recorded.insert(selected.ids[i]).second) continue;
    if (!result.summary.compiled || Agrees(model_legal, verdicts[i])) {
      result.cases.push_back(CaseOf(selected.ids[i], result.summary.compiled, model_legal, verdicts[i], "", ""));
      if (result.summary.compiled) ++result.summary.agree;
      continue;
    }
    std::string standing;  // of the entry that explains it
    Disagreement disagreement{.target = target.Name(),
                              .instruction = selected.texts[i],
                              .model_legal = model_legal,
                              .compiler_crashed = verdicts[i].crashed,
                              .compiler_messages = verdicts[i].messages};
    const Direction direction = verdicts[i].crashed    ? Direction::kToolchainCrashes
                                : verdicts[i].accepted ? Direction::kToolchainAccepts
                                                       : Direction::kToolchainRejects;
    if (const DiscrepancyEntry* entry =
            registry.Find(disagreement.instruction, target, direction, compiler.Toolchain());
        entry != nullptr) {
      disagreement.registry_id = entry->id;
      standing = DiscrepancyRegistry::Standing(*entry, compiler.Toolchain());
      ++result.summary.explained;
    } else {
      ++result.summary.unexplained;
    }
    result.cases.push_back(CaseOf(selected.ids[i], true, model_legal, verdicts[i], disagreement.registry_id, standing));
    result.disagreements.push_back(std::move(disagreement));
  }
  if (result.summary.compiled) {
    result.unshown =
        UnshownEntries(registry, compiler.Toolchain(),
                       {target, matrix_count, selected.instructions, selected.texts, options.predicted_legal, verdicts},
                       result.disagreements);
  }
  SpreadMatrixCells(selected.matrix_selected, result.cells);
  if (absl::Status lowered = AddSassLowering(compiler, cuobjdump, cache, matrix, ptx, target, result); !lowered.ok()) {
    return lowered;
  }
  // The target's forms are compiled in batches, so each case's time is its
  // share of the target's.
  const double share =
      absl::ToDoubleSeconds(absl::Now() - start) / static_cast<double>(std::max<size_t>(1, result.cases.size()));
  for (CaseRecord& record : result.cases) record.seconds = share;
  return result;
}

// MergeTargets joins the targets' shares into one sweep, in target order;
// the first target that failed fails it.
absl::StatusOr<SupportSweep> MergeTargets(const std::string& toolchain, PtxVersion ptx,
                                          const std::vector<MatrixForm>& matrix, const std::vector<Target>& targets,
                                          std::vector<absl::StatusOr<TargetSweep>>& results) {
  SupportSweep sweep{.compiler = toolchain, .ptx = ptx};
  for (const MatrixForm& form : matrix) {
    sweep.rows.push_back({form.family, form.opcode, PrintRaw(form.instruction), {}});
  }
  size_t cases = 0;
  for (const absl::StatusOr<TargetSweep>& result : results) cases += result.ok() ? result->cases.size() : 0;
  sweep.cases.reserve(cases);
  for (size_t i = 0; i < targets.size(); ++i) {
    if (!results[i].ok()) return results[i].status();
    TargetSweep& result = *results[i];
    sweep.targets.push_back(targets[i].Name());
    sweep.summaries.push_back(result.summary);
    for (size_t row = 0; row < matrix.size(); ++row) {
      sweep.rows[row].cells[targets[i].Name()] = std::move(result.cells[row]);
    }
    for (Disagreement& disagreement : result.disagreements) sweep.disagreements.push_back(std::move(disagreement));
    for (CaseRecord& record : result.cases) sweep.cases.push_back(std::move(record));
    sweep.unshown.insert(sweep.unshown.end(), result.unshown.begin(), result.unshown.end());
  }
  std::sort(sweep.unshown.begin(), sweep.unshown.end());
  sweep.unshown.erase(std::unique(sweep.unshown.begin(), sweep.unshown.end()), sweep.unshown.end());
  return sweep;
}

}  // namespace

nlohmann::json TargetSweepJson(const TargetSweep& sweep) {
  const TargetSummary& summary = sweep.summary;
  nlohmann::json cells = nlohmann::json::array();
  for (const SupportCell& cell : sweep.cells) {
    cells.push_back({cell.model_legal, cell.compiled, cell.compiler_accepted, cell.compiler_messages, cell.sass});
  }
  nlohmann::json disagreements = nlohmann::json::array();
  for (const Disagreement& disagreement : sweep.disagreements) {
    disagreements.push_back({disagreement.target, disagreement.instruction, disagreement.model_legal,
                             disagreement.compiler_messages, disagreement.registry_id, disagreement.compiler_crashed});
  }
  return {{"summary",
           {summary.target, summary.legal, summary.near_miss, summary.matrix_rows, summary.agree, summary.explained,
            summary.unexplained, summary.compiled, summary.sass_error, summary.compiler_runs, summary.bisection_runs,
            summary.unjudged, summary.unrecognised_lines}},
          {"cells", cells},
          {"disagreements", disagreements},
          {"unshown", sweep.unshown}};
}

absl::StatusOr<TargetSweep> TargetSweepFromJson(const nlohmann::json& json) {
  TargetSweep sweep;
  try {
    const nlohmann::json& s = json.at("summary");
    sweep.summary = {s.at(0), s.at(1), s.at(2), s.at(3),  s.at(4),  s.at(5), s.at(6),
                     s.at(7), s.at(8), s.at(9), s.at(10), s.at(11), s.at(12)};
    for (const nlohmann::json& c : json.at("cells"))
      sweep.cells.push_back({c.at(0), c.at(1), c.at(2), c.at(3), c.at(4)});
    for (const nlohmann::json& d : json.at("disagreements")) {
      // compiler_crashed is new: a sweep recorded before it had no crash.
      sweep.disagreements.push_back({.target = d.at(0),
                                     .instruction = d.at(1),
                                     .model_legal = d.at(2),
                                     .compiler_crashed = d.size() > 5 && d.at(5).get<bool>(),
                                     .compiler_messages = d.at(3),
                                     .registry_id = d.at(4)});
    }
    sweep.unshown = json.value("unshown", std::vector<std::string>());
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("a recorded target sweep does not read back: ", error.what()));
  }
  return sweep;
}

absl::StatusOr<SupportSweep> JoinTargetSweeps(const std::string& toolchain, PtxVersion ptx,
                                              const std::vector<Target>& targets,
                                              std::vector<absl::StatusOr<TargetSweep>> shares) {
  return MergeTargets(toolchain, ptx, MatrixForms(ptx), targets, shares);
}

absl::StatusOr<SupportSweep> RunSupportSweep(const CompileOracle& compiler, const DiscrepancyRegistry& registry,
                                             const std::vector<Target>& targets, PtxVersion ptx, int threads,
                                             const Progress& progress, const std::string& cuobjdump,
                                             const SweepHooks& hooks, const SweepCache& cache) {
  const std::vector<MatrixForm> matrix = MatrixForms(ptx);
  InstructionCaseIds names;
  std::vector<absl::StatusOr<TargetSweep>> results(targets.size(), absl::UnknownError("not run"));
  std::vector<bool> taken_back(targets.size(), false);
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  SweepProgress state{.targets = targets.size()};
  // Tell moves the sweep's progress by `forms` of `target`: counted when
  // the target starts, else done.
  auto tell = [&](Target target, size_t forms, bool starts) {
    std::lock_guard<std::mutex> lock(progress_mutex);
    (starts ? state.forms_counted : state.forms_done) += forms;
    if (starts) ++state.targets_started;
    state.target = target.Name();
    if (progress) progress(state);
  };
  auto worker = [&] {
    for (size_t i = next++; i < targets.size(); i = next++) {
      // Interrupted (harness/platform/interrupt.h): the targets in flight
      // finish and are recorded; no other starts.
      if (const int signal = PendingInterrupt(); signal != 0) {
        results[i] = InterruptedError(signal);
        continue;
      }
      std::optional<TargetSweep> recorded = hooks.recorded ? hooks.recorded(targets[i]) : std::nullopt;
      taken_back[i] = recorded.has_value();
      size_t forms = recorded.has_value() ? recorded->cases.size() : 0;  // cases, as the store counts them
      std::atomic<size_t> judged{0};  // of `forms`, told as the compiler's runs settled them
      if (recorded.has_value()) tell(targets[i], forms, true);
      const TargetProgress target_progress{.counted =
                                               [&](size_t counted) {
                                                 forms = counted;
                                                 tell(targets[i], counted, true);
                                               },
                                           .judged =
                                               [&](size_t settled) {
                                                 judged += settled;
                                                 tell(targets[i], settled, false);
                                               }};
      results[i] = recorded.has_value() ? *std::move(recorded)
                                        : SweepTarget(compiler, registry, matrix, targets[i], ptx, cuobjdump, hooks,
                                                      cache, names, target_progress);
      if (results[i].ok() && !taken_back[i] && hooks.record) {
        if (absl::Status status = hooks.record(targets[i], *results[i]); !status.ok()) results[i] = status;
      }
      tell(targets[i], forms - judged, false);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  // A target that failed while the sweep was being interrupted (its ptxas
  // got the terminal's SIGINT too, say) was interrupted, not broken.
  const int signal = PendingInterrupt();
  const auto failed = [](const absl::StatusOr<TargetSweep>& result) { return !result.ok(); };
  if (signal != 0 && std::any_of(results.begin(), results.end(), failed)) return InterruptedError(signal);
  return MergeTargets(compiler.Toolchain(), ptx, matrix, targets, results);
}

CaseOutcome OutcomeOf(const Disagreement& disagreement) {
  return DisagreementOutcome(disagreement.compiler_crashed, disagreement.model_legal);
}

}  // namespace matload
