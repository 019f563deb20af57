// The tcgen05.ld family table (PTX ISA 9.0, 9.7.16.8.3, with Table 49; the
// .spcompress forms of PTX ISA 9.4, 9.7.18.8.3, with Table 60).
#ifndef MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_
#define MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_

#include "reference/family_spec.h"

namespace matload::tcgen05 {

// Axis indices, in the canonical order of the spec's Syntax block. kRedOp is
// .red's .redOp and .spcompress's .rowop: the same spellings in the same
// place, and with .red.spcompress the one qualifier is both (PTX 9.4
// 9.7.18.8.3: "the same .rowop ... also specifies the reduction operator").
enum Axis : int {
  kRed,
  kSpcompress,
  kSync,
  kAligned,
  kShape,
  kNum,
  kPack,
  kRedOp,
  kSpfactor,
  kAbs,
  kNaN,
  kType,
  kIdxsize
};

// Value indices of the multi-valued axes.
enum Shape : int { k16x64b, k16x128b, k16x256b, k32x32b, k16x32bx2 };
enum Num : int { kX1, kX2, kX4, kX8, kX16, kX32, kX64, kX128 };
enum RedOp : int { kMin, kMax };
enum Type : int { kB32, kU32, kS32, kF32 };

// Spec returns the tcgen05.ld table.
const FamilySpec& Spec();

}  // namespace matload::tcgen05

#endif  // MATLOAD_FAMILIES_TCGEN05_TCGEN05_LD_TABLE_H_
