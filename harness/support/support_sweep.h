// SupportSweep: what each target accepts, by the model and by a compiler.
//
// For every target and one PTX version, every legal form and every near-miss
// form is judged by the model and compiled; the result is a matrix of
// qualifier sets x targets, plus every disagreement, each either explained by
// the discrepancy registry or not.
#ifndef MATLOAD_HARNESS_SUPPORT_SUPPORT_SWEEP_H_
#define MATLOAD_HARNESS_SUPPORT_SUPPORT_SWEEP_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/compile_oracle.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/runs/case_record.h"
#include "harness/runs/verdict_cache.h"
#include "nlohmann/json.hpp"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// SupportCell is one qualifier set on one target, in its plain operand
// spelling: the model's verdict and the compiler's.
struct SupportCell {
  bool model_legal = false;
  bool compiled = false;  // false when the compiler cannot target it
  bool compiler_accepted = false;
  std::vector<std::string> compiler_messages;
  std::string sass;  // its load instructions, when accepted and lowered (sass_lowering.h)
};

// CellState classifies one matrix cell, as support.md and the support
// matrix page show it: the model and the compiler agree or not, or the
// compiler cannot target it.
enum class CellState { kBoth, kNeither, kModelOnly, kCompilerOnly, kModelLegalUncompiled, kModelIllegalUncompiled };

// CellStateOf is `cell`'s state.
CellState CellStateOf(const SupportCell& cell);

// SupportRow is one qualifier set that is legal on some target at the PTX
// version (its opcode spelled canonically, e.g.
// "ldmatrix.sync.aligned.m16n16.x1.trans.b8"), across the swept targets.
struct SupportRow {
  std::string family;
  std::string opcode;
  std::string instruction;                   // the plain spelling compiled
  std::map<std::string, SupportCell> cells;  // by target name
};

// Disagreement is one form where the model and the compiler differ.
struct Disagreement {
  std::string target;
  std::string instruction;
  bool model_legal = false;
  bool compiler_crashed = false;  // CompilerVerdict::crashed: a disagreement whatever the model says
  std::vector<std::string> compiler_messages;
  std::string registry_id;  // empty: not explained
};

// OutcomeOf is a disagreement's stored outcome: a crash for a compiler
// that crashed, else a legal form rejected or an illegal one accepted.
CaseOutcome OutcomeOf(const Disagreement& disagreement);

// TargetSummary counts one target's sweep.
struct TargetSummary {
  std::string target;
  size_t legal = 0;  // legal forms in every operand style
  size_t near_miss = 0;
  size_t matrix_rows = 0;  // qualifier sets legal on some target
  size_t agree = 0;        // of matrix_rows + legal + near_miss forms compared
  size_t explained = 0;
  size_t unexplained = 0;
  bool compiled = true;       // false when the compiler cannot target it
  std::string sass_error;     // why the SASS lowering is missing, if it failed
  size_t compiler_runs = 0;   // runs the batch checker made (BatchReport)
  size_t bisection_runs = 0;  // of which halves of a bisection
  // unjudged forms have no compiler verdict: the batch checker's bisection
  // bound was reached (batch_checker.h). They are in no other count, and a
  // sweep with any is not a result (matload support exits 4).
  size_t unjudged = 0;
  // Lines the compiler printed that are not in its diagnostic format; they
  // judged nothing, but a reader should know they were there.
  std::vector<std::string> unrecognised_lines;
};

// SupportSweep is the whole result.
struct SupportSweep {
  std::string compiler;  // "ptxas 13.0.88"
  PtxVersion ptx;
  std::vector<std::string> targets;
  std::vector<SupportRow> rows;
  std::vector<TargetSummary> summaries;
  std::vector<Disagreement> disagreements;
  std::vector<CaseRecord> cases;  // the cases swept by this call, target after target (not those taken back)
  // The registry entries in force on the compiler that some target's forms
  // do not show (TargetSweep::unshown), by id, each once.
  std::vector<std::string> unshown;
};

// SweepProgress is how far a sweep is, in forms compiled and compared. A
// target's forms are counted once it has selected them, and done as the
// compiler's runs settle their verdicts (BatchOptions::judged); the rest
// once it finishes (all of them where the compiler cannot target it, or
// where the target is taken back from its run). So the total grows until
// every target has started, and the forms done grow as they are judged.
struct SweepProgress {
  size_t targets = 0;          // in the sweep
  size_t targets_started = 0;  // that have counted their forms
  size_t forms_counted = 0;    // the started targets' forms
  size_t forms_done = 0;       // the forms judged so far
  std::string target;          // the target that moved last
};

// Progress is told each time a target starts, a compiler run settles some
// of its forms, or it finishes.
using Progress = std::function<void(const SweepProgress&)>;

// TargetSweep is one target's share of a sweep: the unit a run records
// and a resumed run takes back (harness/runs/run_journal.h). `cells` are
// the matrix rows' cells on this target, in the sweep's row order; `cases`
// name every distinct form compared, by case ID (harness/runs/case_id.h).
struct TargetSweep {
  TargetSummary summary;
  std::vector<SupportCell> cells;
  std::vector<Disagreement> disagreements;
  std::vector<CaseRecord> cases;
  // The registry entries in force on the compiler that this target's forms
  // do not show (harness/support/registry_standing.h: UnshownEntries).
  std::vector<std::string> unshown;
};

