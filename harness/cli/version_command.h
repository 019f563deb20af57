// `matload --version`: which matload this is (version, git commit, build
// type) and the toolchains it finds here, so that a bug report or a CI log
// says what ran.
#ifndef MATLOAD_HARNESS_CLI_VERSION_COMMAND_H_
#define MATLOAD_HARNESS_CLI_VERSION_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace matload {

// CachedPtxasPaths lists the ptxas binaries scripts/fetch-cuda-tools.sh
// keeps under $MATLOAD_CACHE (else $HOME/.cache/matload), one per
// cuda-<version> directory, sorted.
std::vector<std::string> CachedPtxasPaths();

// PrintVersion writes matload's version, its release, the full commit the
// binary was built from and its build type, then
// one line per toolchain: each ptxas (the default one, $MATLOAD_PTXAS or
// $CUDA_HOME/bin/ptxas, and the cached ones), libnvJitLink and the CUDA
// driver, with its version or why it is not there. It returns exit
// status 0: a missing toolchain is information, not an error.
int PrintVersion(std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_VERSION_COMMAND_H_
