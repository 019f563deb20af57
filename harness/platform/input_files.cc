#include "harness/platform/input_files.h"

#include <fstream>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {

absl::StatusOr<std::string> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::InvalidArgumentError(absl::StrCat("cannot read ", path.string()));
  return std::string(std::istreambuf_iterator<char>(file), {});
}

}  // namespace matload
