#include "harness/report/word_origins.h"

#include <functional>

#include "gtest/gtest.h"

namespace matload {
namespace {

constexpr int kWords = 4;

// Model has a distinct word in every slot, as tagged data gives.
LaneValues Model() {
  LaneValues values = LaneValues::Zeroed(kWords);
  for (size_t index = 0; index < values.words.size(); ++index)
    values.words[index] = 0x1000 + static_cast<std::uint32_t>(index);
  return values;
}

// Output stores, in each slot, what `stored(lane, word)` says.
std::vector<std::uint8_t> Output(const std::function<std::uint32_t(int, int)>& stored) {
  std::vector<std::uint8_t> bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < kWords; ++word) {
      const std::uint32_t value = stored(lane, word);
      for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<std::uint8_t>(value >> shift));
    }
  }
  return bytes;
}

std::string DiagnoseOutput(const std::function<std::uint32_t(int, int)>& stored) {
  return Diagnose(MapWords(Model(), Output(stored)));
}

std::uint32_t ModelWord(int lane, int word) { return Model().lane(lane)[word]; }

TEST(WordOriginsTest, ARightBlockSaysSo) { EXPECT_EQ(DiagnoseOutput(ModelWord), "every word matches the model"); }

TEST(WordOriginsTest, NamesALaneSwap) {
  EXPECT_EQ(DiagnoseOutput([](int lane, int word) { return ModelWord(lane ^ 1, word); }),
            "128 of 128 words differ: every lane holds lane L XOR 1's words");
  const WordMap map = MapWords(Model(), Output([](int lane, int word) { return ModelWord(lane ^ 1, word); }));
  EXPECT_EQ(map.At(6, 2), (WordOrigin{WordLook::kMoved, 7, 2}));
}

TEST(WordOriginsTest, NamesALaneShift) {
  EXPECT_EQ(DiagnoseOutput([](int lane, int word) { return ModelWord((lane + 4) % kWarpLanes, word); }),
            "128 of 128 words differ: every lane holds lane L+4's words (lanes counted mod 32)");
}

TEST(WordOriginsTest, NamesReversedWords) {
  EXPECT_EQ(DiagnoseOutput([](int lane, int word) { return ModelWord(lane, kWords - 1 - word); }),
            "128 of 128 words differ: the words of every lane are in reverse order");
}

TEST(WordOriginsTest, NamesAWordNeverStored) {
  EXPECT_EQ(DiagnoseOutput([](int lane, int word) { return word == 3 ? kPoisonWord : ModelWord(lane, word); }),
            "32 of 128 words differ: word 3 is never stored, in every lane");
}

TEST(WordOriginsTest, AShortOutputIsNeverStored) {
  const std::vector<std::uint8_t> half = Output(ModelWord);
  const WordMap map = MapWords(Model(), absl::MakeConstSpan(half).first(half.size() / 2));
  EXPECT_EQ(map.At(31, 0).look, WordLook::kPoison);
  EXPECT_EQ(map.At(0, 0).look, WordLook::kRight);
}

TEST(WordOriginsTest, CountsWhatNoRuleCovers) {
  EXPECT_EQ(DiagnoseOutput([](int lane, int word) {
              if (lane == 0 && word == 0) return ModelWord(9, 2);
              if (lane == 1 && word == 1) return kPoisonWord;
              if (lane == 2 && word == 2) return std::uint32_t{0xdeadbeef};
              return ModelWord(lane, word);
            }),
            "3 of 128 words differ: 1 hold the model's word of another slot, 1 are never stored, 1 hold values the "
            "model gives no slot");
}

TEST(WordOriginsTest, OnlySomeLanesAreNamed) {
  EXPECT_EQ(
      DiagnoseOutput([](int lane, int word) { return lane < 2 ? ModelWord(lane ^ 1, word) : ModelWord(lane, word); }),
      "8 of 128 words differ: lanes 0, 1 hold lane L XOR 1's words");
}

}  // namespace
}  // namespace matload
