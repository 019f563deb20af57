#include "harness/compile/compile_cache.h"

#include "absl/strings/str_cat.h"

namespace matload {

absl::StatusOr<AssembleResult> CompileCache::Assemble(absl::string_view module_text, Target target) const {
  std::string key = absl::StrCat(target.Name(), "\n", module_text);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = verdicts_.find(key); it != verdicts_.end()) {
      ++hits_;
      return it->second;
    }
    ++misses_;
  }
  absl::StatusOr<AssembleResult> result = compiler_->Assemble(module_text, target);
  if (!result.ok()) return result;
  std::lock_guard<std::mutex> lock(mutex_);
  if (verdicts_.size() >= capacity_) verdicts_.clear();
  verdicts_.emplace(std::move(key), *result);
  return result;
}

bool CompileCache::Supports(Target target) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, inserted] = supported_.try_emplace(target.Name());
  if (inserted) it->second = compiler_->Supports(target);
  return it->second;
}

size_t CompileCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

size_t CompileCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}

}  // namespace matload
