// VerdictCache: what a toolchain answered, kept in the results store
// (results_store.h), so that a sweep asking again of an unchanged toolchain
// compiles nothing.
//
// An answer depends only on the toolchain and the question (a PTX module and
// what was asked of it), so it is kept under the toolchain's identity (its
// version and the digest of its binary: harness/compile/toolchain_identity.h) and
// the SHA-256 digest of the question's full text. Each row also holds a
// seal: the digest of its identity, question digest and answer together. A
// row that does not match its seal (damaged, or written by anything but
// this class) is never used: the question is asked again, and the new
// answer replaces the row. What answers mean is the caller's business
// (harness/compile/cached_compiler.h); this store keeps text.
#ifndef MATLOAD_HARNESS_RUNS_VERDICT_CACHE_H_
#define MATLOAD_HARNESS_RUNS_VERDICT_CACHE_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/runs/results_store.h"

namespace matload {

// Answer is one question asked of a toolchain and what it answered.
struct Answer {
  std::string question;
  std::string answer;
};

// VerdictCache is the cache in one results database. Its calls are safe
// from several threads (a sweep's targets run at once); it has a database
// connection of its own.
class VerdictCache {
 public:
  // Open opens (creating if needed) the results database at `path`, with
  // ResultsStore::Open's errors.
  static absl::StatusOr<std::unique_ptr<VerdictCache>> Open(const std::string& path);

  // Find is what `toolchain` answered to `question`, or nullopt when it is
  // not kept or its row does not match its seal.
  absl::StatusOr<std::optional<std::string>> Find(absl::string_view toolchain, absl::string_view question);
  // Keep stores `answers` of `toolchain`, all or none, each replacing what
  // was kept for its question.
  absl::Status Keep(absl::string_view toolchain, const std::vector<Answer>& answers);

  // found and kept count the answers Find gave and Keep stored since Open.
  size_t found() const;
  size_t kept() const;

 private:
  explicit VerdictCache(ResultsStore store) : store_(std::move(store)) {}

  mutable std::mutex mutex_;
  ResultsStore store_;
  size_t found_ = 0;
  size_t kept_ = 0;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_VERDICT_CACHE_H_
