// Kernel text: the frame every test kernel shares, so that one compiled
// kernel serves many variants of one form in one launch.
//
//   .entry NAME(.param .u64 records, .param .u64 scratch, .param .u64 out)
//
// Block b runs variant b with one warp. Its record sits at records +
// b * record_bytes: a 16-byte header (the data stream .u64 at 0, the
// DataPattern .u32 at 8, the placement .u32 at 12), then the family's
// operands from byte 16. Its window is the CTA's .shared window when the
// placement is DataPlacement::kShared, else its slice of scratch (global memory,
// scratch + b * window_bytes); the warp fills it with the pattern first.
// Its output is out + b * output_bytes: every destination register of every
// lane, lane-major, as the registers sit in memory.
#ifndef MATLOAD_HARNESS_KERNELS_KERNEL_TEXT_H_
#define MATLOAD_HARNESS_KERNELS_KERNEL_TEXT_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/kernels/data_pattern.h"
#include "harness/kernels/planted_bug.h"
#include "reference/legality.h"

namespace matload {

// kRecordHeaderBytes is the size of a record's header; operands follow it.
inline constexpr int kRecordHeaderBytes = 16;

// DataPlacement is where a variant's window sits.
enum class DataPlacement : std::uint32_t { kGlobal = 0, kShared = 1 };

// KernelFrame is the per-block geometry of one kernel.
struct KernelFrame {
  int record_bytes = kRecordHeaderBytes;
  int window_bytes = 0;          // a multiple of 128; 0 for none (tcgen05.ld reads Tensor Memory)
  int output_bytes = 0;          // 32 lanes x the destination registers
  bool has_shared_window = true;  // whether the kernel declares the .shared window
  // judged_on_device: the kernel judges its block against the model's plan
  // and writes a verdict word (device_judge.h); its output holds the
  // registers of the blocks that must be judged on the host.
  bool judged_on_device = false;
};

// LaunchOutputBytes is how much one launch of `blocks` blocks writes: every
// block's registers, then, for a kernel judged on the device, one verdict
// word per block.
inline size_t LaunchOutputBytes(const KernelFrame& frame, size_t blocks) {
  return blocks * frame.output_bytes + (frame.judged_on_device ? blocks * 4 : 0);
}

// KernelPrologue opens the kernel `entry` for `instruction`'s target and PTX
// version, after `module_scope` (declarations the kernel reads, such as a
// device judge's table), and fills the window, if it has one. It leaves,
// for the family's code:
//   %lane and %block (.b32), %record and %out (.b64 global addresses of this
//   block's record and output), %window (.b64, the window's generic
//   address), %pattern (.b32) and %stream (.b64), and with a shared window,
//   %in_shared (.pred, the placement is shared); for a kernel judged on the
//   device, %verdict (.b64, the global address of this block's verdict word).
std::string KernelPrologue(const CheckedInstruction& instruction, absl::string_view entry, const KernelFrame& frame,
                           absl::string_view module_scope = "");

// StoreRegistersPtx stores the destination registers %v0.. (`registers` of
// `register_bits` each) of this lane to its slot of the block output at the
// .u64 register `block_output` (lane-major), with `bug` planted when it is
// one of those planted where registers are stored (wrong lane, register
// order, skipped store).
std::string StoreRegistersPtx(int registers, int register_bits, PlantedBug bug, absl::string_view block_output);

// StoreRegistersAndReturn stores the destination registers %v0.. (`registers`
// of `register_bits` each) of this lane to its slot of %out, with `bug`
// planted when it is one of the kernel's (wrong lane, register order,
// skipped store), and closes the kernel.
std::string StoreRegistersAndReturn(int registers, int register_bits, PlantedBug bug);

// WriteRecordHeader writes the 16-byte header of one block's record into
// `header` (exactly kRecordHeaderBytes).
void WriteRecordHeader(std::uint64_t stream, DataPattern pattern, DataPlacement placement,
                       absl::Span<std::uint8_t> header);

// StoreLittleEndian writes the low bytes of `value` into `bytes`, one per
// byte of the span, least significant first, as the kernel loads them;
// bytes past the eighth are zero. Inline: records are written per variant.
inline void StoreLittleEndian(std::uint64_t value, absl::Span<std::uint8_t> bytes) {
  static_assert(std::endian::native == std::endian::little, "records are little-endian");
  const size_t stored = std::min<size_t>(bytes.size(), sizeof(value));
  std::memcpy(bytes.data(), &value, stored);
  std::fill(bytes.begin() + static_cast<long>(stored), bytes.end(), 0);
}

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_KERNEL_TEXT_H_
