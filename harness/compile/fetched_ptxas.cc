#include "harness/compile/fetched_ptxas.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"

namespace matload {

absl::StatusOr<std::string> FetchedPtxasPath(absl::string_view release) {
  const std::string script = SourceTreePath("scripts/fetch-cuda-tools.sh");
  const std::string request = absl::StrCat("ptxas@", release);
  absl::StatusOr<ProcessResult> asked = RunProcess({script, "--offline", request});
  if (!asked.ok()) return asked.status();
  if (asked->exit_code != 0) {
    return absl::NotFoundError(absl::StrCat("no fetched ", request, " (",
                                            absl::StripAsciiWhitespace(asked->standard_error),
                                            "); scripts/fetch-cuda-tools.sh ", request, " fetches it"));
  }
  return std::string(absl::StripAsciiWhitespace(asked->standard_output));
}

absl::StatusOr<std::string> NewestFetchedPtxasPath() { return FetchedPtxasPath("newest"); }

absl::StatusOr<Ptxas> OpenNewestFetchedPtxas() {
  absl::StatusOr<std::string> path = NewestFetchedPtxasPath();
  if (!path.ok()) return path.status();
  return Ptxas::Open(*path);
}

}  // namespace matload
