// Run-time geometry: the memory the harness's kernels give each family's
// variants, so that whatever draws run-time operands (the conform programs,
// the fuzzers' mutator and invariants) draws them inside it without reading
// a kernel header. Tensor Memory's size is the machine's, in
// tcgen05_semantics.h; ldmatrix's row size is the table's, ldmatrix::kRowBytes.
#ifndef MATLOAD_REFERENCE_RUN_GEOMETRY_H_
#define MATLOAD_REFERENCE_RUN_GEOMETRY_H_

namespace matload {

// kLdmatrixWindowBytes is the shared window every ldmatrix row address
// points into.
inline constexpr int kLdmatrixWindowBytes = 4096;

// kWmmaWindowBytes is the window, shared or global, wmma.load's p points
// into.
inline constexpr int kWmmaWindowBytes = 16384;

}  // namespace matload

#endif  // MATLOAD_REFERENCE_RUN_GEOMETRY_H_
