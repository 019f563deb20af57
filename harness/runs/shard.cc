#include "harness/runs/shard.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/runs/stable_hash.h"

namespace matload {
namespace {

// IsDigits says whether `text` is a non-empty run of decimal digits: no
// sign, space or leading '+' that SimpleAtoi would let through.
bool IsDigits(absl::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// IsNameCharacter says whether `c` may be part of a parent's name: the
// characters of a run ID, which names files and directories.
bool IsNameCharacter(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

}  // namespace

bool Shard::Takes(absl::string_view key) const {
  return Whole() || StableHash(key) % static_cast<std::uint32_t>(count) == static_cast<std::uint32_t>(index);
}

std::string Shard::Name() const { return absl::StrCat(index, "/", count); }

absl::StatusOr<Shard> ParseShard(absl::string_view text) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '/');
  Shard shard;
  if (parts.size() != 2 || !IsDigits(parts[0]) || !IsDigits(parts[1]) || !absl::SimpleAtoi(parts[0], &shard.index) ||
      !absl::SimpleAtoi(parts[1], &shard.count)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a shard: write I/N, shard I (from 0) of N, as in $SLURM_ARRAY_TASK_ID/",
                     "$SLURM_ARRAY_TASK_COUNT"));
  }
  if (shard.count < 1 || shard.count > kMaxShards) {
    return absl::InvalidArgumentError(absl::StrFormat("'%s': the shard count must be from 1 to %d", text, kMaxShards));
  }
  if (shard.index >= shard.count) {
    return absl::InvalidArgumentError(
        absl::StrFormat("'%s': shards are numbered from 0, so shard %d of %d does not exist (the last is %d/%d)", text,
                        shard.index, shard.count, shard.count - 1, shard.count));
  }
  return shard;
}

bool AbslParseFlag(absl::string_view text, Shard* shard, std::string* error) {
  absl::StatusOr<Shard> parsed = ParseShard(text);
  if (!parsed.ok()) {
    *error = std::string(parsed.status().message());
    return false;
  }
  *shard = *parsed;
  return true;
}

std::string AbslUnparseFlag(const Shard& shard) { return shard.Name(); }

absl::StatusOr<std::string> ShardParent(absl::string_view command, absl::string_view name, absl::string_view options) {
  if (name.empty()) return absl::StrFormat("%s-options-%08x", command, StableHash(absl::StrCat(command, " ", options)));
  for (char c : name) {
    if (!IsNameCharacter(c)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--parent '", name, "': a parent's name holds only letters, digits, '.', '_' and '-' (it names runs)"));
    }
  }
  return absl::StrCat(command, "-", name);
}

}  // namespace matload
