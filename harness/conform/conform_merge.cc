#include "harness/conform/conform_merge.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/conform/conform_recorder.h"
#include "harness/conform/conform_report.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/run_journal.h"

namespace matload {
namespace {

namespace fs = std::filesystem;

// FiledBundle is one bundle of one shard, as its index (BundleWriter::State) holds it.
struct FiledBundle {
  std::string signature;
  fs::path directory;  // where the shard wrote it (the index holds it as OutsideText)
  std::string first_case;
  size_t cases = 0;
};

// ArtifactJson parses the shard's artifact `key`; a missing or unreadable one is kDataLoss.
absl::StatusOr<nlohmann::json> ArtifactJson(const ShardRun& shard, absl::string_view key) {
  const auto found = shard.artifacts.find(std::string(key));
  nlohmann::json json = found == shard.artifacts.end() ? nlohmann::json()
                                                        : nlohmann::json::parse(found->second, nullptr, false);
  if (json.is_null() || json.is_discarded()) {
    return absl::DataLossError(absl::StrCat("run ", shard.run.id, " has no readable ", key,
                                            ": it was not recorded by a conform run that finished"));
  }
  return json;
}

// ShardBundles lists a shard's bundles in the order it numbered them.
absl::StatusOr<std::vector<FiledBundle>> ShardBundles(const ShardRun& shard) {
  absl::StatusOr<nlohmann::json> state = ArtifactJson(shard, ConformRecorder::kBundlesKey);
  if (!state.ok()) return state.status();
  std::vector<FiledBundle> bundles;
  try {
    for (const auto& [signature, filed] : state->items()) {
      bundles.push_back({signature, OutsideBytes(filed.at(0).get<std::string>()), filed.at(1).get<std::string>(),
                         filed.at(2).get<size_t>()});
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("run ", shard.run.id, "'s bundle index does not read back: ", error.what()));
  }
  std::sort(bundles.begin(), bundles.end(),
            [](const FiledBundle& a, const FiledBundle& b) { return a.directory.filename() < b.directory.filename(); });
  return bundles;
}

// Renumbered is a bundle's directory name with the merged run's number
// `number` in place of its shard's: "004-ldmatrix-mismatch".
std::string Renumbered(const fs::path& directory, size_t number) {
  const std::string name = directory.filename().string();
  return absl::StrFormat("%03d%s", number, name.substr(std::min(name.find('-'), name.size())));
}

// Refiler gives each signature one directory of the merged run and maps
// every shard's bundle (by its path relative to the shard's run directory)
// to it.
class Refiler {
 public:
  explicit Refiler(fs::path bundles) : bundles_(std::move(bundles)) {}

  // Take files `shard`'s bundles.
  void Take(const ShardRun& shard, const std::vector<FiledBundle>& filed, MergedConform& merged) {
    for (const FiledBundle& bundle : filed) {
      auto [kept, first] = kept_.try_emplace(bundle.signature);
      if (first) {
        kept->second = bundles_ / Renumbered(bundle.directory, kept_.size());
        merged.copies.push_back({bundle.directory, kept->second});
        merged.bundles[bundle.signature] = {OutsideText(kept->second.string()), bundle.first_case, 0};
      }
      merged.bundles[bundle.signature][2] = merged.bundles[bundle.signature][2].get<size_t>() + bundle.cases;
      const fs::path relative = bundle.directory.lexically_relative(RunDirectory(shard.run));
      moved_[{shard.run.id, relative.string()}] = kept->second.lexically_relative(bundles_.parent_path()).string();
    }
  }

  // Moved is where the merged run keeps the bundle `relative` of `run`.
  const std::string* Moved(const std::string& run, const std::string& relative) const {
    const auto found = moved_.find({run, relative});
    return found == moved_.end() ? nullptr : &found->second;
  }

 private:
  fs::path bundles_;
  std::map<std::string, fs::path> kept_;                           // by signature
  std::map<std::pair<std::string, std::string>, std::string> moved_;  // (run, relative) -> relative
};

// Repoint rewrites each case's bundle to where the merged run keeps it.
absl::Status Repoint(const std::vector<ShardRun>& shards, const Refiler& refiler, std::vector<CaseRecord>& cases) {
  std::map<std::string, const std::string*> run_of_case;
  for (const ShardRun& shard : shards) {
    for (const CaseRecord& record : shard.cases) run_of_case[record.id] = &shard.run.id;
  }
  for (CaseRecord& record : cases) {
    if (record.bundle.empty()) continue;
    const std::string& run = *run_of_case.at(record.id);
    const std::string* moved = refiler.Moved(run, record.bundle);
    if (moved == nullptr) {
      return absl::DataLossError(absl::StrCat("run ", run, "'s case ", record.id, " names bundle ", record.bundle,
                                              ", which its bundle index lacks"));
    }
    record.bundle = *moved;
  }
  return absl::OkStatus();
}

// InShardOrder is `shards` by shard number ("I" of "I/N").
std::vector<const ShardRun*> InShardOrder(const std::vector<ShardRun>& shards) {
  std::vector<const ShardRun*> ordered;
  for (const ShardRun& shard : shards) ordered.push_back(&shard);
  const auto number = [](const ShardRun* shard) { return std::atoi(shard->run.shard.c_str()); };
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](const ShardRun* a, const ShardRun* b) { return number(a) < number(b); });
  return ordered;
}

}  // namespace

absl::StatusOr<MergedConform> MergeConformShards(const std::vector<ShardRun>& shards, const fs::path& directory,
                                                 std::vector<CaseRecord>& cases) {
  MergedConform merged{.bundles = nlohmann::json::object()};
  Refiler refiler(directory / "bundles");
  for (const ShardRun* shard : InShardOrder(shards)) {
    absl::StatusOr<nlohmann::json> totals = ArtifactJson(*shard, ConformRecorder::kTotalsKey);
    if (!totals.ok()) return totals.status();
    if (absl::Status added = AddTotals(*totals, merged.totals); !added.ok()) return added;
    absl::StatusOr<std::vector<FiledBundle>> bundles = ShardBundles(*shard);
    if (!bundles.ok()) return bundles.status();
    refiler.Take(*shard, *bundles, merged);
  }
  merged.totals.bundles = merged.bundles.size();
  if (absl::Status repointed = Repoint(shards, refiler, cases); !repointed.ok()) return repointed;
  return merged;
}

}  // namespace matload
