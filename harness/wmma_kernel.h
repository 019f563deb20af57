// WmmaKernel: the PTX kernel that runs one checked wmma.load form once, in
// one warp, for the GPU half of the differential.
#ifndef MATLOAD_HARNESS_WMMA_KERNEL_H_
#define MATLOAD_HARNESS_WMMA_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference/family_spec.h"
#include "reference/legality.h"

namespace matload {

// kWmmaEntry is the kernel's name.
inline constexpr char kWmmaEntry[] = "matload_wmma_load";

// WmmaPlacement says where a kernel puts the matrix and how it names it.
struct WmmaPlacement {
  StateSpace data_space = StateSpace::kGlobal;  // the window the data sits in
  int shared_window_bytes = 0;                  // the .shared window, when data_space is kShared
  int shared_address_bits = 32;                 // the register width of a .shared address
};

// WmmaKernel writes a module whose kernel takes (data, args, out). args
// holds a .u64 byte offset and a .u32 stride. The data sit in global memory
// or, copied first, in a shared window; p is that window's start plus the
// offset, as a generic address when the form names no state space, else in
// the form's space. The kernel executes the form, with the stride operand
// from args where the form has one, and stores every destination register
// of every lane to out[(lane * registers + register) * register bytes].
std::string WmmaKernel(const CheckedInstruction& instruction, const WmmaPlacement& placement);

// WmmaKernelArgs packs the args buffer.
std::vector<std::uint8_t> WmmaKernelArgs(std::uint64_t offset, std::uint32_t stride);

}  // namespace matload

#endif  // MATLOAD_HARNESS_WMMA_KERNEL_H_
