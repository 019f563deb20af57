// WmmaKernel: the PTX kernel that runs one checked wmma.load form, one
// variant per block (harness/kernels/kernel_text.h), for the GPU half of the
// differential.
#ifndef MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_KERNEL_H_
#define MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_KERNEL_H_

#include <string>

#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "reference/legality.h"
#include "reference/run_geometry.h"

namespace matload {

// kWmmaEntry is the kernel's name.
inline constexpr char kWmmaEntry[] = "matload_wmma_load";

// WmmaFrame is the kernel's geometry: a 16 KiB window, shared or global as
// each record says (a form naming .global has no shared window), and a
// record whose operands are p's byte offset into the window (.u64 at 16)
// and the stride in elements (.u32 at 24; the default stride for forms
// without a stride operand).
KernelFrame WmmaFrame(const CheckedInstruction& instruction);

// WmmaKernel writes the kernel: p is the window plus the offset, as a
// generic address when the form names no state space, else in the form's
// space (a .shared address in a register of `shared_address_bits`, 32 or
// 64). The warp executes the form once, with the record's stride where the
// form has a stride operand, and stores every destination register. `bug`
// plants a self-test bug (kNone for none).
std::string WmmaKernel(const CheckedInstruction& instruction, int shared_address_bits, PlantedBug bug);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_WMMA_WMMA_KERNEL_H_
