#include "harness/runs/build_info.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/runs/build_commit.h"  // generated at build time (cmake/build_commit.cmake)

namespace matload {

std::string GitCommit() { return MATLOAD_GIT_COMMIT; }

std::string Release() { return MATLOAD_VERSION; }

std::string BuildType() { return MATLOAD_BUILD_TYPE; }

std::string ShortCommit(absl::string_view commit) {
  constexpr absl::string_view kDirty = "-dirty";
  return absl::StrCat(commit.substr(0, 12), absl::EndsWith(commit, kDirty) && commit.size() > 12 ? kDirty : "");
}

std::string MatloadVersion() {
  return absl::StrCat("matload ", Release(), " (", ShortCommit(GitCommit()), ", ", BuildType(), ")");
}

}  // namespace matload
