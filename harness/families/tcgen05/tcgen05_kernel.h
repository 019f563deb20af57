// Tcgen05Kernel: the PTX kernel that runs one checked tcgen05.ld form, one
// variant per block (harness/kernels/kernel_text.h). It allocates all of the CTA's
// Tensor Memory, fills warp 0's lane quarter with the data pattern, runs
// the load, and stores every destination register. Only sm_100a, sm_103a
// and sm_110a GPUs can run it; elsewhere it is compile-checked.
#ifndef MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_KERNEL_H_
#define MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_KERNEL_H_

#include <string>

#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "reference/legality.h"

namespace matload {

// kTcgen05Entry is the kernel's name.
inline constexpr char kTcgen05Entry[] = "matload_tcgen05_ld";

// Tcgen05Frame is the kernel's geometry: no memory window, and a record
// whose operand is the load's TMEM address relative to the allocation
// (.u32 at 16: lane << 16 | column). The output holds the destination
// registers, then .red's redval.
KernelFrame Tcgen05Frame(const CheckedInstruction& instruction);

// Tcgen05Kernel writes the kernel:
//  1. tcgen05.alloc of all 512 columns (so the allocation starts at column
//     0), and the permit relinquished;
//  2. lane t of warp 0 writes TMEM lane t, column c, with
//     DataWord(pattern, stream, 512 t + c), 32 columns per tcgen05.st;
//  3. the form, at the allocation's address plus the record's, then
//     tcgen05.wait::ld;
//  4. the registers stored, and the Tensor Memory deallocated.
std::string Tcgen05Kernel(const CheckedInstruction& instruction, PlantedBug bug);

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_TCGEN05_TCGEN05_KERNEL_H_
