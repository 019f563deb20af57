#include "reference/load_plan.h"

#include "reference/outcome.h"

namespace matload {

std::vector<std::uint32_t> PlannedWords(const LoadPlan& plan, absl::FunctionRef<std::uint64_t(int line)> line_offset,
                                        absl::FunctionRef<std::uint8_t(std::uint64_t offset)> byte_at) {
  std::vector<std::uint32_t> words(static_cast<size_t>(kWarpLanes) * plan.words_per_lane);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < plan.words_per_lane; ++word) {
      std::uint32_t value = 0;
      for (int byte = 0; byte < 4; ++byte) {
        const PlannedByte& source = plan.At(lane, word, byte);
        value |= static_cast<std::uint32_t>(byte_at(line_offset(source.line) + source.byte)) << (8 * byte);
      }
      words[lane * plan.words_per_lane + word] = value;
    }
  }
  return words;
}

namespace {

// TakesChunksWhole says whether every aligned `chunk`-byte run of `plan`'s
// destination bytes is one line's bytes in order, from a multiple of `chunk`.
bool TakesChunksWhole(const LoadPlan& plan, int chunk) {
  for (size_t first = 0; first < plan.bytes.size(); first += chunk) {
    const PlannedByte& head = plan.bytes[first];
    if (head.byte % chunk != 0) return false;
    for (int i = 1; i < chunk; ++i) {
      const PlannedByte& next = plan.bytes[first + i];
      if (next.line != head.line || next.byte != head.byte + i) return false;
    }
  }
  return true;
}

}  // namespace

int PlanChunkBytes(const LoadPlan& plan) {
  for (int chunk : {4, 2}) {
    if (TakesChunksWhole(plan, chunk)) return chunk;
  }
  return 1;
}

bool PlanNeighbourLanesSplitPairs(const LoadPlan& plan) {
  if (PlanChunkBytes(plan) != 4) return false;
  for (int lane = 0; lane < kWarpLanes; lane += 2) {
    for (int word = 0; word < plan.words_per_lane; ++word) {
      const PlannedByte& low = plan.At(lane, word, 0);
      const PlannedByte& high = plan.At(lane + 1, word, 0);
      if (low.byte % 8 != 0 || high.line != low.line || high.byte != low.byte + 4) return false;
    }
  }
  return true;
}

}  // namespace matload
