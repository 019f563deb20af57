#include "harness/conform/near_miss_report.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/runs/case_outcome.h"
#include "nlohmann/json.hpp"

namespace matload {

std::string NearMissReport::Encode() const {
  nlohmann::json json = {
      {"near_miss", near_miss}, {"disagreements", nlohmann::json::array()}, {"cases", nlohmann::json::array()}};
  for (const Disagreement& disagreement : disagreements) {
    json["disagreements"].push_back(
        {{"model_legal", disagreement.model_legal}, {"registry_id", disagreement.registry_id}});
  }
  for (const CaseRecord& record : cases) {
    json["cases"].push_back({{"id", record.id},
                             {"outcome", CaseOutcomeWord(record.outcome)},
                             {"finding", record.finding},
                             {"seconds", record.seconds},
                             {"detail", record.detail}});
  }
  return json.dump();
}

absl::StatusOr<NearMissReport> NearMissReport::Decode(absl::string_view text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return absl::DataLossError("the near-miss sweep's report is not JSON");
  try {
    if (!json.at("near_miss").is_number_unsigned()) {
      return absl::DataLossError("the near-miss sweep's report counts no near-miss forms");
    }
    NearMissReport report{.near_miss = json.at("near_miss").get<size_t>()};
    for (const nlohmann::json& disagreement : json.at("disagreements")) {
      report.disagreements.push_back({.model_legal = disagreement.at("model_legal").get<bool>(),
                                      .registry_id = disagreement.at("registry_id").get<std::string>()});
    }
    for (const nlohmann::json& record : json.at("cases")) {
      absl::StatusOr<CaseOutcome> outcome = ParseCaseOutcome(record.at("outcome").get<std::string>());
      if (!outcome.ok()) return outcome.status();
      report.cases.push_back({.id = record.at("id").get<std::string>(),
                              .outcome = *outcome,
                              .finding = record.at("finding").get<bool>(),
                              .detail = record.at("detail").get<std::string>(),
                              .seconds = record.at("seconds").get<double>()});
    }
    return report;
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("the near-miss sweep's report: ", error.what()));
  }
}

}  // namespace matload
