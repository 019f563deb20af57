// FetchedPtxas: the newest ptxas that scripts/fetch-cuda-tools.sh knows, as
// it left it in its cache, for the tests that need a toolkit newer than
// the installed one (the spec's examples of later PTX ISA versions, and
// the check that matload's tables know every version it speaks).
#ifndef MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_
#define MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/compile/ptxas.h"

namespace matload {

// FetchedPtxasPath asks `scripts/fetch-cuda-tools.sh --offline
// ptxas@RELEASE` for the path of that ptxas ("12.9.86", or "newest": the
// newest it knows), fetching nothing, so that a test can hold an old
// release's behaviour where it is fetched. One not in the cache is
// kNotFound, saying how to fetch it.
absl::StatusOr<std::string> FetchedPtxasPath(absl::string_view release);

// NewestFetchedPtxasPath is FetchedPtxasPath("newest"), which
// scripts/install-deps.sh fetches.
absl::StatusOr<std::string> NewestFetchedPtxasPath();

// OpenNewestFetchedPtxas opens it (Ptxas::Open): kNotFound, for a test to
// skip with, when it is not in the cache.
absl::StatusOr<Ptxas> OpenNewestFetchedPtxas();

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_FETCHED_PTXAS_H_
