// CompileCache: a compile oracle that remembers what another one said.
//
// A fuzz campaign asks the same question many times: every one-snippet
// check first assembles the empty module of its (PTX version, target), and
// libFuzzer runs near-identical inputs over and over. A compiler's verdict
// on a module text and target never changes within a run, so the answer is
// kept instead of compiling again.
#ifndef MATLOAD_HARNESS_COMPILE_COMPILE_CACHE_H_
#define MATLOAD_HARNESS_COMPILE_COMPILE_CACHE_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "harness/compile/compile_oracle.h"

namespace matload {

// CompileCache wraps `compiler`, keeping at most `capacity` verdicts (it
// forgets them all when full: campaigns revisit recent inputs most).
class CompileCache : public CompileOracle {
 public:
  CompileCache(std::unique_ptr<CompileOracle> compiler, size_t capacity)
      : compiler_(std::move(compiler)), capacity_(capacity) {}

  std::string Tool() const override { return compiler_->Tool(); }
  std::string Version() const override { return compiler_->Version(); }
  // Supports asks the compiler once per target.
  bool Supports(Target target) const override;
  // Assemble answers from the cache, or asks the compiler and keeps what it
  // said. A failure to ask is not kept, so it is retried.
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;

  // hits and misses count the questions answered with and without compiling.
  size_t hits() const;
  size_t misses() const;

 private:
  std::unique_ptr<CompileOracle> compiler_;
  size_t capacity_;
  mutable std::mutex mutex_;
  mutable absl::flat_hash_map<std::string, AssembleResult> verdicts_;  // by target name, newline, module text
  mutable absl::flat_hash_map<std::string, bool> supported_;         // by target name
  mutable size_t hits_ = 0;
  mutable size_t misses_ = 0;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_COMPILE_CACHE_H_
