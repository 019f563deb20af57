#include "harness/compile/toolchain_identity.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/platform/environment.h"
#include "harness/runs/sha256.h"

namespace matload {
namespace {

// kShownDigits is how much of a file's digest an identity shows: 64 bits
// tell apart any two builds of a toolkit that will ever meet in one store.
constexpr size_t kShownDigits = 16;

// ProgramFile is the file `path` runs: itself when it holds a '/', else the first executable of that name in PATH
// (execvpe's search).
std::string ProgramFile(const std::string& path) {
  if (absl::StrContains(path, '/')) return path;
  const std::string search = EnvironmentOr("PATH", "");
  for (absl::string_view directory : absl::StrSplit(search, ':', absl::SkipEmpty())) {
    std::string candidate = absl::StrCat(directory, "/", path);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return path;
}

// IsElf says whether the file at `path` starts as an ELF file does.
bool IsElf(const std::string& path) {
  std::array<char, 4> magic{};
  std::ifstream file(path, std::ios::binary);
  file.read(magic.data(), magic.size());
  return file.gcount() == 4 && absl::string_view(magic.data(), magic.size()) ==
                                   "\x7f"
                                   "ELF";
}

}  // namespace

absl::StatusOr<std::string> ProgramDigest(const std::string& path) {
  const std::string file = ProgramFile(path);
  absl::StatusOr<std::string> digest = Sha256OfFile(file);
  if (!digest.ok()) return digest.status();
  if (!IsElf(file)) {
    return absl::FailedPreconditionError(absl::StrCat(
        file,
        " is not an ELF program (a script?): what it answers depends on what it runs, which its digest does "
        "not cover"));
  }
  return digest;
}

absl::StatusOr<std::string> ToolchainIdentity(absl::string_view toolchain, const std::vector<std::string>& files) {
  std::string identity = absl::StrCat(toolchain, "@");
  for (size_t i = 0; i < files.size(); ++i) {
    absl::StatusOr<std::string> digest = ProgramDigest(files[i]);
    if (!digest.ok()) return digest.status();
    absl::StrAppend(&identity, i == 0 ? "" : "+", digest->substr(0, kShownDigits));
  }
  return identity;
}

}  // namespace matload
