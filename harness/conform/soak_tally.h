// SoakTally: what a soak (`matload soak`, harness/cli/soak_command.h) has
// judged so far. A soak runs rounds, each a whole conformance run of every
// form it takes with fresh variants (a seed of its own), kept in a
// directory of its own under the soak's (rounds/0003). The tally joins the
// rounds into one record per case, as a conform run records it, so that
// the soak is one run in the results store with one row per case: its
// variants summed over the rounds, and, where any round found something,
// that round's outcome, failing variants and bundle, with the round's seed
// that replays them (docs/soak.md). It also keeps the registry predictions
// the rounds confirmed, so that a soak confirms each once.
#ifndef MATLOAD_HARNESS_CONFORM_SOAK_TALLY_H_
#define MATLOAD_HARNESS_CONFORM_SOAK_TALLY_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/conform/conformance_run.h"
#include "harness/runs/case_record.h"
#include "harness/runs/soak_rounds.h"

namespace matload {

// SoakRoundSeed is round `round`'s seed in a soak seeded with `seed`: the
// round's output of a SplitMix64 stream (harness/platform/split_mix64.h),
// so that rounds of one soak, and soaks of nearby seeds, share no variant.
// `matload conform --seed SEED` replays any variant of the round.
std::uint64_t SoakRoundSeed(std::uint64_t seed, int round);

// SoakRoundDirectory is round `round`'s directory, relative to the soak's
// run directory: "rounds/0003".
std::string SoakRoundDirectory(int round);

// SoakTally joins a soak's rounds.
class SoakTally {
 public:
  // AddRound counts `round`, whose conformance run gave `result`, in. Its
  // case records' bundles are relative to the round's directory, and are
  // kept relative to the soak's. A round whose totals do not add up
  // (conform_report.h's AddTotals) is kDataLoss.
  absl::Status AddRound(SoakRound round, const ConformanceResult& result);

  // rounds are the rounds added, in order.
  const std::vector<SoakRound>& rounds() const { return rounds_; }
  // confirmed are the registry predictions the rounds confirmed, for the
  // next round to take as confirmed (ConformanceOptions::confirmed_earlier).
  const ConfirmedPredictions& confirmed() const { return confirmed_; }
  // Cases is one record per case ID, in ID order: its variants counted
  // over every round, and the first round that found something in it
  // giving its outcome, failing variants, attempts, bundle and message
  // (which names that round and its seed).
  std::vector<CaseRecord> Cases() const;
  // Totals are the rounds' totals added up, with findings and flakes
  // counted by case (a case that fails in two rounds is one finding), as
  // the results store counts them: a flake is a case whose re-runs
  // disagreed in any round, even where an earlier round speaks for it.
  ConformanceResult Totals() const;

 private:
  std::vector<SoakRound> rounds_;
  std::map<std::string, CaseRecord> cases_;
  ConfirmedPredictions confirmed_;
  std::set<std::string> flaky_;  // the cases that were a flake in some round
  ConformanceResult totals_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_SOAK_TALLY_H_
