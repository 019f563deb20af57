#include "harness/compile/fetched_ptxas.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"

namespace matload {

absl::StatusOr<std::string> NewestFetchedPtxasPath() {
  const std::string script = SourceTreePath("scripts/fetch-cuda-tools.sh");
  absl::StatusOr<ProcessResult> asked = RunProcess({script, "--offline", "ptxas@newest"});
  if (!asked.ok()) return asked.status();
  if (asked->exit_code != 0) {
    return absl::NotFoundError(absl::StrCat("no fetched ptxas (", absl::StripAsciiWhitespace(asked->standard_error),
                                            "); scripts/fetch-cuda-tools.sh ptxas@newest fetches it"));
  }
  return std::string(absl::StripAsciiWhitespace(asked->standard_output));
}

absl::StatusOr<Ptxas> OpenNewestFetchedPtxas() {
  absl::StatusOr<std::string> path = NewestFetchedPtxasPath();
  if (!path.ok()) return path.status();
  return Ptxas::Open(*path);
}

}  // namespace matload
