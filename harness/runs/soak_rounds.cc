#include "harness/runs/soak_rounds.h"

#include "absl/strings/str_cat.h"

namespace matload {

std::string RoundReplay(const SoakRound& round) {
  return absl::StrCat("conform --seed ", round.seed,
                      round.variants > 0 ? absl::StrCat(" --variants ", round.variants) : "");
}

nlohmann::json SoakRoundsJson(const std::vector<SoakRound>& rounds) {
  nlohmann::json json = nlohmann::json::array();
  for (const SoakRound& round : rounds) {
    json.push_back({{"round", round.index},
                    {"seed", round.seed},
                    {"variants", round.variants},
                    {"seconds", round.seconds},
                    {"executions", round.executions},
                    {"judged_on_device", round.judged_on_device},
                    {"findings", round.findings}});
  }
  return json;
}

absl::StatusOr<std::vector<SoakRound>> ParseSoakRounds(const nlohmann::json& json) {
  if (!json.is_array()) return absl::DataLossError("the soak's stored rounds are not a list");
  std::vector<SoakRound> rounds;
  try {
    for (const nlohmann::json& round : json) {
      rounds.push_back({.index = round.at("round").get<int>(),
                        .seed = round.at("seed").get<std::uint64_t>(),
                        .variants = round.value("variants", std::int64_t{0}),
                        .seconds = round.at("seconds").get<double>(),
                        .executions = round.at("executions").get<size_t>(),
                        .judged_on_device = round.at("judged_on_device").get<size_t>(),
                        .findings = round.at("findings").get<size_t>()});
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("the soak's stored rounds do not read back: ", error.what()));
  }
  return rounds;
}

}  // namespace matload
