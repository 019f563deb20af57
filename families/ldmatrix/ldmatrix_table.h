// The ldmatrix family table (PTX ISA 9.0, 9.7.14.5.15; .s8.s4 from PTX ISA 9.4,
// 9.7.16.5.15).
#ifndef MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_TABLE_H_
#define MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_TABLE_H_

#include <cstdint>

#include "reference/family_spec.h"
#include "reference/run_geometry.h"

namespace matload::ldmatrix {

// Axis indices, in the canonical order of the spec's Syntax block.
enum Axis : int { kSync, kAligned, kShape, kNum, kTrans, kStateSpace, kType, kDstFmt, kSrcFmt, kDtype, kCtype };

// Value indices of the multi-valued axes; single-valued axes use value 0.
enum Shape : int { kM8n8, kM16n16, kM8n16 };
enum Num : int { kX1, kX2, kX4 };
enum SharedSpace : int { kShared, kSharedCta };
enum Type : int { kB16, kB8 };
enum SrcFmt : int { kB6x16P32, kB4x16P64 };

// Spec returns the ldmatrix table.
const FamilySpec& Spec();

// RowsPerMatrix is the number of row addresses one matrix of `shape` takes,
// one per lane (8 for .m8n8 and .m8n16, 16 for .m16n16).
int RowsPerMatrix(Shape shape);

// kRowBytes is the size of a source row and its alignment: 8 x 16-bit, 16 x
// 8-bit, or packed 6/4-bit data with its padding (the run geometry's lane
// row); an .s8.s4 row of kS4RowBytes sits at the start of such a slot.
inline constexpr int kRowBytes = kLaneRowBytes;

// kS4RowBytes is what an .s8.s4 row holds: 16 signed 4-bit elements
// (ldmatrix.s4-packing, measured).
inline constexpr int kS4RowBytes = 8;

}  // namespace matload::ldmatrix

namespace matload {

// LdmatrixAddressLanes is the set of lanes whose row addresses ldmatrix
// uses: 8 (or 16 for .m16n16) per matrix from lane 0 up.
std::uint32_t LdmatrixAddressLanes(const QualifierSet& qualifiers);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_TABLE_H_
