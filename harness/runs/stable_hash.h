// StableHash: FNV-1a over a string, the same on every run, build and
// machine (unlike absl::Hash), for names and decisions that separate
// processes must agree on without talking to each other: a directory that
// parallel jobs share, the shard a case belongs to (shard.h).
#ifndef MATLOAD_HARNESS_RUNS_STABLE_HASH_H_
#define MATLOAD_HARNESS_RUNS_STABLE_HASH_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace matload {

// StableHash is the 32-bit FNV-1a hash of `text`.
std::uint32_t StableHash(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_STABLE_HASH_H_