// TargetSweepJson and TargetSweepFromJson carry a TargetSweep, without its
// cases (the results store keeps those as rows), to and from the store. A
// share recorded before `unshown` was kept reads back with none.
nlohmann::json TargetSweepJson(const TargetSweep& sweep);
absl::StatusOr<TargetSweep> TargetSweepFromJson(const nlohmann::json& json);

// ComparedForms are the forms one target's sweep compared, in its order
// (the matrix rows first, which are legal forms too, then the legal forms
// and the near misses), each with the model's verdict and the compiler's.
struct ComparedForms {
  Target target;
  // matrix_rows: of the forms, the first are the matrix rows the case filter took.
  size_t matrix_rows = 0;
  const std::vector<RawInstruction>& instructions;  // written against StandardRegisterFile (enumerate.h)
  const std::vector<std::string>& texts;            // as printed (PrintRaw)
  const std::vector<bool>& model_legal;
  const std::vector<CompilerVerdict>& verdicts;
};

// SweepPlan is what one target's sweep compares at one PTX version: its
// forms, their case IDs and the model's verdicts (support_sweep.cc).
struct SweepPlan;

// SweepPlans keeps each (PTX version, target)'s SweepPlan once worked out,
// so that sweeps of several compilers at one version (the support
// history's) enumerate and judge its forms once. It serves sweeps of one
// case filter (SweepHooks::select); threads may share it.
class SweepPlans {
 public:
  // For is the plan of (ptx, target), made by `make` unless kept.
  std::shared_ptr<const SweepPlan> For(PtxVersion ptx, Target target,
                                       const std::function<std::shared_ptr<const SweepPlan>()>& make);
  // Forget lets go of the plans at `ptx`, which no later sweep needs: a
  // version's plans hold every form of every target (gigabytes for 16).
  void Forget(PtxVersion ptx);

 private:
  std::mutex mutex_;
  std::map<std::pair<PtxVersion, std::string>, std::shared_ptr<const SweepPlan>> plans_;  // guarded by mutex_
};

// SweepHooks tie a sweep to its run. `select` says which case IDs the run
// takes (every one if unset): a matrix cell it leaves out is marked not
// compiled, with why. `recorded` returns a target's share that an earlier
// attempt of the run already recorded, so a resumed run does not sweep it
// again. `record` is told each target's share as it finishes, from the
// sweep's threads; an error from it stops the sweep. `compared`, when set,
// is shown every form a target compared, with both verdicts, as soon as the
// compiler judged them all, from the sweep's threads: what the support
// history (support_history.h) reads beyond the disagreements. A target the
// compiler cannot build for, or taken back from the run, compared nothing.
// `plans`, when set, keeps what the sweep works out of its forms for the
// next sweep of the same case filter.
struct SweepHooks {
  std::function<bool(const std::string& case_id)> select;
  std::function<std::optional<TargetSweep>(Target)> recorded;
  std::function<absl::Status(Target, const TargetSweep&)> record;
  std::function<void(const ComparedForms&)> compared;
  SweepPlans* plans = nullptr;
};

// JoinTargetSweeps joins the targets' shares, swept now or read back from
// a run's artifacts (TargetSweepFromJson), into the sweep by `toolchain`
// ("ptxas 13.0.88") of `targets` in their order, so that a run's reports
// can be rendered from its store alone (matload merge); the first share
// that failed fails it.
absl::StatusOr<SupportSweep> JoinTargetSweeps(const std::string& toolchain, PtxVersion ptx,
                                              const std::vector<Target>& targets,
                                              std::vector<absl::StatusOr<TargetSweep>> shares);
// SweepCache lets a sweep take its compilers' answers from the verdict
// cache (harness/runs/verdict_cache.h) and keep the new ones there, so that
// a sweep with an unchanged toolchain compiles nothing. No answer changes
// because of it: only whether it is compiled again.
struct SweepCache {
  VerdictCache* verdicts = nullptr;  // null: every question is compiled
  std::string compiler;              // the compiler's ToolchainIdentity (toolchain_identity.h)
  std::string sass;                  // ptxas', cuobjdump's and nvdisasm's; empty: the SASS column is compiled
};

// RunSupportSweep sweeps `targets` at `ptx` with `compiler`, on `threads`
// threads (one target each at a time). Targets the compiler cannot build for
// are judged by the model alone and marked not compiled. When `compiler` is
// a Ptxas and `cuobjdump` names a cuobjdump, every accepted matrix cell also
// gets its SASS lowering. A compiler that could not judge (crashed, hung,
// printed what cannot be read: an InfrastructureError) stops the sweep with
// that error; no target's verdicts are returned then. So does SIGINT or
// SIGTERM, once interrupt handlers are installed (interrupt.h): the
// targets in flight finish and are recorded, and the sweep returns
// InterruptedError. `hooks` select cases,
// resume and record (SweepHooks). `cache` answers what it can (SweepCache);
// a target's new answers are kept once its sweep has succeeded.
absl::StatusOr<SupportSweep> RunSupportSweep(const CompileOracle& compiler, const DiscrepancyRegistry& registry,
                                             const std::vector<Target>& targets, PtxVersion ptx, int threads,
                                             const Progress& progress, const std::string& cuobjdump = "",
                                             const SweepHooks& hooks = {}, const SweepCache& cache = {});

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_SUPPORT_SWEEP_H_
