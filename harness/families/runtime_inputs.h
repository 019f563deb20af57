// RuntimeInputs: the one model of a case's run-time operands, as the fuzzers
// store them in a case (fuzz/fuzz_case.h) and as each family turns them into
// a variant's operands and back (family_runtime.h).
#ifndef MATLOAD_HARNESS_FAMILIES_RUNTIME_INPUTS_H_
#define MATLOAD_HARNESS_FAMILIES_RUNTIME_INPUTS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "harness/kernels/data_pattern.h"
#include "harness/kernels/kernel_text.h"
#include "reference/outcome.h"

namespace matload {

// RuntimeInputs are a case's run-time operands. They are kept for every
// family, so a mutation that turns an ldmatrix into a wmma.load keeps its
// rows for when it turns back.
struct RuntimeInputs {
  DataPattern pattern = DataPattern::kRandom;
  std::uint64_t stream = 0;  // the data's DataStream key
  DataPlacement placement = DataPlacement::kShared;
  // ldmatrix: byte offsets of each lane's row in the shared window; lanes
  // past the end read contiguous 16-byte rows (lane i at 16*i).
  std::vector<std::uint64_t> rows;
  std::uint64_t offset = 0;             // wmma.load: p's byte offset in the window
  std::optional<std::uint32_t> stride;  // wmma.load: in elements; nullopt is the default
  std::uint32_t column = 0;             // tcgen05.ld: the TMEM column
  friend bool operator==(const RuntimeInputs&, const RuntimeInputs&) = default;
};

// kMaxRowEntries bounds `rows`: one per lane.
inline constexpr size_t kMaxRowEntries = kWarpLanes;

// PaddedRows is every lane's row offset: `rows`, then contiguous rows
// (lane i at i * kLaneRowBytes, run_geometry.h) for the lanes it does not name.
std::vector<std::uint64_t> PaddedRows(const RuntimeInputs& runtime);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_RUNTIME_INPUTS_H_
