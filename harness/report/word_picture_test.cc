#include "harness/report/word_picture.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(WordPictureTest, OneCellPerRegisterWordTitledWithWhatItHolds) {
  WordMap map{.words_per_lane = 2, .origins = std::vector<WordOrigin>(2 * kWarpLanes)};
  map.origins[1] = {WordLook::kMoved, 3, 0};  // lane 0, word 1 holds lane 3's word 0
  map.origins[2] = {WordLook::kPoison};       // lane 1, word 0
  map.origins[5] = {WordLook::kWrong};        // lane 2, word 1
  const std::string svg = WordPictureSvg(map);
  EXPECT_EQ(Count(svg, "<rect"), 64u);
  EXPECT_THAT(svg, HasSubstr("<title>lane 0, word 1: moved: another slot's word (lane 3, word 0)</title>"));
  EXPECT_THAT(svg, HasSubstr("<title>lane 1, word 0: never stored</title>"));
  EXPECT_THAT(svg, HasSubstr("<title>lane 2, word 1: a value the model gives no slot</title>"));
  EXPECT_EQ(Count(svg, "the model's word</title>"), 61u);
  EXPECT_EQ(svg.rfind("</svg>"), svg.size() - 6);
}

TEST(WordPictureTest, TheLegendNamesEveryLook) {
  const std::string legend = WordPictureLegendHtml();
  for (const char* name : {"the model's word", "moved", "never stored", "no slot"})
    EXPECT_THAT(legend, HasSubstr(name));
}

}  // namespace
}  // namespace matload
