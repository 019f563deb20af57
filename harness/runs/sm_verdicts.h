// SmVerdicts: what the GPU judge (harness/kernels/device_judge.h) said,
// counted by GPU and SM from the SM number each verdict word carries, so
// that a fleet sees which SM of which GPU disagreed with the model's plan
// (docs/gpu-judge.md). A conform run keeps them in the results store as an
// artifact (kSmVerdictsArtifact), for its page.
#ifndef MATLOAD_HARNESS_RUNS_SM_VERDICTS_H_
#define MATLOAD_HARNESS_RUNS_SM_VERDICTS_H_

#include <cstdint>
#include <map>
#include <utility>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace matload {

// SmCounts are one SM's blocks with a device verdict, and of those the
// ones it called wrong.
struct SmCounts {
  std::uint64_t blocks = 0;
  std::uint64_t disagreed = 0;

  // Add counts `other` in.
  void Add(const SmCounts& other) {
    blocks += other.blocks;
    disagreed += other.disagreed;
  }
  friend bool operator==(const SmCounts&, const SmCounts&) = default;
};

// SmVerdicts are SmCounts by (GPU ordinal, SM number).
using SmVerdicts = std::map<std::pair<int, std::uint32_t>, SmCounts>;

// kSmVerdictsArtifact is the results store's key for a run's SmVerdicts.
inline constexpr char kSmVerdictsArtifact[] = "sm_verdicts";

// AddSmVerdicts counts `more` into `into`.
void AddSmVerdicts(const SmVerdicts& more, SmVerdicts& into);

// SmVerdictsJson writes them as summary.json and the store keep them: an
// array of {"gpu", "sm", "blocks", "disagreed"}, by GPU then SM.
nlohmann::json SmVerdictsJson(const SmVerdicts& verdicts);

// ParseSmVerdicts reads SmVerdictsJson's form back; anything else is
// kDataLoss.
absl::StatusOr<SmVerdicts> ParseSmVerdicts(const nlohmann::json& json);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SM_VERDICTS_H_
