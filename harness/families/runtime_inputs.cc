#include "harness/families/runtime_inputs.h"

#include <algorithm>

#include "reference/run_geometry.h"

namespace matload {

std::vector<std::uint64_t> PaddedRows(const RuntimeInputs& runtime) {
  std::vector<std::uint64_t> rows = runtime.rows;
  rows.resize(std::max(rows.size(), kMaxRowEntries));
  for (size_t lane = runtime.rows.size(); lane < kMaxRowEntries; ++lane) rows[lane] = lane * kLaneRowBytes;
  return rows;
}

}  // namespace matload
