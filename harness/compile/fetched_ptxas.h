// FetchedPtxas: the newest ptxas that scripts/fetch-cuda-tools.sh knows, as
// it left it in its cache, for the tests that need a toolkit newer than
// the installed one (the spec's examples of later PTX ISA versions, and
// the check that matload's tables know every version it speaks).
#ifndef MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_
#define MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_

#include <string>

#include "absl/status/statusor.h"
#include "harness/compile/ptxas.h"

namespace matload {

// NewestFetchedPtxasPath asks `scripts/fetch-cuda-tools.sh --offline
// ptxas@newest` for the path of the newest ptxas it knows, fetching
// nothing. One not in the cache is kNotFound, saying how to fetch it
// (scripts/install-deps.sh does).
absl::StatusOr<std::string> NewestFetchedPtxasPath();

// OpenNewestFetchedPtxas opens it (Ptxas::Open): kNotFound, for a test to
// skip with, when it is not in the cache.
absl::StatusOr<Ptxas> OpenNewestFetchedPtxas();

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_
