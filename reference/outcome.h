// Outcome: what the reference model says one execution of a load does.
//
// Exactly one of: the register values of every lane; undefined, with the
// runtime hazard that makes it so (the harness must not compare it); or a
// fault the spec or the platform guarantees.
#ifndef MATLOAD_REFERENCE_OUTCOME_H_
#define MATLOAD_REFERENCE_OUTCOME_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "reference/family_spec.h"

namespace matload {

// kWarpLanes is the number of lanes in a warp: every load here is warp-wide.
inline constexpr int kWarpLanes = 32;

// LaneValues holds each lane's destination registers as 32-bit words, in
// one lane-major buffer: lane 0's words, then lane 1's, as a test kernel
// stores them. A 64-bit register (wmma .f64) takes two words, low word
// first, as it sits in memory. One buffer keeps a prediction to one
// allocation and lets a judge compare a whole warp at once.
struct LaneValues {
  // Zeroed is a warp's worth of zero words, `words_per_lane` per lane.
  static LaneValues Zeroed(int words_per_lane, int register_bits = 32) {
    return LaneValues{std::vector<std::uint32_t>(static_cast<size_t>(kWarpLanes) * words_per_lane, 0), words_per_lane,
                      register_bits};
  }
  // lane is one lane's words.
  absl::Span<std::uint32_t> lane(int lane) {
    return absl::MakeSpan(words).subspan(static_cast<size_t>(lane) * words_per_lane, words_per_lane);
  }
  absl::Span<const std::uint32_t> lane(int lane) const {
    return absl::MakeConstSpan(words).subspan(static_cast<size_t>(lane) * words_per_lane, words_per_lane);
  }

  std::vector<std::uint32_t> words;
  int words_per_lane = 0;
  int register_bits = 32;
  friend bool operator==(const LaneValues&, const LaneValues&) = default;
};

// kPoisonWord is what a block's output holds where its kernel stored
// nothing: the harness sets every output byte to 0xA5 before a launch
// (harness/gpu/cuda_driver.cc), and no LaneValues depends on it.
inline constexpr std::uint32_t kPoisonWord = 0xA5A5A5A5;

// OutputWord reads word `index` of a block's output, laid out as LaneValues
// and little-endian; a word past the output's end was never stored and
// reads as kPoisonWord.
inline std::uint32_t OutputWord(absl::Span<const std::uint8_t> output, size_t index) {
  if (4 * index + 4 > output.size()) return kPoisonWord;
  std::uint32_t word = 0;
  for (int b = 0; b < 4; ++b) word |= static_cast<std::uint32_t>(output[4 * index + b]) << (8 * b);
  return word;
}

// Undefined says the spec leaves the result undefined, and why.
struct Undefined {
  RuntimeHazard hazard;
  std::string why;
};

// MustFault says the load must raise a fault.
struct MustFault {
  std::string why;
};

// Outcome is the model's prediction for one execution.
using Outcome = std::variant<LaneValues, Undefined, MustFault>;

}  // namespace matload

#endif  // MATLOAD_REFERENCE_OUTCOME_H_
