#include "harness/triage/variant_reduction.h"

#include <variant>

#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// Candidate is one change to the current variant, or none when it would
// change nothing.
struct Candidate {
  std::string change;
  std::optional<Variant> variant;
};

// LaneGroupChange names resetting lanes [first, first + width)'s addresses.
std::string LaneGroupChange(int first, int width) {
  if (width == 1) return absl::StrCat("lane ", first, "'s address as variant 0's");
  return absl::StrCat("lanes ", first, "-", first + width - 1, "'s addresses as variant 0's");
}

// Candidates are the changes tried, simplest first, from `current` toward `simplest`.
std::vector<Candidate> Candidates(const Variant& current, const Variant& simplest) {
  std::vector<Candidate> candidates;
  const auto with = [&](std::string change, auto edit) {
    Variant changed = current;
    edit(changed);
    const bool differs = changed.pattern != current.pattern || !(changed.operands == current.operands);
    candidates.push_back({std::move(change), differs ? std::optional<Variant>(changed) : std::nullopt});
  };
  with("variant 0's operands and tagged data", [&](Variant& v) {
    v.operands = simplest.operands;
    v.pattern = DataPattern::kTagged;
  });
  with("tagged data", [](Variant& v) { v.pattern = DataPattern::kTagged; });
  with(absl::StrCat("variant 0's address (", simplest.operands.address, ")"),
       [&](Variant& v) { v.operands.address = simplest.operands.address; });
  with(absl::StrCat("variant 0's stride (", simplest.operands.stride, ")"),
       [&](Variant& v) { v.operands.stride = simplest.operands.stride; });
  with("variant 0's lane addresses", [&](Variant& v) { v.operands.lane_addresses = simplest.operands.lane_addresses; });
  // Then ever smaller groups of lanes, so that only the lanes whose own
  // addresses the failure needs keep them.
  for (int width = kWarpLanes / 2; width >= 1; width /= 2) {
    for (int first = 0; first < kWarpLanes; first += width) {
      with(LaneGroupChange(first, width), [&](Variant& v) {
        for (int lane = first; lane < first + width; ++lane) {
          v.operands.lane_addresses[lane] = simplest.operands.lane_addresses[lane];
        }
      });
    }
  }
  for (const std::uint64_t alignment : {128u, 64u, 32u, 16u, 8u}) {
    with(absl::StrCat("the address aligned to ", alignment, " bytes"),
         [&](Variant& v) { v.operands.address -= v.operands.address % alignment; });
  }
  return candidates;
}

// Defined says whether the model predicts the candidate's registers.
bool Defined(const TestProgram& program, const Variant& variant) {
  return std::holds_alternative<LaneValues>(program.Expect(variant));
}

}  // namespace

absl::StatusOr<Reduction> ReduceVariant(const TestProgram& program, std::uint64_t seed, const Variant& variant,
                                        absl::string_view signature, const RunVariant& run) {
  Reduction reduction{.variant = variant};
  const Variant simplest = program.MakeVariant(seed, 0, false);
  for (size_t step = 0; step < Candidates(variant, simplest).size(); ++step) {
    // Each candidate applies to what the steps before it kept.
    Candidate candidate = Candidates(reduction.variant, simplest)[step];
    if (!candidate.variant.has_value()) continue;
    ReductionStep tried{.change = candidate.change};
    if (!Defined(program, *candidate.variant)) {
      tried.outcome = "not defined by the model";
    } else {
      absl::StatusOr<ReplayTally> tally = run(*candidate.variant);
      if (!tally.ok()) return tally.status();
      tried.kept = tally->FailuresOfKind(signature) == tally->runs;
      tried.outcome = tried.kept ? "kept: fails the same way" : tally->Verdict(signature);
      if (tried.kept) reduction.variant = *candidate.variant;
    }
    reduction.steps.push_back(std::move(tried));
  }
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (reduction.variant.operands.lane_addresses[lane] != simplest.operands.lane_addresses[lane]) {
      reduction.lanes_needed.push_back(lane);
    }
  }
  return reduction;
}

}  // namespace matload
