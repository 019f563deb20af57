#include "harness/report/word_picture.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace matload {
namespace {

// Look is how one WordLook is drawn and named.
struct Look {
  const char* fill;
  const char* name;
};

Look LookOf(WordLook look) {
  switch (look) {
    case WordLook::kRight: return {"#cfe8c9", "the model's word"};
    case WordLook::kMoved: return {"#f5b74e", "moved: another slot's word"};
    case WordLook::kPoison: return {"#9e9e9e", "never stored"};
    case WordLook::kWrong: return {"#d7301f", "a value the model gives no slot"};
  }
  return {"#ffffff", "?"};
}

// CellTitle says what slot (lane, word) holds.
std::string CellTitle(const WordMap& map, int lane, int word) {
  const WordOrigin& origin = map.At(lane, word);
  std::string title = absl::StrCat("lane ", lane, ", word ", word, ": ", LookOf(origin.look).name);
  if (origin.look == WordLook::kMoved) absl::StrAppend(&title, " (lane ", origin.lane, ", word ", origin.word, ")");
  return title;
}

}  // namespace

std::string WordPictureSvg(const WordMap& map) {
  const int words = map.words_per_lane;
  const int cell = words > 32 ? 6 : 12;  // tcgen05's widest forms keep to a page's width
  const int left = 28, top = 16;
  const int width = left + words * cell + 1, height = top + kWarpLanes * cell + 1;
  std::string svg = absl::StrFormat(
      "<svg class=\"word-picture\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
      "aria-label=\"lanes down, register words across\"><g font-size=\"9\" font-family=\"sans-serif\">",
      width, height);
  const int word_step = words > 16 ? 8 : words > 8 ? 2 : 1;  // labels that do not overlap
  for (int word = 0; word < words; word += word_step) {
    absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"%d\">%d</text>", left + word * cell + 2, top - 4, word);
  }
  for (int lane = 0; lane < kWarpLanes; lane += 4) {
    absl::StrAppendFormat(&svg, "<text x=\"0\" y=\"%d\">L%d</text>", top + lane * cell + cell - 2, lane);
  }
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < words; ++word) {
      absl::StrAppendFormat(&svg,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\">"
                            "<title>%s</title></rect>",
                            left + word * cell, top + lane * cell, cell, cell, LookOf(map.At(lane, word).look).fill,
                            CellTitle(map, lane, word));
    }
  }
  return svg + "</g></svg>";
}

std::string WordPictureLegendHtml() {
  std::string html = "<p class=\"word-picture-legend\">";
  for (WordLook look : {WordLook::kRight, WordLook::kMoved, WordLook::kPoison, WordLook::kWrong}) {
    absl::StrAppendFormat(&html,
                          "<span><svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"%s\"/></svg> "
                          "%s</span> ",
                          LookOf(look).fill, LookOf(look).name);
  }
  return html + "</p>";
}

}  // namespace matload
