// ToolchainIdentity: how the verdict cache (harness/runs/verdict_cache.h)
// tells one toolchain from another. A compiler's answers depend on the
// program that compiles, so a toolchain is known by its version and the
// SHA-256 digest of each file it runs from: the ptxas executable, or the
// nvJitLink shared library. Another build of a toolkit, even of the same
// version, is another identity, and its answers are asked anew.
#ifndef MATLOAD_HARNESS_COMPILE_TOOLCHAIN_IDENTITY_H_
#define MATLOAD_HARNESS_COMPILE_TOOLCHAIN_IDENTITY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// ProgramDigest is the SHA-256 digest of the program `path` names (searched
// in PATH when it has no '/', as RunProcess runs it; symbolic links
// followed). Only an ELF file (an executable or a shared library) has one: a
// script's answers depend on the programs and environment it runs, which its
// own digest does not cover, so it is kFailedPrecondition. A file that
// cannot be found or read is kNotFound or kDataLoss.
absl::StatusOr<std::string> ProgramDigest(const std::string& path);

// ToolchainIdentity is `toolchain` ("ptxas 13.0.88") followed by the first
// 16 hex digits of each file's ProgramDigest, joined by '+':
// "ptxas 13.0.88@3f9a1c2e5b7d9f01". It fails as ProgramDigest does.
absl::StatusOr<std::string> ToolchainIdentity(absl::string_view toolchain, const std::vector<std::string>& files);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_TOOLCHAIN_IDENTITY_H_
