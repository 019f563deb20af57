#include "harness/families/runtime_inputs.h"

#include <algorithm>

#include "families/ldmatrix/ldmatrix_table.h"

namespace matload {

std::vector<std::uint64_t> PaddedRows(const RuntimeInputs& runtime) {
  std::vector<std::uint64_t> rows = runtime.rows;
  rows.resize(std::max(rows.size(), kMaxRowEntries));
  for (size_t lane = runtime.rows.size(); lane < kMaxRowEntries; ++lane) rows[lane] = lane * ldmatrix::kRowBytes;
  return rows;
}

}  // namespace matload
