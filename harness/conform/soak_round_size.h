// SoakRoundSize: how many variants a form each round of a soak runs
// (`matload soak`, docs/soak.md). A round is a whole conformance run, and
// every run pays costs that do not grow with its variants: the GPUs'
// probes, a worker start per slot, which the host's driver runs one at a
// time, and each form's module loads. At 10^6 variants a form, a swept
// round on one H200 is mostly those costs; on four GPUs, whose GPU work is
// a quarter as long, it is more so (reports/soak/). So after the first
// round, which runs --round_variants, each round is sized from the last
// one's time to fill about --round_seconds, at least --round_variants and,
// near the soak's end, no more than its time left: fixed costs become a
// small share of a round, and a soak's rate grows with its GPUs.
#ifndef MATLOAD_HARNESS_CONFORM_SOAK_ROUND_SIZE_H_
#define MATLOAD_HARNESS_CONFORM_SOAK_ROUND_SIZE_H_

#include <cstdint>

#include "absl/time/time.h"

namespace matload {

// RoundSizing is what a soak was asked for its rounds' size.
struct RoundSizing {
  std::int64_t first = 1;         // --round_variants: the first round's, and the least of any round
  absl::Duration target;          // --round_seconds: a round's time to aim at; zero: every round runs `first`
  std::int64_t most = 1;          // the most variants a form any conform run takes (a variant's index is an int)
};

// kMostRoundGrowth bounds how many times as many variants a round runs as
// the round before it: time grows less than in proportion while fixed
// costs are most of a round, so one step never jumps past the target by
// more than its own fixed costs, and a first round slowed by cold JIT
// caches or fault confirmations sizes the next one low, not high.
inline constexpr std::int64_t kMostRoundGrowth = 10;

// NextRoundVariants is the variants a form of the round after one that ran
// `last_variants` in `last_round`, with `left` of the soak's time left:
// `last_variants` scaled by min(target, left) / last_round, within
// [first, most] and at most kMostRoundGrowth times `last_variants`.
std::int64_t NextRoundVariants(const RoundSizing& sizing, std::int64_t last_variants, absl::Duration last_round,
                               absl::Duration left);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_SOAK_ROUND_SIZE_H_
