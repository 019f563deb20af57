// CachedCompiler: compiler answers taken from the verdict cache
// (harness/runs/verdict_cache.h), which outlives the process, so that a
// sweep asks its compiler only what no earlier sweep with the same
// toolchain (toolchain_identity.h) asked. CompileCache (compile_cache.h),
// by contrast, remembers within one process.
//
// Every question names the form of its answer ("assemble/1", "sass/1"):
// a change to how an answer is written must change that name, so that no
// answer of the old form is read as one of the new.
#ifndef MATLOAD_HARNESS_COMPILE_CACHED_COMPILER_H_
#define MATLOAD_HARNESS_COMPILE_CACHED_COMPILER_H_

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/compile_oracle.h"
#include "harness/compile/ptxas.h"
#include "harness/runs/verdict_cache.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// CachedCompiler is `compiler` answering from `cache` under `identity` (its
// ToolchainIdentity). New answers are held, not kept, until KeepAnswers: a
// caller keeps them once it knows the compiler could judge at all (the batch
// checker's probes passed, batch_checker.h), so that answers of a compiler
// that cannot judge are never kept. A failure to ask (the compiler crashed,
// hung or printed what cannot be read) is never held. `compiler` and `cache`
// must outlive it.
class CachedCompiler : public CompileOracle {
 public:
  CachedCompiler(const CompileOracle& compiler, VerdictCache& cache, std::string identity)
      : compiler_(compiler), cache_(cache), identity_(std::move(identity)) {}

  std::string Tool() const override { return compiler_.Tool(); }
  std::string Version() const override { return compiler_.Version(); }
  bool Supports(Target target) const override { return compiler_.Supports(target); }
  // Assemble gives the cache's answer, or the compiler's, which it holds. A
  // kept answer that cannot be read is asked again. It fails as the
  // compiler's Assemble does, or with an InfrastructureError
  // (infrastructure.h) when the cache cannot be read.
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;
  size_t MaxModulesPerRun() const override { return compiler_.MaxModulesPerRun(); }
  // AssembleModules is Assemble for several modules in one run of the
  // compiler; its answers ("assemble-modules/1") name each message's module.
  absl::StatusOr<AssembleResult> AssembleModules(const std::vector<std::string>& modules,
                                                 Target target) const override;
  // KeepAnswers keeps the answers held so far, all or none, and lets them
  // go; an InfrastructureError when the cache cannot be written.
  absl::Status KeepAnswers();

 private:
  // Answered is the kept answer to `question` (naming modules when
  // `with_modules`), else what `ask` answers, which it holds.
  absl::StatusOr<AssembleResult> Answered(std::string question, bool with_modules,
                                          const std::function<absl::StatusOr<AssembleResult>()>& ask) const;

  const CompileOracle& compiler_;
  VerdictCache& cache_;
  std::string identity_;
  mutable std::mutex mutex_;
  mutable std::vector<Answer> held_;
};

// CacheFailure marks a failure of the verdict cache's store as matload's
// own (a full or failing disk, a store kept locked): the sweep could not
// judge, and must not publish a report as though it had.
absl::Status CacheFailure(const absl::Status& status);

// LowerToSassCached is LowerToSass (sass_lowering.h) answered from `cache`
// under `identity` (ptxas', cuobjdump's and nvdisasm's together) when it
// holds the answer, and kept there when the lowering succeeds. A cache that
// cannot be read or written is an InfrastructureError.
absl::StatusOr<std::vector<std::string>> LowerToSassCached(VerdictCache& cache, const std::string& identity,
                                                           const Ptxas& ptxas, const std::string& cuobjdump,
                                                           const std::vector<RawInstruction>& forms, PtxVersion ptx,
                                                           Target target);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_CACHED_COMPILER_H_
