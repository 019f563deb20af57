// LdmatrixKernel: the PTX kernel that runs one checked ldmatrix form, one
// variant per block (harness/kernels/kernel_text.h), for the GPU half of the
// differential.
#ifndef MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_KERNEL_H_
#define MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_KERNEL_H_

#include <string>

#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "reference/legality.h"
#include "reference/run_geometry.h"

namespace matload {

// kLdmatrixEntry is the kernel's name.
inline constexpr char kLdmatrixEntry[] = "matload_ldmatrix";

// LdmatrixFrame is the kernel's geometry: a 4 KiB shared window, and a
// record whose operands are 32 .u64 row offsets into it, lane i's at byte
// 16 + 8i.
KernelFrame LdmatrixFrame(const CheckedInstruction& instruction);

// LdmatrixKernel writes the kernel: lane i's row address is the shared
// window plus its row offset (through a generic pointer when the form names
// no state space); the warp executes the form once and stores every
// destination register. `bug` plants a self-test bug (kNone for none).
std::string LdmatrixKernel(const CheckedInstruction& instruction, PlantedBug bug);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_LDMATRIX_LDMATRIX_KERNEL_H_
