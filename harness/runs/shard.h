// Shard: one slice of a run's cases, so that N processes on N hosts (a
// Slurm job array, a Kubernetes Indexed Job) can each run a part of one run
// and `matload merge` can join their runs into the run that one process
// would have made (docs/slurm.md).
//
// A unit of work belongs to shard StableHash(key) mod N (stable_hash.h),
// where the key is what must stay together: the case ID for conform, the
// target for support (a target's forms make one per-target artifact and
// one column of the report), the fuzz target for fuzz. Each process decides
// alone, from the key and N, so shards never talk to each other, and
// together they take every unit exactly once. A shard may take nothing.
#ifndef MATLOAD_HARNESS_RUNS_SHARD_H_
#define MATLOAD_HARNESS_RUNS_SHARD_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// kMaxShards bounds N: more shards than cases would only make empty runs.
inline constexpr int kMaxShards = 100000;

// Shard is shard `index` of `count` (0 <= index < count, 0-based like
// $SLURM_ARRAY_TASK_ID). The default is the whole run.
struct Shard {
  int index = 0;
  int count = 1;

  // Whole says whether this "shard" is the whole run, not a slice of it.
  bool Whole() const { return count == 1; }
  // Takes says whether the unit named `key` is in this shard.
  bool Takes(absl::string_view key) const;
  // Name is how the shard is written on the command line and stored: "I/N".
  std::string Name() const;

  friend bool operator==(const Shard&, const Shard&) = default;
};

// ParseShard reads "I/N". Anything else, I outside [0, N) and N outside
// [1, kMaxShards] are kInvalidArgument saying what a shard is.
absl::StatusOr<Shard> ParseShard(absl::string_view text);

// AbslParseFlag and AbslUnparseFlag make Shard a flag type (--shard I/N),
// so that a bad value is refused, with ParseShard's message, as the
// command line is read.
bool AbslParseFlag(absl::string_view text, Shard* shard, std::string* error);
std::string AbslUnparseFlag(const Shard& shard);

// ShardParent is the ID of the run whose shards a sharded `command` makes:
// "<command>-<name>" for a name the user gives (--parent, or the Slurm
// array's job ID), else "<command>-options-<hash>", the hash of the command
// and its `options` (without the shard). Every shard derives it alone, so
// shards of one run agree on it. A name with a character other than a
// letter, digit, '.', '_' or '-' is kInvalidArgument.
absl::StatusOr<std::string> ShardParent(absl::string_view command, absl::string_view name, absl::string_view options);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SHARD_H_
