// ToolchainRelease: a toolchain as the discrepancy registry names one, a
// tool and its release ("ptxas 13.0.88", "nvJitLink 13.0", "driver JIT
// CUDA 13.0; 580.159.04"), so that releases of one tool compare as numbers
// ("12.10.1" after "12.9.86") and releases of two tools never compare.
#ifndef MATLOAD_HARNESS_JUDGE_TOOLCHAIN_RELEASE_H_
#define MATLOAD_HARNESS_JUDGE_TOOLCHAIN_RELEASE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace matload {

// ToolchainRelease is a parsed toolchain name.
struct ToolchainRelease {
  std::string tool;          // the words before the release: "ptxas", "driver JIT CUDA"
  std::vector<int> release;  // the release's numbers: {13, 0, 88}
};

// ReleaseNumbers reads a release as numbers, "12.10.1" as {12, 10, 1}; a
// part that is no number reads as 0.
std::vector<int> ReleaseNumbers(absl::string_view release);

// ParseToolchainRelease splits `toolchain` at its first word that starts
// with a digit: the words before it are the tool, and its run of digits and
// dots the release; what follows ("; 580.159.04", the driver's own
// version) is not part of it. A name with no tool or no release is nullopt.
std::optional<ToolchainRelease> ParseToolchainRelease(absl::string_view toolchain);

// Reaches says whether `release` is `named` or a later release of the same
// tool, comparing as many numbers as `named` gives: "ptxas 13.0" is reached
// by ptxas 13.0.88 and 13.1.5, not by ptxas 12.9.86 or nvJitLink 13.0.
bool Reaches(const ToolchainRelease& release, const ToolchainRelease& named);

// IsRelease says whether `release` is `named` itself, on as many numbers
// as `named` gives: ptxas 13.0.88 is "ptxas 13.0", not "ptxas 13.0.76".
bool IsRelease(const ToolchainRelease& release, const ToolchainRelease& named);

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_TOOLCHAIN_RELEASE_H_
