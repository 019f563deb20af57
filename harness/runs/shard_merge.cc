#include "harness/runs/shard_merge.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/runs/results_store.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/shard.h"

namespace matload {
namespace {

// kSharedFields are what every shard of one run must agree on, with how
// messages name them: the cases and their verdicts depend on each.
constexpr std::pair<const char*, std::string RunRecord::*> kSharedFields[] = {
    {"command", &RunRecord::command},
    {"options", &RunRecord::options},
    {"matload version", &RunRecord::matload_version},
    {"matload commit", &RunRecord::git_commit},
    {"discrepancy registry (SHA-256)", &RunRecord::registry_digest},
    {"toolkits", &RunRecord::toolkits},
    {"driver", &RunRecord::driver},
    {"GPU", &RunRecord::gpu_name},
};

// Named is how messages name a shard's run: "run ID (in STORE)".
std::string Named(const ShardRun& shard) { return absl::StrCat("run ", shard.run.id, " (in ", shard.store, ")"); }

// ReadShardRun reads run `id`'s cases and artifacts from `store`.
absl::StatusOr<ShardRun> ReadShardRun(ResultsStore& store, const RunRecord& run) {
  ShardRun shard{.run = run, .store = store.path()};
  absl::StatusOr<std::vector<CaseRecord>> cases = store.Cases(run.id);
  if (!cases.ok()) return cases.status();
  shard.cases = *std::move(cases);
  absl::StatusOr<std::vector<std::string>> keys = store.ArtifactKeys(run.id);
  if (!keys.ok()) return keys.status();
  for (const std::string& key : *keys) {
    absl::StatusOr<std::optional<std::string>> text = store.Artifact(run.id, key);
    if (!text.ok()) return text.status();
    shard.artifacts[key] = text->value_or("");
  }
  return shard;
}

// RunsNamed are the runs of `runs` that `reference` names: the run with
// that ID, else every shard of the parent with that ID.
std::vector<RunRecord> RunsNamed(const std::vector<RunRecord>& runs, const std::string& reference) {
  std::vector<RunRecord> named;
  for (const RunRecord& run : runs) {
    if (run.id == reference) return {run};
    if (run.parent == reference && !run.shard.empty()) named.push_back(run);
  }
  return named;
}

// UniqueStores is `stores` with each file once.
std::vector<std::string> UniqueStores(const std::vector<std::string>& stores) {
  std::vector<std::string> unique;
  std::set<std::filesystem::path> seen;
  for (const std::string& store : stores) {
    std::error_code error;
    if (seen.insert(std::filesystem::absolute(store, error).lexically_normal()).second) unique.push_back(store);
  }
  return unique;
}

// CheckFinished says why `shard` cannot be merged yet: it has not
// finished. It is asked before anything else, since a shard killed early
// has not recorded its toolchain, driver or GPU, and would be called one
// of another build.
absl::Status CheckFinished(const ShardRun& shard) {
  if (Finished(shard.run)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      shard.run.shard.empty() ? "" : absl::StrCat("shard ", shard.run.shard, " of ", shard.run.parent, ", "),
      Named(shard), ", has not finished (", shard.run.status, "): resume it (matload ", shard.run.command, " --resume ",
      shard.run.id, " ", ShardFlags(shard.run), ") before merging"));
}

// CheckAlike says why `shard` cannot be merged with `first`: it is not a
// shard, or is one of another run, another command or another build.
absl::Status CheckAlike(const ShardRun& first, const ShardRun& shard) {
  if (shard.run.shard.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Named(shard), " is not a shard: it was run without --shard, and is whole already"));
  }
  if (shard.run.parent != first.run.parent) {
    return absl::InvalidArgumentError(absl::StrCat(Named(first), " is a shard of ", first.run.parent, " and ",
                                                   Named(shard), " of ", shard.run.parent,
                                                   ": only shards of one run are merged"));
  }
  for (const auto& [name, field] : kSharedFields) {
    if (shard.run.*field == first.run.*field) continue;
    return absl::InvalidArgumentError(absl::StrCat("shards of ", first.run.parent, " differ in their ", name, ": ",
                                                   Named(first), " has '", first.run.*field, "' and ", Named(shard),
                                                   " '", shard.run.*field,
                                                   "'; the shards of one run are made by one command and options, one "
                                                   "matload build, one discrepancy registry and one toolchain"));
  }
  return absl::OkStatus();
}

// CheckCoverage says why `shards` are not every shard of their parent
// exactly once.
absl::Status CheckCoverage(const std::vector<ShardRun>& shards) {
  const std::string& parent = shards.front().run.parent;
  std::map<int, const ShardRun*> by_index;
  int count = 0;
  for (const ShardRun& shard : shards) {
    absl::StatusOr<Shard> parsed = ParseShard(shard.run.shard);
    if (!parsed.ok()) return absl::FailedPreconditionError(absl::StrCat(Named(shard), ": ", parsed.status().message()));
    if (count != 0 && parsed->count != count) {
      return absl::InvalidArgumentError(absl::StrCat("shards of ", parent, " were split ", count, " and ",
                                                     parsed->count, " ways (", Named(shard), " is shard ",
                                                     shard.run.shard, "): merge the shards of one split"));
    }
    count = parsed->count;
    auto [known, added] = by_index.emplace(parsed->index, &shard);
    if (!added) {
      return absl::InvalidArgumentError(absl::StrCat("shard ", shard.run.shard, " of ", parent,
                                                     " is given twice: ", Named(*known->second), " and ", Named(shard),
                                                     "; name the one to merge by its run ID"));
    }
  }
  std::vector<int> missing;
  for (int index = 0; index < count; ++index) {
    if (!by_index.contains(index)) missing.push_back(index);
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("shard", missing.size() > 1 ? "s " : " ", absl::StrJoin(missing, ", "), " of the ", count, " of ",
                     parent, missing.size() > 1 ? " are" : " is", " missing: run them (--shard I/", count,
                     "), or name the stores that hold them (--from)"));
  }
  return absl::OkStatus();
}

