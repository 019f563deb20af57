// LdmatrixKernel: the PTX kernel that runs one checked ldmatrix form once,
// in one warp, for the GPU half of the differential.
#ifndef MATLOAD_HARNESS_LDMATRIX_KERNEL_H_
#define MATLOAD_HARNESS_LDMATRIX_KERNEL_H_

#include <string>

#include "reference/legality.h"

namespace matload {

// kLdmatrixEntry is the kernel's name.
inline constexpr char kLdmatrixEntry[] = "matload_ldmatrix";

// LdmatrixKernel writes a module whose kernel takes (data, row_offsets, out):
// it copies `window_bytes` bytes of `data` into a shared window, gives lane i
// the row address window + row_offsets[i] (64-bit offsets; through a generic
// pointer when the form names no state space), executes the instruction's
// qualifiers with registers of its own, and stores every destination
// register of every lane to out[(lane * registers + register) * 4].
std::string LdmatrixKernel(const CheckedInstruction& instruction, int window_bytes);

}  // namespace matload

#endif  // MATLOAD_HARNESS_LDMATRIX_KERNEL_H_
