#include "harness/runs/build_info.h"

#include "absl/strings/str_cat.h"
#include "harness/runs/build_commit.h"  // generated at build time (cmake/build_commit.cmake)

namespace matload {

std::string GitCommit() { return MATLOAD_GIT_COMMIT; }

std::string Release() { return MATLOAD_VERSION; }

std::string BuildType() { return MATLOAD_BUILD_TYPE; }

std::string MatloadVersion() {
  return absl::StrCat("matload ", Release(), " (", GitCommit().substr(0, 12), ", ", BuildType(), ")");
}

}  // namespace matload
