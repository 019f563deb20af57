#include "harness/kernels/data_pattern.h"

#include <vector>

#include "gtest/gtest.h"

namespace matload {
namespace {

// SplitMix64 seeded with 0 first outputs 0xE220A8397B1DCDAF (the published
// reference sequence); DataStream(0, 0) is exactly that output.
TEST(DataPatternTest, RandomWordsAreSplitMix64Outputs) {
  EXPECT_EQ(DataStream(0, 0), 0xE220A8397B1DCDAFu);
  // A window is the outputs laid end to end, little-endian: word 0 of the
  // stream whose state starts at 0 is that output's low half, word 1 its
  // high half, and words 2 and 3 the halves of the second published output,
  // 0x6E789E6AA1B965F4.
  EXPECT_EQ(DataWord(DataPattern::kRandom, 0, 0), 0x7B1DCDAFu);
  EXPECT_EQ(DataWord(DataPattern::kRandom, 0, 1), 0xE220A839u);
  EXPECT_EQ(DataWord(DataPattern::kRandom, 0, 2), 0xA1B965F4u);
  EXPECT_EQ(DataWord(DataPattern::kRandom, 0, 3), 0x6E789E6Au);
  EXPECT_EQ(RandomPair(0, 1), 0x6E789E6AA1B965F4u);
  std::vector<std::uint8_t> window(16);
  FillWindow(DataPattern::kRandom, 0, absl::MakeSpan(window));
  const std::vector<std::uint8_t> expected = {0xAF, 0xCD, 0x1D, 0x7B, 0x39, 0xA8, 0x20, 0xE2,
                                              0xF4, 0x65, 0xB9, 0xA1, 0x6A, 0x9E, 0x78, 0x6E};
  EXPECT_EQ(window, expected);
}

TEST(DataPatternTest, TaggedWordsHoldTheirOwn16BitIndex) {
  std::vector<std::uint8_t> window(16);
  FillWindow(DataPattern::kTagged, 12345, absl::MakeSpan(window));
  // The 16-bit word at byte 2k holds k, little-endian.
  const std::vector<std::uint8_t> expected = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0};
  EXPECT_EQ(window, expected);
}

// A range fills exactly the words it overlaps, with the whole window's values.
TEST(DataPatternTest, RangesFillTheWordsTheyOverlap) {
  std::vector<std::uint8_t> whole(32), part(32, 0xEE);
  FillWindow(DataPattern::kRandom, 9, absl::MakeSpan(whole));
  FillWindowRange(DataPattern::kRandom, 9, absl::MakeSpan(part), 6, 5);  // bytes 6..10: words 1 and 2
  for (int i = 0; i < 32; ++i) EXPECT_EQ(part[i], i >= 4 && i < 12 ? whole[i] : 0xEE) << i;
  FillWindowRange(DataPattern::kRandom, 9, absl::MakeSpan(part), 30, 100);  // clipped at the end
  EXPECT_EQ(part[28], whole[28]);
}

TEST(DataPatternTest, VariantsGetDistinctStreams) {
  EXPECT_NE(DataStream(7, 0), DataStream(7, 1));
  EXPECT_NE(DataStream(7, 0), DataStream(8, 0));
  EXPECT_NE(DataWord(DataPattern::kRandom, DataStream(7, 0), 3), DataWord(DataPattern::kRandom, DataStream(7, 1), 3));
}

TEST(DataPatternTest, PatternNamesRoundTripAndUnknownNamesAreRejected) {
  EXPECT_EQ(*ParseDataPattern("random"), DataPattern::kRandom);
  EXPECT_EQ(*ParseDataPattern("tagged"), DataPattern::kTagged);
  absl::StatusOr<DataPattern> bad = ParseDataPattern("iota");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("tagged or random"), std::string::npos);
}

}  // namespace
}  // namespace matload
