#include "harness/report/word_origins.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

// Slot is one word that is not the model's, and where it came from.
struct Slot {
  int lane = 0;
  int word = 0;
  WordOrigin origin;
};

std::vector<Slot> Differing(const WordMap& map) {
  std::vector<Slot> slots;
  for (size_t index = 0; index < map.origins.size(); ++index) {
    if (map.origins[index].look == WordLook::kRight) continue;
    slots.push_back({static_cast<int>(index) / map.words_per_lane, static_cast<int>(index) % map.words_per_lane,
                     map.origins[index]});
  }
  return slots;
}

bool Every(const std::vector<Slot>& slots, const std::function<bool(const Slot&)>& holds) {
  return std::all_of(slots.begin(), slots.end(), holds);
}

// NearestOrigin is the moved origin, among the slots `candidates` whose
// model word slot `index` holds, nearest it: in its own lane, else in its
// own word column at the closest lane, else the first.
WordOrigin NearestOrigin(int words_per_lane, size_t index, const std::vector<size_t>& candidates) {
  const int lane = static_cast<int>(index) / words_per_lane;
  const int word = static_cast<int>(index) % words_per_lane;
  size_t best = candidates.front();
  int best_cost = 1 << 30;
  for (size_t candidate : candidates) {
    const int other_lane = static_cast<int>(candidate) / words_per_lane;
    const int other_word = static_cast<int>(candidate) % words_per_lane;
    const int cost = other_lane == lane ? 0 : other_word == word ? std::abs(other_lane - lane) : kWarpLanes + 1;
    if (cost < best_cost) best = candidate, best_cost = cost;
  }
  return {WordLook::kMoved, static_cast<int>(best) / words_per_lane, static_cast<int>(best) % words_per_lane};
}

// Lanes names the lanes the slots lie in: "every lane", "lane 5" or "lanes 0, 5".
std::string Lanes(const std::vector<Slot>& slots) {
  std::set<int> lanes;
  for (const Slot& slot : slots) lanes.insert(slot.lane);
  if (static_cast<int>(lanes.size()) == kWarpLanes) return "every lane";
  return absl::StrCat(lanes.size() == 1 ? "lane " : "lanes ", absl::StrJoin(lanes, ", "));
}

// LanesHold is Lanes with its verb: "every lane holds", "lanes 0, 5 hold".
std::string LanesHold(const std::vector<Slot>& slots) {
  const std::string lanes = Lanes(slots);
  return absl::StrCat(lanes, absl::StartsWith(lanes, "lanes ") ? " hold" : " holds");
}

// Holds says whether every slot stores the model word of the slot `from`
// relates it to: whatever other slots share that word, the relation holds.
bool Holds(const WordMap& map, const std::vector<Slot>& slots,
           const std::function<std::pair<int, int>(const Slot&)>& from) {
  return Every(slots, [&](const Slot& slot) {
    const auto [lane, word] = from(slot);
    if (lane < 0 || lane >= kWarpLanes || word < 0 || word >= map.words_per_lane) return false;
    return map.actual[static_cast<size_t>(slot.lane) * map.words_per_lane + slot.word] ==
           map.expected[static_cast<size_t>(lane) * map.words_per_lane + word];
  });
}

// MovedRule names the one relation every moved word follows to the slot
// whose model word it holds, or is empty when none does.
std::string MovedRule(const WordMap& map, const std::vector<Slot>& slots) {
  for (int k = 1; k < kWarpLanes; ++k) {
    if (Holds(map, slots, [k](const Slot& s) { return std::pair{s.lane ^ k, s.word}; })) {
      return absl::StrCat(LanesHold(slots), " lane L XOR ", k, "'s words");
    }
  }
  for (int k = 1; k < kWarpLanes; ++k) {
    if (Holds(map, slots, [k](const Slot& s) { return std::pair{(s.lane + k) % kWarpLanes, s.word}; })) {
      return absl::StrCat(LanesHold(slots), " lane L+", k, "'s words (lanes counted mod 32)");
    }
  }
  const int words = map.words_per_lane;
  if (Holds(map, slots, [words](const Slot& s) { return std::pair{s.lane, words - 1 - s.word}; })) {
    return absl::StrCat("the words of ", Lanes(slots), " are in reverse order");
  }
  for (int k = 1 - words; k < words; ++k) {
    if (k != 0 && Holds(map, slots, [k](const Slot& s) { return std::pair{s.lane, s.word + k}; })) {
      return absl::StrCat("in ", Lanes(slots), ", word w holds word w", k > 0 ? "+" : "", k, "'s value");
    }
  }
  return "";
}

// PoisonRule names the words never stored: whole columns, or a count.
std::string PoisonRule(const std::vector<Slot>& slots) {
  std::set<int> words;
  for (const Slot& slot : slots) words.insert(slot.word);
  if (slots.size() == words.size() * kWarpLanes) {
    return absl::StrCat(words.size() == 1 ? "word " : "words ", absl::StrJoin(words, ", "),
                        words.size() == 1 ? " is" : " are", " never stored, in every lane");
  }
  return absl::StrCat(slots.size(), " words are never stored");
}

}  // namespace

WordMap MapWords(const LaneValues& expected, absl::Span<const std::uint8_t> actual) {
  WordMap map{.words_per_lane = expected.words_per_lane, .expected = expected.words};
  absl::flat_hash_map<std::uint32_t, std::vector<size_t>> slots_of;  // a model word -> the slots it is due in
  for (size_t index = 0; index < expected.words.size(); ++index) slots_of[expected.words[index]].push_back(index);
  for (size_t index = 0; index < expected.words.size(); ++index) {
    const std::uint32_t word = OutputWord(actual, index);
    map.actual.push_back(word);
    const auto found = slots_of.find(word);
    if (word == expected.words[index]) {
      map.origins.push_back({WordLook::kRight});
    } else if (found != slots_of.end()) {
      map.origins.push_back(NearestOrigin(map.words_per_lane, index, found->second));
    } else {
      map.origins.push_back({word == kPoisonWord ? WordLook::kPoison : WordLook::kWrong});
    }
  }
  return map;
}

std::string Diagnose(const WordMap& map) {
  const std::vector<Slot> slots = Differing(map);
  if (slots.empty()) return "every word matches the model";
  const std::string count = absl::StrCat(slots.size(), " of ", map.origins.size(), " words differ");
  size_t moved = 0, poison = 0;
  for (const Slot& slot : slots) {
    moved += slot.origin.look == WordLook::kMoved;
    poison += slot.origin.look == WordLook::kPoison;
  }
  if (moved == slots.size()) {
    const std::string rule = MovedRule(map, slots);
    return absl::StrCat(count, ": ", rule.empty() ? "each holds the model's word of another slot" : rule);
  }
  if (poison == slots.size()) return absl::StrCat(count, ": ", PoisonRule(slots));
  return absl::StrCat(count, ": ", moved, " hold the model's word of another slot, ", poison, " are never stored, ",
                      slots.size() - moved - poison, " hold values the model gives no slot");
}

}  // namespace matload
