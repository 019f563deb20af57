// Batch checking: one compiler run judges many snippets, and every message
// is traced back to its snippet by line number.
#ifndef MATLOAD_HARNESS_COMPILE_BATCH_CHECKER_H_
#define MATLOAD_HARNESS_COMPILE_BATCH_CHECKER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/compile_oracle.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// CompilerVerdict is what the compiler said about one snippet.
struct CompilerVerdict {
  bool accepted = false;
  std::vector<std::string> messages;  // its errors, in the order printed
  // judged is false when the bisection bound (BatchOptions) was reached
  // before errors on no line could be traced to this snippet: it has no
  // verdict (accepted is false), and `messages` are that run's errors.
  bool judged = true;
  // unplaced counts the last of `messages` that named no line of the
  // snippet: ptxas's "<builtin>" helpers, a message on no line, or one on
  // the module's own lines (a .target its .version lacks), traced to the
  // snippet by judging it alone. A message that points nowhere the user
  // wrote is no diagnostic (harness/judge/diagnostic_judge.h).
  size_t unplaced = 0;
  // crashed: the compiler died of a fault of its own on this snippet in a
  // module of its own (compiler_run.h, CompilerFaultSignal): a toolchain
  // bug, whatever the model says. accepted is false, and the one message,
  // unplaced, says which signal (CompilerFaultMessage).
  bool crashed = false;
};

// BatchReport is what CheckSnippets saw besides the verdicts, for a sweep's
// summary.
struct BatchReport {
  size_t runs = 0;            // compiler runs, the two probes included
  size_t bisection_runs = 0;  // of which halves of a bisection
  size_t unjudged = 0;        // snippets left with judged == false
  // Distinct lines not in the compiler's diagnostic format (a loader's
  // warning, say), at most kMaxUnrecognisedLines of them. They are neither
  // errors nor a reason to bisect.
  std::vector<std::string> unrecognised_lines;
  static constexpr size_t kMaxUnrecognisedLines = 8;
};

// kMaxSnippetsPerModule bounds the snippets in one module. Measured on this
// project's 2-core machine: large enough that a module's own cost (its
// register file, its kernel) is amortised, small enough that bisecting an
// unattributed error re-assembles little. It decides how many runs a check
// takes, not a verdict (cached_check.h keys its answers by it).
inline constexpr size_t kMaxSnippetsPerModule = 512;

// BatchOptions says how CheckSnippets schedules its compiler runs. No option
// changes a verdict; they change how many runs it takes to reach them.
struct BatchOptions {
  // jobs compiler runs go at once (the compiler must allow that: ptxas runs
  // are processes of their own, nvJitLink handles are independent).
  int jobs = 1;
  // predicted_legal, when not empty, holds a guess per snippet (the model's
  // verdict). Snippets guessed legal and snippets guessed illegal never share
  // a module. A snippet rejected only after the whole module parsed stops the
  // compiler there, and every clean snippet of that module is judged again;
  // measured with ptxas 13.0.88, most near-miss wmma forms with a wrong
  // address register do that. Kept apart, they stop only modules of other
  // near misses, while the legal forms assemble once in modules that pass.
  std::vector<bool> predicted_legal;
  // max_bisection_runs bounds the runs spent tracing errors on no line to
  // their snippets; once they are spent, snippets that still need it are
  // left unjudged. ptxas 13.0.88 needs at most 92 for one target of the
  // support sweep at PTX 9.0 (sm_120a; `matload support` prints each
  // target's count), out of 311 to 1,297 runs in all.
  size_t max_bisection_runs = 512;
  // report, when set, receives the BatchReport.
  BatchReport* report = nullptr;
  // judged, when set, is told the indices of snippets as each compiler run
  // settles their verdicts (judged or left unjudged), each snippet once,
  // from the checker's threads, so that a caller can count them as they
  // go: `matload support` moves its progress so (harness/support_sweep.h).
  std::function<void(const std::vector<size_t>& snippets)> judged;
};

// CheckSnippets judges `snippets` for (ptx, target) with as few compiler runs as
// possible, and gives each snippet the verdict a module of its own would get.
//  - An empty module is assembled first. Where `target` exists in `ptx`
//    (reference/target.h) it must assemble: a compiler that rejects it
//    cannot judge any snippet, which is an InfrastructureError
//    (kCompilerOutputNotUnderstood). Where it does not exist, the errors
//    belong to every snippet.
//  - A canary module, one instruction no compiler knows, must be rejected
//    with an error on its line; a compiler that accepts it, or says nothing
//    on that line, would judge nothing (kCompilerOutputNotUnderstood).
//  - A compiler that rejects a module without an error in its diagnostic
//    format is kCompilerOutputNotUnderstood too.
//  - Snippets go into modules of at most 512; one run assembles as many
//    modules as the compiler takes at once (CompileOracle::MaxModulesPerRun;
//    ptxas takes many input files and judges each on its own).
//  - Errors on a snippet's lines belong to it. Errors on no snippet's lines
//    (ptxas names the failures of its wmma helpers only by "<builtin>"
//    lines) are printed right after those of the module that caused them:
//    the snippets with errors in that module are judged again, each on its
//    own. Where no module's errors came first, they are resolved by
//    bisection: the unresolved snippets are split in halves and each half
//    is judged on its own, down to single snippets, within
//    BatchOptions::max_bisection_runs. Lines not in the compiler's format
//    are only reported (BatchReport).
//  - A fatal error stops ptxas: the snippet it names is rejected and the
//    rest are judged again.
//  - ptxas reports some errors (operand lowering, wmma helper calls) only
//    when the whole run passed its earlier checks, and the wmma operand
//    lowering's only once per module (measured with ptxas 13.0.88). So a
//    snippet counts as accepted only once a run holding it assembled with no
//    error; the clean snippets of a failed run are judged again, without the
//    rejected ones, until that happens, and those guessed illegal from a
//    module with errors each in a module of its own.
//  harness/compile/batch_checker_exactness_test.cc holds every sm_90 form of the
//  support sweep batched against the same form alone.
absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler,
                                                           const std::vector<Snippet>& snippets, PtxVersion ptx,
                                                           Target target, const BatchOptions& options = {});

// CheckShared is CheckSnippets for snippets that all have `declarations`
// (not empty), given by their instructions as printed (PrintRaw): the same
// modules and verdicts, without a copy of the declarations per snippet (a
// support sweep's forms share the standard register file).
absl::StatusOr<std::vector<CompilerVerdict>> CheckShared(const CompileOracle& compiler,
                                                         const std::vector<Declaration>& declarations,
                                                         const std::vector<std::string>& instructions, PtxVersion ptx,
                                                         Target target, const BatchOptions& options = {});

// CheckTexts is CheckSnippets for snippets kept as text, such as ones that
// do not parse (BuildTextModule).
absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                        const std::vector<std::string>& texts, PtxVersion ptx,
                                                        Target target, const BatchOptions& options = {});

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_BATCH_CHECKER_H_
