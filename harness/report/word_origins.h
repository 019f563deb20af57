// WordOrigins: where each register word of a mismatching block came from,
// and the one line a person reads before the numbers. With tagged data
// every model word names its own place, so a wrong word that equals the
// model's word of another (lane, word) slot says which slot it was meant
// for: "every lane holds lane L XOR 1's words" is a lane swap, "each lane's
// words are in reverse order" a register order bug.
#ifndef MATLOAD_HARNESS_REPORT_WORD_ORIGINS_H_
#define MATLOAD_HARNESS_REPORT_WORD_ORIGINS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "reference/outcome.h"

namespace matload {

// WordLook is what one stored word is against the model.
enum class WordLook : unsigned char {
  kRight,   // the model's word for its slot
  kMoved,   // the model's word for another slot (WordOrigin says which)
  kPoison,  // never stored (kPoisonWord)
  kWrong,   // a value the model gives no slot
};

// WordOrigin is one slot's look and, when moved, the slot whose model word it holds.
struct WordOrigin {
  WordLook look = WordLook::kRight;
  int lane = -1;
  int word = -1;
  friend bool operator==(const WordOrigin&, const WordOrigin&) = default;
};

// WordMap is every slot's model word, stored word and origin, lane-major as
// the kernels store them. A model word several slots share (a wmma
// fragment repeats elements across lanes) gives a moved word the origin
// nearest it: in its own lane, else in its own word column.
struct WordMap {
  int words_per_lane = 0;
  std::vector<std::uint32_t> expected;
  std::vector<std::uint32_t> actual;
  std::vector<WordOrigin> origins;

  // At is slot (lane, word)'s origin.
  const WordOrigin& At(int lane, int word) const { return origins[static_cast<size_t>(lane) * words_per_lane + word]; }
};

// MapWords compares `actual` (the block's output, lane-major little-endian
// words; a short output reads as poison) with the model's `expected`.
WordMap MapWords(const LaneValues& expected, absl::Span<const std::uint8_t> actual);

// Diagnose says in one line what the wrong words have in common: "32 of 32
// words differ: every lane holds lane L XOR 1's words", "... each lane's
// words are in reverse order", "... word 3 is never stored", or, when no
// single rule covers them, how many are moved, never stored and wrong.
std::string Diagnose(const WordMap& map);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_WORD_ORIGINS_H_
