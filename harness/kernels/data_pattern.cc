#include "harness/kernels/data_pattern.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/split_mix64.h"

namespace matload {

namespace {

// StoreWord stores `word` little-endian at byte `at` of `bytes`.
void StoreWord(std::uint8_t* bytes, std::uint64_t at, std::uint32_t word) {
  static_assert(std::endian::native == std::endian::little, "window words are stored little-endian");
  std::memcpy(bytes + at, &word, 4);
}

// FillTaggedWords stores the tagged words at byte offsets [begin, end)
// (multiples of 4) of `bytes`.
void FillTaggedWords(std::uint8_t* bytes, std::uint64_t begin, std::uint64_t end) {
  for (std::uint64_t i = begin; i < end; i += 4) {
    StoreWord(bytes, i, DataWord(DataPattern::kTagged, 0, static_cast<std::uint32_t>(i / 4)));
  }
}

// FillRandomWords is FillTaggedWords for the random pattern, which the host
// fills for every prediction: a whole 64-bit pair at a time, with a lone
// word at either end. It is compiled twice, with AVX-512DQ (whose 64-bit
// multiplies let the loop make 8 pairs at a time) and without, and the
// loader picks the one this CPU runs (the target_clones attribute of GCC
// and Clang).
__attribute__((target_clones("avx512dq", "default"))) void FillRandomWords(std::uint64_t stream, std::uint8_t* bytes,
                                                                           std::uint64_t begin, std::uint64_t end) {
  std::uint64_t at = begin;
  if (at % 8 != 0 && at < end) {
    StoreWord(bytes, at, DataWord(DataPattern::kRandom, stream, static_cast<std::uint32_t>(at / 4)));
    at += 4;
  }
  for (; at + 8 <= end; at += 8) {
    const std::uint64_t pair = RandomPair(stream, static_cast<std::uint32_t>(at / 8));
    std::memcpy(bytes + at, &pair, 8);
  }
  if (at < end) StoreWord(bytes, at, DataWord(DataPattern::kRandom, stream, static_cast<std::uint32_t>(at / 4)));
}

}  // namespace

absl::string_view DataPatternName(DataPattern pattern) {
  return pattern == DataPattern::kTagged ? "tagged" : "random";
}

absl::StatusOr<DataPattern> ParseDataPattern(absl::string_view name) {
  for (DataPattern pattern : {DataPattern::kTagged, DataPattern::kRandom}) {
    if (name == DataPatternName(pattern)) return pattern;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown data pattern '", name, "' (tagged or random)"));
}

std::uint64_t DataStream(std::uint64_t seed, std::uint64_t variant) {
  return SplitMix64Output(seed + (variant + 1) * kSplitMix64Gamma);
}

std::uint64_t WindowStream(std::uint64_t seed, std::uint64_t variant) {
  return DataStream(~seed, variant / kVariantsPerWindow);
}

std::uint32_t DataWord(DataPattern pattern, std::uint64_t stream, std::uint32_t index) {
  if (pattern == DataPattern::kTagged) return (2 * index) | ((2 * index + 1) << 16);
  return static_cast<std::uint32_t>(RandomPair(stream, index / 2) >> (32 * (index % 2)));
}

std::uint64_t RandomPair(std::uint64_t stream, std::uint32_t pair) {
  return SplitMix64Output(stream + (std::uint64_t{pair} + 1) * kSplitMix64Gamma);
}

void FillWindow(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window) {
  FillWindowRange(pattern, stream, window, 0, window.size());
}

void FillWindowRange(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window, std::uint64_t first,
                     std::uint64_t length) {
  const std::uint64_t end = std::min<std::uint64_t>(window.size() / 4 * 4, first + length);
  if (pattern == DataPattern::kTagged) {
    FillTaggedWords(window.data(), first / 4 * 4, end);
  } else {
    FillRandomWords(stream, window.data(), first / 4 * 4, end);
  }
}

std::string SplitMix64OutputPtx(absl::string_view state, absl::string_view output) {
  return absl::StrCat("  {\n  .reg .b64 %mix_z, %mix_shifted;\n  mov.b64 %mix_z, ", state, ";\n",
                      "  shr.b64 %mix_shifted, %mix_z, 30;\n  xor.b64 %mix_z, %mix_z, %mix_shifted;\n",
                      "  mul.lo.u64 %mix_z, %mix_z, ", kSplitMix64Mix1, ";\n",
                      "  shr.b64 %mix_shifted, %mix_z, 27;\n  xor.b64 %mix_z, %mix_z, %mix_shifted;\n",
                      "  mul.lo.u64 %mix_z, %mix_z, ", kSplitMix64Mix2, ";\n",
                      "  shr.b64 %mix_shifted, %mix_z, 31;\n  xor.b64 ", output, ", %mix_z, %mix_shifted;\n  }\n");
}

std::string RandomPairPtx(absl::string_view pair, absl::string_view stream, absl::string_view output) {
  // SplitMix64Output(stream + (pair + 1) * gamma). pair + 1 is taken in 32
  // bits (a pair's index is far below 2^32 - 1), so that the state is a
  // 32-by-32-bit wide multiply-add with the stream and a 32-bit
  // multiply-add of gamma's high half: a 64-bit pair + 1 made ptxas carry
  // into, and multiply, a high word that is always 0. That was 6 SASS
  // instructions fewer a variant of ldmatrix.x4's sweep on sm_90
  // (reports/bench/sweep-keys-h200-2026-11-29/).
  return absl::StrCat("  {\n  .reg .b32 %pair_k, %pair_low, %pair_high;\n  .reg .b64 %pair_state;\n",
                      "  add.u32 %pair_k, ", pair, ", 1;\n  mad.wide.u32 %pair_state, %pair_k, ",
                      static_cast<std::uint32_t>(kSplitMix64Gamma), ", ", stream, ";\n",
                      "  mov.b64 {%pair_low, %pair_high}, %pair_state;\n", "  mad.lo.u32 %pair_high, %pair_k, ",
                      static_cast<std::uint32_t>(kSplitMix64Gamma >> 32),
                      ", %pair_high;\n  mov.b64 %pair_state, {%pair_low, %pair_high};\n",
                      SplitMix64OutputPtx("%pair_state", output), "  }\n");
}

std::string RandomWordPtx(absl::string_view index, absl::string_view stream, absl::string_view word) {
  return absl::StrCat("  {\n  .reg .b32 %random_pair, %random_bit, %random_half<2>;\n  .reg .b64 %random_z;\n",
                      "  .reg .pred %random_odd;\n  shr.u32 %random_pair, ", index, ", 1;\n",
                      RandomPairPtx("%random_pair", stream, "%random_z"),
                      "  mov.b64 {%random_half0, %random_half1}, %random_z;\n  and.b32 %random_bit, ", index,
                      ", 1;\n  setp.ne.u32 %random_odd, %random_bit, 0;\n", "  selp.b32 ", word,
                      ", %random_half1, %random_half0, %random_odd;\n  }\n");
}

std::string DataWordPtx(absl::string_view index, absl::string_view pattern, absl::string_view stream,
                        absl::string_view word) {
  return absl::StrCat("  {\n  .reg .b32 %word_tag, %word_high;\n  .reg .pred %word_tagged;\n",
                      // Tagged: (2i) | (2i + 1) << 16.
                      "  shl.b32 %word_tag, ", index, ", 1;\n  add.u32 %word_high, %word_tag, 1;\n",
                      "  shl.b32 %word_high, %word_high, 16;\n  or.b32 %word_tag, %word_tag, %word_high;\n",
                      RandomWordPtx(index, stream, word), "  setp.eq.u32 %word_tagged, ", pattern, ", ",
                      static_cast<std::uint32_t>(DataPattern::kTagged), ";\n  selp.b32 ", word, ", %word_tag, ", word,
                      ", %word_tagged;\n  }\n");
}

std::string DataPairPtx(absl::string_view pair, absl::string_view pattern, absl::string_view stream,
                        absl::string_view output) {
  return absl::StrCat("  {\n  .reg .b32 %tagged_first, %tagged_low, %tagged_high;\n  .reg .b64 %tagged_pair;\n",
                      "  .reg .pred %pair_tagged;\n",
                      // Tagged: the 16-bit words 4 pair .. 4 pair + 3 hold their own indices.
                      "  shl.b32 %tagged_first, ", pair,
                      ", 2;\n  mad.lo.u32 %tagged_low, %tagged_first, 65537, 65536;\n",
                      "  mad.lo.u32 %tagged_high, %tagged_first, 65537, 196610;\n",
                      "  mov.b64 %tagged_pair, {%tagged_low, %tagged_high};\n", RandomPairPtx(pair, stream, output),
                      "  setp.eq.u32 %pair_tagged, ", pattern, ", ", static_cast<std::uint32_t>(DataPattern::kTagged),
                      ";\n  selp.b64 ", output, ", %tagged_pair, ", output, ", %pair_tagged;\n  }\n");
}

std::string FillWindowPtx(absl::string_view window, int window_bytes, absl::string_view pattern,
                          absl::string_view stream, int threads) {
  return absl::StrCat("  {\n  .reg .b32 %fill_i;\n  .reg .b64 %fill_pair, %fill_at;\n  .reg .pred %fill_more;\n",
                      "  mov.u32 %fill_i, %tid.x;\nFILL:\n  setp.lt.u32 %fill_more, %fill_i, ", window_bytes / 8,
                      ";\n  @!%fill_more bra FILLED;\n", DataPairPtx("%fill_i", pattern, stream, "%fill_pair"),
                      "  mul.wide.u32 %fill_at, %fill_i, 8;\n  add.u64 %fill_at, ", window, ", %fill_at;\n",
                      "  st.u64 [%fill_at], %fill_pair;\n  add.u32 %fill_i, %fill_i, ", threads,
                      ";\n  bra FILL;\nFILLED:\n  }\n");
}

}  // namespace matload
