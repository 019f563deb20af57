// The tcgen05.ld family table (PTX ISA 9.0, 9.7.16.8.3, with Table 49).
#ifndef MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_
#define MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_

#include "reference/family_spec.h"

namespace matload::tcgen05 {

// Axis indices, in the canonical order of the spec's Syntax block.
enum Axis : int { kRed, kSync, kAligned, kShape, kNum, kPack, kRedOp, kAbs, kNaN, kType };

// Value indices of the multi-valued axes.
enum Shape : int { k16x64b, k16x128b, k16x256b, k32x32b, k16x32bx2 };
enum Num : int { kX1, kX2, kX4, kX8, kX16, kX32, kX64, kX128 };
enum RedOp : int { kMin, kMax };
enum Type : int { kB32, kU32, kS32, kF32 };

// Spec returns the tcgen05.ld table.
const FamilySpec& Spec();

}  // namespace matload::tcgen05

#endif  // MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_
