#include "harness/conform/soak_round_size.h"

#include <algorithm>
#include <cmath>

namespace matload {

std::int64_t NextRoundVariants(const RoundSizing& sizing, std::int64_t last_variants, absl::Duration last_round,
                               absl::Duration left) {
  if (sizing.target <= absl::ZeroDuration() || last_round <= absl::ZeroDuration()) return sizing.first;
  const double scale = absl::FDivDuration(std::min(sizing.target, left), last_round);
  const double wanted = std::min(static_cast<double>(last_variants) * scale,
                                 static_cast<double>(last_variants) * static_cast<double>(kMostRoundGrowth));
  const double bounded =
      std::clamp(std::floor(wanted), static_cast<double>(sizing.first), static_cast<double>(sizing.most));
  return static_cast<std::int64_t>(bounded);
}

}  // namespace matload
