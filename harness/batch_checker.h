// Batch checking: one compiler run judges many snippets, and every message
// is traced back to its snippet by line number.
#ifndef MATLOAD_HARNESS_BATCH_CHECKER_H_
#define MATLOAD_HARNESS_BATCH_CHECKER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile_oracle.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// CompilerVerdict is what the compiler said about one snippet.
struct CompilerVerdict {
  bool accepted = false;
  std::vector<std::string> messages;  // its errors, in the order printed
};

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
};

// CheckSnippets judges `snippets` for (ptx, target) with as few compiler runs as
// possible, and gives each snippet the verdict a module of its own would get.
//  - An empty module is assembled first: its errors (an unsupported .target,
//    say) belong to every snippet.
//  - Errors on a snippet's lines belong to it. Errors on no snippet's lines
//    (ptxas names some lowering failures only by a helper symbol) are
//    resolved by bisection: the unresolved snippets are split in halves and
//    each half is judged on its own, down to single snippets.
//  - A fatal error stops ptxas: the snippet it names is rejected and the
//    rest are judged again in a fresh module.
//  - ptxas reports some errors (operand lowering, wmma helper calls) only
//    when the whole module passed its earlier checks (measured with ptxas
//    13.0.88). So a snippet counts as accepted only once a module holding it
//    assembled with no error; the clean snippets of a failed run are judged
//    again, without the rejected ones, until that happens.
absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler,
                                                           const std::vector<Snippet>& snippets, PtxVersion ptx,
                                                           Target target, const BatchOptions& options = {});

// CheckTexts is CheckSnippets for snippets kept as text, such as ones that
// do not parse (BuildTextModule).
absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                        const std::vector<std::string>& texts, PtxVersion ptx,
                                                        Target target, const BatchOptions& options = {});

}  // namespace matload

#endif  // MATLOAD_HARNESS_BATCH_CHECKER_H_
