#include "harness/runs/verdict_cache.h"

#include "absl/strings/str_cat.h"
#include "harness/runs/sha256.h"

namespace matload {
namespace {

// Seal is the digest that vouches for a row: of its other three columns,
// joined by newlines (the identity and the digest hold none, so no other
// three texts join the same way).
std::string Seal(absl::string_view toolchain, absl::string_view question_digest, absl::string_view answer) {
  return Sha256Hex(absl::StrCat(toolchain, "\n", question_digest, "\n", answer));
}

}  // namespace

absl::StatusOr<std::unique_ptr<VerdictCache>> VerdictCache::Open(const std::string& path) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path);
  if (!store.ok()) return store.status();
  return std::unique_ptr<VerdictCache>(new VerdictCache(*std::move(store)));
}

absl::StatusOr<std::optional<std::string>> VerdictCache::Find(absl::string_view toolchain, absl::string_view question) {
  const std::string digest = Sha256Hex(question);
  std::lock_guard<std::mutex> lock(mutex_);
  absl::StatusOr<std::optional<KeptVerdict>> row = store_.FindVerdict(toolchain, digest);
  if (!row.ok()) return row.status();
  if (!row->has_value() || (*row)->seal != Seal(toolchain, digest, (*row)->answer)) return std::nullopt;
  ++found_;
  return std::move((*row)->answer);
}

absl::Status VerdictCache::Keep(absl::string_view toolchain, const std::vector<Answer>& answers) {
  std::vector<KeptVerdict> rows;
  for (const Answer& answer : answers) {
    const std::string digest = Sha256Hex(answer.question);
    rows.push_back({std::string(toolchain), digest, answer.answer, Seal(toolchain, digest, answer.answer)});
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status stored = store_.KeepVerdicts(rows); !stored.ok()) return stored;
  kept_ += rows.size();
  return absl::OkStatus();
}

size_t VerdictCache::found() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return found_;
}

size_t VerdictCache::kept() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_;
}

}  // namespace matload
