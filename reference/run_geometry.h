// Run-time geometry: the memory the harness's kernels give each kind of
// run-time operand, so that whatever draws operands (the family programs,
// the fuzzers' mutator and invariants) draws them inside it without reading
// a family's or a kernel's header: per-lane rows (ldmatrix's), a warp's
// pointer (wmma.load's) and Tensor Memory columns (tcgen05.ld's).
#ifndef MATLOAD_REFERENCE_RUN_GEOMETRY_H_
#define MATLOAD_REFERENCE_RUN_GEOMETRY_H_

namespace matload {

// kLaneRowBytes is the size of the row a per-lane address points at:
// ldmatrix's 8 x 16-bit, 16 x 8-bit or packed 6/4-bit rows (PTX 9.0
// 9.7.14.5.15).
inline constexpr int kLaneRowBytes = 16;

// kLdmatrixWindowBytes is the shared window every ldmatrix row address
// points into.
inline constexpr int kLdmatrixWindowBytes = 4096;

// kWmmaWindowBytes is the window, shared or global, wmma.load's p points
// into.
inline constexpr int kWmmaWindowBytes = 16384;

// kTmemLanes and kTmemColumns are the size of one CTA's Tensor Memory on
// sm_100a/sm_100f: 128 lanes of 512 32-bit columns (PTX 9.0 9.7.16.1).
inline constexpr int kTmemLanes = 128;
inline constexpr int kTmemColumns = 512;

}  // namespace matload

#endif  // MATLOAD_REFERENCE_RUN_GEOMETRY_H_
