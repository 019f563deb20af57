#include "harness/conform/soak_tally.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/conform/conform_report.h"
#include "harness/platform/split_mix64.h"

namespace matload {
namespace {

// InSoak is `record` of round `round` as the soak keeps it: its bundle
// under the round's directory, and a finding's message naming the round
// and the conform flags that replay it.
CaseRecord InSoak(CaseRecord record, const SoakRound& round) {
  if (!record.bundle.empty()) record.bundle = absl::StrCat(SoakRoundDirectory(round.index), "/", record.bundle);
  if (record.finding) {
    record.detail = absl::StrCat("round ", round.index, " (", RoundReplay(round), "): ", record.detail);
  }
  return record;
}

}  // namespace

std::uint64_t SoakRoundSeed(std::uint64_t seed, int round) {
  return SplitMix64Output(seed + static_cast<std::uint64_t>(round + 1) * kSplitMix64Gamma);
}

std::string SoakRoundDirectory(int round) { return absl::StrFormat("rounds/%04d", round); }

absl::Status SoakTally::AddRound(SoakRound round, const ConformanceResult& result) {
  if (absl::Status added = AddTotals(TotalsJson(result), totals_); !added.ok()) return added;
  totals_.identity = result.identity;
  totals_.target = result.target;
  totals_.bundles += result.bundles;
  round.executions = result.executions;
  round.judged_on_device = result.judged_on_device;
  round.findings =
      std::count_if(result.cases.begin(), result.cases.end(), [](const CaseRecord& c) { return c.finding; });
  for (const CaseRecord& record : result.cases) {
    if (record.outcome == CaseOutcome::kFlake) flaky_.insert(record.id);
    CaseRecord from_round = InSoak(record, round);
    auto [joined, first] = cases_.try_emplace(record.id, from_round);
    if (first) continue;
    for (const auto& [outcome, count] : from_round.counts) joined->second.counts[outcome] += count;
    joined->second.seconds += from_round.seconds;
    // The first round that found something in the case speaks for it.
    if (from_round.finding && !joined->second.finding) {
      from_round.counts = joined->second.counts;
      from_round.seconds = joined->second.seconds;
      joined->second = std::move(from_round);
    }
  }
  confirmed_.insert(result.confirmed.begin(), result.confirmed.end());
  rounds_.push_back(round);
  return absl::OkStatus();
}

std::vector<CaseRecord> SoakTally::Cases() const {
  std::vector<CaseRecord> cases;
  cases.reserve(cases_.size());
  for (const auto& [id, record] : cases_) cases.push_back(record);
  return cases;
}

ConformanceResult SoakTally::Totals() const {
  ConformanceResult totals = totals_;
  totals.cases = Cases();
  totals.findings =
      std::count_if(totals.cases.begin(), totals.cases.end(), [](const CaseRecord& c) { return c.finding; });
  totals.flakes = flaky_.size();
  return totals;
}

}  // namespace matload
