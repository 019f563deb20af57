// SplitMix64 (Steele, Lea and Flood, 2014): the one random number generator
// behind a variant's data and its operands. Its outputs are fixed by its
// definition, with no seeding cost, so a variant replays the same on the
// host, on the device (DataWordPtx emits the same arithmetic) and with
// every standard library, and drawing a variant's operands costs a few
// multiplications rather than seeding a Mersenne twister.
#ifndef MATLOAD_HARNESS_PLATFORM_SPLIT_MIX64_H_
#define MATLOAD_HARNESS_PLATFORM_SPLIT_MIX64_H_

#include <cstdint>

namespace matload {

// kSplitMix64Gamma is the golden-ratio increment that advances the state.
inline constexpr std::uint64_t kSplitMix64Gamma = 0x9E3779B97F4A7C15;
// kSplitMix64Mix1 and kSplitMix64Mix2 are the output finaliser's multipliers.
inline constexpr std::uint64_t kSplitMix64Mix1 = 0xBF58476D1CE4E5B9;
inline constexpr std::uint64_t kSplitMix64Mix2 = 0x94D049BB133111EB;

// SplitMix64Output is the generator's output for state `state`: a bijective
// mix, so distinct states give distinct outputs.
constexpr std::uint64_t SplitMix64Output(std::uint64_t state) {
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * kSplitMix64Mix1;
  z = (z ^ (z >> 27)) * kSplitMix64Mix2;
  return z ^ (z >> 31);
}

// SplitMix64 is the generator: output k (from 0) of one seeded with s is
// SplitMix64Output(s + (k + 1) * kSplitMix64Gamma).
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}

  // Next is the next output.
  constexpr std::uint64_t Next() {
    state_ += kSplitMix64Gamma;
    return SplitMix64Output(state_);
  }
  // Below is a number in [0, bound): the next output modulo `bound`. The
  // bias is below bound / 2^64, far below anything a variant's draw needs.
  constexpr std::uint64_t Below(std::uint64_t bound) { return Next() % bound; }

 private:
  std::uint64_t state_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SPLIT_MIX64_H_
