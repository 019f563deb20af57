// DataPattern: the test data of one run, generated the same way on the host
// and on the device from one 64-bit key, so that any variant replays from
// (form, seed, variant index) and no window is ever copied to the GPU.
#ifndef MATLOAD_HARNESS_KERNELS_DATA_PATTERN_H_
#define MATLOAD_HARNESS_KERNELS_DATA_PATTERN_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace matload {

// DataPattern is how a window's words are made.
enum class DataPattern : std::uint32_t {
  // Element-tagged: the 16-bit word at byte offset 2k holds k, so every
  // element names its own place (with the stride, its row and column).
  kTagged = 0,
  // Random: every bit pattern, so floating types see NaN, Inf and
  // denormals at their natural rate (1 in 32 f16 values each, for example).
  kRandom = 1,
};

// DataPatternName spells a pattern for reports: "tagged" or "random".
absl::string_view DataPatternName(DataPattern pattern);

// ParseDataPattern reads a DataPatternName spelling.
absl::StatusOr<DataPattern> ParseDataPattern(absl::string_view name);

// DataStream is the key of variant `variant` of a run seeded with `seed`:
// SplitMix64's output for the state seed + (variant + 1) * golden gamma.
std::uint64_t DataStream(std::uint64_t seed, std::uint64_t variant);

// kVariantsPerWindow is how many consecutive variants share one window of
// data (WindowStream), so that a kernel that runs many variants per block
// fills its window once for all of them (device_sweep.h).
inline constexpr std::uint64_t kVariantsPerWindow = 64;

// WindowStream is the data stream of variant `variant` of a run seeded with
// `seed` for a family whose variants share windows: the stream of window
// variant / kVariantsPerWindow, drawn from the complement of the seed so
// that it is none of the run's DataStream keys.
std::uint64_t WindowStream(std::uint64_t seed, std::uint64_t variant);

// DataWord is 32-bit word `index` of a window. A kRandom window is
// SplitMix64's outputs laid end to end, little-endian: 64-bit word k is the
// output for the state stream + (k + 1) * golden gamma, so 32-bit word
// `index` is the low half of output index / 2 when `index` is even and its
// high half when odd. One mix makes two words: the two lanes of ldmatrix
// that read a row's neighbouring words share it (device_sweep.h).
std::uint32_t DataWord(DataPattern pattern, std::uint64_t stream, std::uint32_t index);

// RandomPair is 64-bit word `pair` of a kRandom window (its 32-bit words
// 2 pair and 2 pair + 1, low first).
std::uint64_t RandomPair(std::uint64_t stream, std::uint32_t pair);

// FillWindow writes the words of a window whose size is a multiple of 4.
void FillWindow(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window);

// FillWindowRange writes only the window's words that overlap bytes
// [first, first + length), clipped to the window: all a prediction needs
// of a window it reads a little of.
void FillWindowRange(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window, std::uint64_t first,
                     std::uint64_t length);

// SplitMix64OutputPtx is a PTX block, with registers of its own and no
// branches, that sets the .u64 register `output` to SplitMix64Output of the
// .u64 register `state` (which it leaves as it was unless it is `output`).
std::string SplitMix64OutputPtx(absl::string_view state, absl::string_view output);

// RandomPairPtx is a PTX block, with registers of its own and no branches,
// that sets the .b64 register `output` to RandomPair(stream, pair): `pair`
// is a .u32 register, `stream` a .u64 register.
std::string RandomPairPtx(absl::string_view pair, absl::string_view stream, absl::string_view output);

// RandomWordPtx is a PTX block, with registers of its own and no branches,
// that sets the .b32 register `word` to DataWord(kRandom, stream, index):
// `index` is a .u32 register, `stream` a .u64 register.
std::string RandomWordPtx(absl::string_view index, absl::string_view stream, absl::string_view word);

// DataWordPtx is a PTX block, with registers of its own and no branches,
// that sets the .b32 register `word` to DataWord(pattern, stream, index):
// `index` is a .u32 register, `pattern` a .u32 register holding a
// DataPattern, `stream` a .u64 register.
std::string DataWordPtx(absl::string_view index, absl::string_view pattern, absl::string_view stream,
                        absl::string_view word);

// DataPairPtx is a PTX block, with registers of its own and no branches,
// that sets the .b64 register `output` to 64-bit word `pair` of a window:
// DataWord(pattern, stream, 2 pair) and, above it, 2 pair + 1. `pair` is a
// .u32 register, `pattern` a .u32 register holding a DataPattern, `stream`
// a .u64 register.
std::string DataPairPtx(absl::string_view pair, absl::string_view pattern, absl::string_view stream,
                        absl::string_view output);

// FillWindowPtx is a PTX block, with registers of its own, in which the
// first `threads` threads of the block (a multiple of 32) write
// `window_bytes` (a multiple of 128) bytes of the pattern to the generic
// address in the .b64 register `window` (8-byte aligned), a 64-bit word per
// thread per step: DataPairPtx's pair i at byte 8i, one mix for two words. `pattern` is a .u32 register
// holding a DataPattern, `stream` a .u64 register. The caller synchronises
// the threads before reading the window.
std::string FillWindowPtx(absl::string_view window, int window_bytes, absl::string_view pattern,
                          absl::string_view stream, int threads = 32);

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_DATA_PATTERN_H_
