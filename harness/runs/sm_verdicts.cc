#include "harness/runs/sm_verdicts.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {

void AddSmVerdicts(const SmVerdicts& more, SmVerdicts& into) {
  for (const auto& [where, counts] : more) into[where].Add(counts);
}

nlohmann::json SmVerdictsJson(const SmVerdicts& verdicts) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [where, counts] : verdicts) {
    rows.push_back(
        {{"gpu", where.first}, {"sm", where.second}, {"blocks", counts.blocks}, {"disagreed", counts.disagreed}});
  }
  return rows;
}

absl::StatusOr<SmVerdicts> ParseSmVerdicts(const nlohmann::json& json) {
  if (!json.is_array()) return absl::DataLossError("SM verdicts are not a list");
  SmVerdicts verdicts;
  for (const nlohmann::json& row : json) {
    if (!row.is_object()) return absl::DataLossError("an SM verdict is not an object");
    for (const char* key : {"sm", "blocks", "disagreed"}) {
      if (!row.contains(key) || !row[key].is_number_unsigned()) {
        return absl::DataLossError(absl::StrCat("an SM verdict's '", key, "' is not a count"));
      }
    }
    if (!row.contains("gpu") || !row["gpu"].is_number_integer()) {
      return absl::DataLossError("an SM verdict's 'gpu' is not an ordinal");
    }
    const SmCounts counts{.blocks = row["blocks"].get<std::uint64_t>(),
                          .disagreed = row["disagreed"].get<std::uint64_t>()};
    if (counts.disagreed > counts.blocks) return absl::DataLossError("an SM verdict has more disagreed than blocks");
    verdicts[{row["gpu"].get<int>(), row["sm"].get<std::uint32_t>()}].Add(counts);
  }
  return verdicts;
}

}  // namespace matload
