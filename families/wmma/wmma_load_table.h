// The wmma.load family table (PTX ISA 9.0, 9.7.14.4.3, with the fragment
// table of 9.7.14.4.1 and the storage rules of 9.7.14.4.2).
#ifndef MATLOAD_FAMILIES_WMMA_WMMA_LOAD_TABLE_H_
#define MATLOAD_FAMILIES_WMMA_WMMA_LOAD_TABLE_H_

#include <cstdint>

#include "reference/family_spec.h"

namespace matload::wmma {

// Axis indices, in the canonical order of the spec's Syntax block.
enum Axis : int { kMatrix, kSync, kAligned, kLayout, kShape, kStateSpace, kType };

// Value indices of the multi-valued axes.
enum Matrix : int { kA, kB, kC };
enum Layout : int { kRow, kCol };
enum Shape : int { kM16n16k16, kM8n32k16, kM32n8k16, kM16n16k8, kM8n8k4, kM8n8k32, kM8n8k128 };
enum Space : int { kGlobal, kShared, kSharedCta };
enum Type : int { kF16, kF32, kS32, kS8, kU8, kBf16, kTf32, kF64, kS4, kU4, kB1 };

// Spec returns the wmma.load table.
const FamilySpec& Spec();

// Geometry is the M, N and K of a .shape value (".m16n16k8": 16, 16, 8).
struct Geometry {
  int m;
  int n;
  int k;
};
Geometry ShapeGeometry(Shape shape);

// ElementBits is the width of one matrix element of a .type value.
int ElementBits(Type type);

}  // namespace matload::wmma

namespace matload {

// WmmaDefaultStride is the default stride of a wmma.load form, in elements:
// the leading dimension of the matrix as stored (PTX 9.7.14.4.2).
int WmmaDefaultStride(const QualifierSet& qualifiers);

// WmmaFragmentBytes is the per-thread fragment size of a wmma.load form, the
// unit of its alignment rule (PTX 9.7.14.4.2).
int WmmaFragmentBytes(const QualifierSet& qualifiers, const OperandSignature& signature);

// WmmaAlignedStrideAbove is the smallest stride above `stride`, in elements,
// at which every row or column starts fragment-aligned: the next stride a
// generator may use without meeting kMisalignedStride.
std::uint32_t WmmaAlignedStrideAbove(const QualifierSet& qualifiers, const OperandSignature& signature,
                                     std::uint32_t stride);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_WMMA_WMMA_LOAD_TABLE_H_
