// SoakRounds: the rounds of a soak (`matload soak`, docs/soak.md), as the
// results store keeps them (kSoakRoundsArtifact) after every round, for
// the soak's page: each round's seed and variants a form, which `matload
// conform --seed S --variants K` replays, its time, what it judged and what
// it found.
#ifndef MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_
#define MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace matload {

// SoakRound is what one round judged.
struct SoakRound {
  int index = 0;
  std::uint64_t seed = 0;  // the round's conform seed (SoakRoundSeed, harness/conform/soak_tally.h)
  // variants a form and compile path (harness/conform/soak_round_size.h);
  // 0 in rounds stored before rounds were sized apart (2026-11-29), which
  // all ran the soak's --round_variants.
  std::int64_t variants = 0;
  double seconds = 0;      // wall time, worker starts and JIT compiles included
  size_t executions = 0;   // variants that ran to completion and were judged
  size_t judged_on_device = 0;
  size_t findings = 0;  // the round's cases that need a person

  friend bool operator==(const SoakRound&, const SoakRound&) = default;
};

// RoundReplay is the conform flags that replay `round`: "conform --seed S
// --variants K", without --variants for a round stored without its size.
std::string RoundReplay(const SoakRound& round);

// kSoakRoundsArtifact is the results store's key for a soak's rounds.
inline constexpr char kSoakRoundsArtifact[] = "soak/rounds";

// SoakRoundsJson writes the rounds as summary.json and the store keep
// them: an array of {"round", "seed", "variants", "seconds",
// "executions", "judged_on_device", "findings"}.
nlohmann::json SoakRoundsJson(const std::vector<SoakRound>& rounds);

// ParseSoakRounds reads SoakRoundsJson's form back, and rounds stored
// without "variants"; anything else is kDataLoss.
absl::StatusOr<std::vector<SoakRound>> ParseSoakRounds(const nlohmann::json& json);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SOAK_ROUNDS_H_
