#include "harness/runs/build_info.h"

#include "absl/strings/str_cat.h"

namespace matload {

std::string GitCommit() { return MATLOAD_GIT_COMMIT; }

std::string MatloadVersion() {
  return absl::StrCat("matload ", MATLOAD_VERSION, " (", std::string(GitCommit()).substr(0, 12), ", ",
                      MATLOAD_BUILD_TYPE, ")");
}

}  // namespace matload
