#include "harness/runs/build_info.h"

#include "absl/strings/str_cat.h"

namespace matload {

std::string GitCommit() { return MATLOAD_GIT_COMMIT; }

std::string BuildType() { return MATLOAD_BUILD_TYPE; }

std::string MatloadVersion() {
  return absl::StrCat("matload ", MATLOAD_VERSION, " (", std::string(GitCommit()).substr(0, 12), ", ", BuildType(),
                      ")");
}

}  // namespace matload
