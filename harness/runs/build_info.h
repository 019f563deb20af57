// BuildInfo: which matload made a result. Every run in the results store
// records it, so that a change of behaviour can be traced to a commit.
#ifndef MATLOAD_HARNESS_RUNS_BUILD_INFO_H_
#define MATLOAD_HARNESS_RUNS_BUILD_INFO_H_

#include <string>

namespace matload {

// GitCommit is the commit matload was configured from ("3f9a1c2e...",
// with "-dirty" when the tree had changes then), or "unknown" outside a
// git checkout. CMake reads it again whenever HEAD moves.
std::string GitCommit();

// BuildType is the CMake build type matload was built as ("RelWithDebInfo").
std::string BuildType();

// MatloadVersion is matload's version, short commit and build type:
// "matload 0.4 (3f9a1c2e, RelWithDebInfo)".
std::string MatloadVersion();

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_BUILD_INFO_H_
