// SoakRounds: the rounds of a soak (`matload soak`, docs/soak.md), as the
// results store keeps them (kSoakRoundsArtifact) after every round, for
// the soak's page: each round's seed, which `matload conform --seed`
// replays, its time, what it judged and what it found.
#ifndef MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_
#define MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace matload {

// SoakRound is what one round judged.
struct SoakRound {
  int index = 0;
  std::uint64_t seed = 0;  // the round's conform seed (SoakRoundSeed, harness/conform/soak_tally.h)
  double seconds = 0;      // wall time, worker starts and JIT compiles included
  size_t executions = 0;   // variants that ran to completion and were judged
  size_t judged_on_device = 0;
  size_t findings = 0;  // the round's cases that need a person

  friend bool operator==(const SoakRound&, const SoakRound&) = default;
};

// kSoakRoundsArtifact is the results store's key for a soak's rounds.
inline constexpr char kSoakRoundsArtifact[] = "soak/rounds";

// SoakRoundsJson writes the rounds as summary.json and the store keep
// them: an array of {"round", "seed", "seconds", "executions",
// "judged_on_device", "findings"}.
nlohmann::json SoakRoundsJson(const std::vector<SoakRound>& rounds);

// ParseSoakRounds reads SoakRoundsJson's form back; anything else is
// kDataLoss.
absl::StatusOr<std::vector<SoakRound>> ParseSoakRounds(const nlohmann::json& json);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_