// JoinCases is every shard's cases in case ID order; a case in two shards
// is kInvalidArgument.
absl::StatusOr<std::vector<CaseRecord>> JoinCases(const std::vector<ShardRun>& shards) {
  std::map<std::string, std::pair<const CaseRecord*, const ShardRun*>> cases;
  for (const ShardRun& shard : shards) {
    for (const CaseRecord& record : shard.cases) {
      auto [known, added] = cases.try_emplace(record.id, &record, &shard);
      if (added) continue;
      return absl::InvalidArgumentError(absl::StrCat("case ", record.id, " is in two shards, ",
                                                     Named(*known->second.second), " and ", Named(shard),
                                                     ": they are not slices of one case list"));
    }
  }
  std::vector<CaseRecord> joined;
  for (const auto& [id, record] : cases) joined.push_back(*record.first);
  return joined;
}

// JoinArtifacts keeps each artifact that one shard holds or all hold alike,
// and names the others in `merged.dropped_artifacts`.
void JoinArtifacts(const std::vector<ShardRun>& shards, MergedRun& merged) {
  std::set<std::string> differing;
  for (const ShardRun& shard : shards) {
    for (const auto& [key, text] : shard.artifacts) {
      auto [known, added] = merged.artifacts.try_emplace(key, text);
      if (!added && known->second != text) differing.insert(key);
    }
  }
  for (const std::string& key : differing) merged.artifacts.erase(key);
  merged.dropped_artifacts.assign(differing.begin(), differing.end());
}

// Distinct joins the distinct values of `field` over `shards`, in order.
std::string Distinct(const std::vector<ShardRun>& shards, std::string RunRecord::*field) {
  std::vector<std::string> values;
  for (const ShardRun& shard : shards) {
    if (std::find(values.begin(), values.end(), shard.run.*field) == values.end()) values.push_back(shard.run.*field);
  }
  return absl::StrJoin(values, ", ");
}

}  // namespace

absl::StatusOr<std::vector<ShardRun>> ReadShardRuns(const std::vector<std::string>& stores,
                                                    const std::vector<std::string>& references) {
  std::vector<ShardRun> shards;
  std::map<std::string, std::string> store_of_run;
  std::set<std::string> found;
  for (const std::string& path : UniqueStores(stores)) {
    absl::StatusOr<ResultsStore> store = ResultsStore::OpenReadOnly(path);
    if (!store.ok()) return store.status();
    absl::StatusOr<std::vector<RunRecord>> runs = store->Runs();
    if (!runs.ok()) return runs.status();
    for (const std::string& reference : references) {
      for (const RunRecord& run : RunsNamed(*runs, reference)) {
        found.insert(reference);
        auto [known, added] = store_of_run.try_emplace(run.id, path);
        if (!added && known->second == path) continue;  // named twice in one store
        if (!added) {
          return absl::InvalidArgumentError(absl::StrCat("run ", run.id, " is in both ", known->second, " and ", path,
                                                         "; name each store that holds it once"));
        }
        absl::StatusOr<ShardRun> shard = ReadShardRun(*store, run);
        if (!shard.ok()) return shard.status();
        shards.push_back(*std::move(shard));
      }
    }
  }
  for (const std::string& reference : references) {
    if (found.contains(reference)) continue;
    return absl::NotFoundError(absl::StrCat("no run and no parent of shards named '", reference, "' in ",
                                            absl::StrJoin(UniqueStores(stores), ", ")));
  }
  return shards;
}

absl::StatusOr<MergedRun> MergeShardRuns(const std::vector<ShardRun>& shards) {
  if (shards.empty()) return absl::InvalidArgumentError("no shard runs to merge");
  for (const ShardRun& shard : shards) {
    if (absl::Status finished = CheckFinished(shard); !finished.ok()) return finished;
  }
  for (const ShardRun& shard : shards) {
    if (absl::Status alike = CheckAlike(shards.front(), shard); !alike.ok()) return alike;
  }
  if (absl::Status covered = CheckCoverage(shards); !covered.ok()) return covered;
  absl::StatusOr<std::vector<CaseRecord>> cases = JoinCases(shards);
  if (!cases.ok()) return cases.status();
  MergedRun merged{.parent = shards.front().run.parent, .cases = *std::move(cases)};
  for (const auto& [name, field] : kSharedFields) merged.run.*field = shards.front().run.*field;
  merged.run.gpu_uuid = Distinct(shards, &RunRecord::gpu_uuid);
  merged.run.host = Distinct(shards, &RunRecord::host);
  JoinArtifacts(shards, merged);
  merged.exit_status =
      std::any_of(shards.begin(), shards.end(), [](const ShardRun& shard) { return shard.run.status == "findings"; })
          ? 1
          : 0;
  return merged;
}

}  // namespace matload
