#include "harness/source_tree.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace matload {

std::string SourceTreePath(absl::string_view relative) {
  const char* root = std::getenv("MATLOAD_SOURCE_DIR");
  return absl::StrCat(root != nullptr && *root != '\0' ? root : ".", "/", relative);
}

}  // namespace matload
