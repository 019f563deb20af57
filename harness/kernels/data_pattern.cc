#include "harness/kernels/data_pattern.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/split_mix64.h"

namespace matload {

namespace {

// FillWords stores the words at byte offsets [begin, end) (multiples of 4)
// of `bytes`. The pattern is a template argument, so the word's arithmetic
// is all the loop does.
template <DataPattern kPattern>
void FillWords(std::uint64_t stream, std::uint8_t* bytes, std::uint64_t begin, std::uint64_t end) {
  static_assert(std::endian::native == std::endian::little, "window words are stored little-endian");
  for (std::uint64_t i = begin; i < end; i += 4) {
    const std::uint32_t word = DataWord(kPattern, stream, static_cast<std::uint32_t>(i / 4));
    std::memcpy(bytes + i, &word, 4);
  }
}

// FillRandomWords is FillWords of the random pattern, which the host fills
// for every prediction. It is compiled twice, with AVX-512DQ (whose 64-bit
// multiplies let the loop make 8 words at a time) and without, and the
// loader picks the one this CPU runs (the target_clones attribute of GCC
// and Clang).
__attribute__((target_clones("avx512dq", "default"))) void FillRandomWords(std::uint64_t stream, std::uint8_t* bytes,
                                                                           std::uint64_t begin, std::uint64_t end) {
  FillWords<DataPattern::kRandom>(stream, bytes, begin, end);
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
  return static_cast<std::uint32_t>(SplitMix64Output(stream + (std::uint64_t{index} + 1) * kSplitMix64Gamma));
}

void FillWindow(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window) {
  FillWindowRange(pattern, stream, window, 0, window.size());
}

void FillWindowRange(DataPattern pattern, std::uint64_t stream, absl::Span<std::uint8_t> window, std::uint64_t first,
                     std::uint64_t length) {
  const std::uint64_t end = std::min<std::uint64_t>(window.size() / 4 * 4, first + length);
  if (pattern == DataPattern::kTagged) {
    FillWords<DataPattern::kTagged>(stream, window.data(), first / 4 * 4, end);
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

std::string RandomWordPtx(absl::string_view index, absl::string_view stream, absl::string_view word) {
  // SplitMix64Output(stream + (i + 1) * gamma), low half. i + 1 is taken
  // in 32 bits (a word's index is far below 2^32 - 1), so that the state is
  // a 32-by-32-bit wide multiply-add with the stream and a 32-bit
  // multiply-add of gamma's high half: a 64-bit i + 1 made ptxas carry into,
  // and multiply, a high word that is always 0. That is 6 SASS
  // instructions fewer a variant of ldmatrix.x4's sweep on sm_90
  // (reports/bench/sweep-keys-h200-2026-11-29/).
  return absl::StrCat("  {\n  .reg .b32 %random_i, %random_low, %random_high;\n  .reg .b64 %random_z;\n",
                      "  add.u32 %random_i, ", index, ", 1;\n  mad.wide.u32 %random_z, %random_i, ",
                      static_cast<std::uint32_t>(kSplitMix64Gamma), ", ", stream, ";\n",
                      "  mov.b64 {%random_low, %random_high}, %random_z;\n", "  mad.lo.u32 %random_high, %random_i, ",
                      static_cast<std::uint32_t>(kSplitMix64Gamma >> 32),
                      ", %random_high;\n  mov.b64 %random_z, {%random_low, %random_high};\n",
                      SplitMix64OutputPtx("%random_z", "%random_z"), "  cvt.u32.u64 ", word, ", %random_z;\n  }\n");
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

std::string FillWindowPtx(absl::string_view window, int window_bytes, absl::string_view pattern,
                          absl::string_view stream, int threads) {
  return absl::StrCat("  {\n  .reg .b32 %fill_i, %fill_word;\n  .reg .b64 %fill_at;\n  .reg .pred %fill_more;\n",
                      "  mov.u32 %fill_i, %tid.x;\nFILL:\n  setp.lt.u32 %fill_more, %fill_i, ", window_bytes / 4,
                      ";\n  @!%fill_more bra FILLED;\n", DataWordPtx("%fill_i", pattern, stream, "%fill_word"),
                      "  mul.wide.u32 %fill_at, %fill_i, 4;\n  add.u64 %fill_at, ", window, ", %fill_at;\n",
                      "  st.u32 [%fill_at], %fill_word;\n  add.u32 %fill_i, %fill_i, ", threads,
                      ";\n  bra FILL;\nFILLED:\n  }\n");
}

}  // namespace matload
