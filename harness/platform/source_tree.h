// SourceTreePath: where checked-in data (corpora/, reports/) lives.
#ifndef MATLOAD_HARNESS_PLATFORM_SOURCE_TREE_H_
#define MATLOAD_HARNESS_PLATFORM_SOURCE_TREE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// SourceTreePath joins `relative` to $MATLOAD_SOURCE_DIR (set by CMake for
// tests and by the README commands), or to the current directory.
std::string SourceTreePath(absl::string_view relative);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SOURCE_TREE_H_
