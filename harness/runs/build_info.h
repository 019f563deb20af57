// BuildInfo: which matload made a result. Every run in the results store
// records it, so that a change of behaviour can be traced to a commit.
#ifndef MATLOAD_HARNESS_RUNS_BUILD_INFO_H_
#define MATLOAD_HARNESS_RUNS_BUILD_INFO_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// GitCommit is the commit this binary was built from (40 hex digits, with
// "-dirty" when tracked files differed from it), read at build time by
// cmake/build_commit.cmake, or "unknown" when built outside a git checkout.
// It is the binary's, never the commit of a source tree read at run time.
std::string GitCommit();

// Release is matload's release, the CMake project version ("0.5").
std::string Release();

// BuildType is the CMake build type matload was built as ("RelWithDebInfo").
std::string BuildType();

// ShortCommit is `commit` (a GitCommit) cut to its first 12 hex digits,
// keeping its "-dirty": a headline must not hide that a binary was built
// from changes no commit holds.
std::string ShortCommit(absl::string_view commit);

// MatloadVersion is matload's version, short commit and build type:
// "matload 0.4 (3f9a1c2e4b5d-dirty, RelWithDebInfo)".
std::string MatloadVersion();

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_BUILD_INFO_H_
