#include "harness/platform/source_tree.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "harness/platform/environment.h"

namespace matload {

std::string SourceTreePath(absl::string_view relative) {
  return absl::StrCat(EnvironmentOr("MATLOAD_SOURCE_DIR", "."), "/", relative);
}

}  // namespace matload
