#include "harness/source_tree.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "harness/environment.h"

namespace matload {

std::string SourceTreePath(absl::string_view relative) {
  return absl::StrCat(EnvironmentOr("MATLOAD_SOURCE_DIR", "."), "/", relative);
}

}  // namespace matload
