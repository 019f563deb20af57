// WordPicture: a mismatching block drawn as a lane x word grid, one cell a
// register word coloured by what it holds (WordOrigins): the model's word,
// another slot's (moved), nothing (never stored) or a value the model gives
// no slot. A lane swap shows as a striped grid, a skipped register as one
// grey column, a second before the numbers are read.
#ifndef MATLOAD_HARNESS_REPORT_WORD_PICTURE_H_
#define MATLOAD_HARNESS_REPORT_WORD_PICTURE_H_

#include <string>

#include "harness/report/word_origins.h"

namespace matload {

// WordPictureSvg is `map` as inline SVG (no script, no external reference),
// lanes down and words across, each cell titled with what it holds.
std::string WordPictureSvg(const WordMap& map);

// WordPictureLegendHtml is the colour key every picture shares.
std::string WordPictureLegendHtml();

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_WORD_PICTURE_H_
