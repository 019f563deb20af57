// LoadPlan: the model's prediction of one matrix-load form, written as data
// a GPU can follow without the model: for every byte of every lane's
// destination registers, the memory line it comes from and its byte within
// that line. A GPU kernel that knows how the data were made (the data
// pattern, harness/kernels/data_pattern.h) then computes each expected
// register from the plan and compares it with what the instruction loaded,
// so that it need not send the registers back to be judged
// (docs/gpu-judge.md). The plan is derived from the model's own compiled
// layout (LdmatrixLayout, WmmaFragment), never written by hand, and tests
// hold it to the model's predictions for every form.
#ifndef MATLOAD_REFERENCE_LOAD_PLAN_H_
#define MATLOAD_REFERENCE_LOAD_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"

namespace matload {

// PlanLines says where a plan's lines start.
enum class PlanLines {
  // Line i starts at the address lane i gives (ldmatrix's rows).
  kLaneAddresses,
  // Line i starts i strides past the warp's one address p (wmma.load's rows
  // or columns): i * stride * line_stride_bits / 8 bytes.
  kStrided,
};

// PlannedByte is where one destination byte comes from: byte `byte` of
// line `line`.
struct PlannedByte {
  std::uint16_t line = 0;
  std::uint16_t byte = 0;
  friend bool operator==(const PlannedByte&, const PlannedByte&) = default;
};

// LoadPlan is a form's plan. Destination bytes are numbered as a kernel
// stores them (harness/kernels/kernel_text.h): lane after lane, each lane's
// registers in order, each register's bytes little-endian.
struct LoadPlan {
  PlanLines lines = PlanLines::kLaneAddresses;
  int line_stride_bits = 0;        // kStrided: the bits one stride unit (an element) spans
  int words_per_lane = 0;          // 32-bit words of one lane's destination registers
  std::vector<PlannedByte> bytes;  // 32 * words_per_lane * 4 of them

  // At is the source of byte `byte` (0..3) of word `word` of `lane`.
  const PlannedByte& At(int lane, int word, int byte) const { return bytes[(lane * words_per_lane + word) * 4 + byte]; }
};

// PlannedWords follows `plan`: each lane's destination words, lane after
// lane, with `line_offset(i)` where line i starts and `byte_at(offset)` the
// byte there. It is what a GPU kernel that follows the plan computes, for
// tests to hold against the model.
std::vector<std::uint32_t> PlannedWords(const LoadPlan& plan, absl::FunctionRef<std::uint64_t(int line)> line_offset,
                                        absl::FunctionRef<std::uint8_t(std::uint64_t offset)> byte_at);

// PlanChunkBytes is the widest run of destination bytes, 4, 2 or 1, that the
// plan takes whole from memory throughout: for every lane and word, each
// aligned chunk of that many bytes is that many consecutive bytes of one
// line, from a byte offset that is a multiple of the chunk. A kernel that
// follows the plan then computes one data word per chunk, not per byte
// (device_sweep.h): 4 for ldmatrix without .trans, 2 for .trans.b16.
int PlanChunkBytes(const LoadPlan& plan);

// PlanNeighbourLanesSplitPairs says whether, for every word of every even
// lane L, lanes L and L + 1 take that word whole from the two halves of one
// aligned 8-byte run of one line: L's from a byte that is a multiple of 8,
// L + 1's from 4 bytes on. Where lines start at multiples of 8, the two
// lanes' words are then the halves of one 64-bit word of the window, which
// a kernel computes once for both (device_sweep.h): so it is for ldmatrix
// without .trans and for the row-major 16-bit wmma.load fragments.
bool PlanNeighbourLanesSplitPairs(const LoadPlan& plan);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_LOAD_PLAN_H_
