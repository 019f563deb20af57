// CachedCheck: a whole CheckShared (batch_checker.h) answered from the
// verdict cache (harness/runs/verdict_cache.h) as one answer, so that a
// warm support sweep looks up each target once instead of replaying every
// compiler run of its batch checking from the cache, one lookup each.
//
// The answer ("check-shared/2") is known by everything the batch checker's
// runs depend on: the target, the PTX version, the shared declarations,
// every form's text and the model's guess on it, in order, the snippets per
// module (kMaxSnippetsPerModule), the compiler's modules per run and the
// bisection bound. It holds each form's verdict and the BatchReport, so
// that a warm sweep reports what the cold one did. Its verdicts do not
// depend on how the batch checker splits its runs (each is the verdict of a
// module of its own), but its run counts do, which is why the split is in
// the key; a change to how the bisection proceeds must still change the
// answer's name.
#ifndef MATLOAD_HARNESS_CACHED_CHECK_H_
#define MATLOAD_HARNESS_CACHED_CHECK_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/compile_oracle.h"
#include "harness/runs/verdict_cache.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// CheckSharedCached is CheckShared answered from `cache` under `identity`
// (the compiler's ToolchainIdentity). Without a whole answer kept, it is
// CheckShared through a CachedCompiler (cached_compiler.h), whose per-run
// answers it keeps once the check succeeded, with the whole answer too
// unless a form was left unjudged: a compiler that could not judge is never
// kept. A cache that cannot be read or written is an InfrastructureError.
absl::StatusOr<std::vector<CompilerVerdict>> CheckSharedCached(const CompileOracle& compiler, VerdictCache& cache,
                                                               const std::string& identity,
                                                               const std::vector<Declaration>& declarations,
                                                               const std::vector<std::string>& instructions,
                                                               PtxVersion ptx, Target target,
                                                               const BatchOptions& options);

// WholeAnswer is the text a whole check's answer is kept as: {"verdicts":
// [[accepted, judged, [message, ...], unplaced, crashed], ...], "report":
// [runs, bisection_runs, unjudged, [unrecognised line, ...]]}. Answers kept
// before `crashed` are read as crashed false: a crash then failed the whole
// check, so none of them holds one. (check-shared/1 answers, kept before
// `unplaced`, are not read: their question differs.)
std::string WholeAnswer(const std::vector<CompilerVerdict>& verdicts, const BatchReport& report);
// ReadWholeAnswer reads what WholeAnswer wrote of `count` forms, setting
// `report`, or is nullopt (and leaves `report`) for text of any other shape
// or count, which CheckSharedCached then answers again.
std::optional<std::vector<CompilerVerdict>> ReadWholeAnswer(const std::string& text, size_t count, BatchReport& report);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CACHED_CHECK_H_
