// Device sweeps: a persistent kernel that draws a form's defined variants
// on the GPU, runs them and judges each against the model's plan
// (reference/load_plan.h), so that neither a variant's record nor its
// registers cross to or from the host (docs/gpu-judge.md, "Sweeps"). It is
// the device judge (device_judge.h) without the per-variant costs: each
// block fills its windows (shared, global or both, as the family asks)
// once for kVariantsPerWindow variants that share them (WindowStream), and
// each warp draws a variant's operands itself
// from the variant's key, DataStream(seed, index), as the family's
// TestProgram::MakeVariant draws them on the host.
//
//   .entry NAME(.param .u64 sweep, .param .u64 scratch, .param .u64 out)
//
// `sweep` is a SweepRequest (WriteSweepRequest): the seed and the variants
// [first, end) to run, how many kept slots `out` has, and the fault
// classes to skip. Blocks of
// kSweepWarps warps take windows in turn (window w serves variants
// 64w..64w+63), and the warps of a block take that window's variants in
// turn. `out` must be zero where the counts lie (the first kSweepSlotsAt
// bytes); the kernel adds to them:
//   bytes 0..7: variants the device judged that agreed with the plan;
//   bytes 8..15: those that disagreed;
//   bytes 16..19: slots claimed (kept variants, including any past the capacity);
//   from kSweepSmCountsAt: per SM, a .u32 of variants judged and one of
//     those that disagreed (kMostSms of them, device_judge.h);
//   from kSweepSkipsAt: per fault class, a .u64 of the variants skipped
//     and the bitwise complement of the first one's index, a .u64 (0 where
//     none was), kSweepFaultClasses of them;
//   from kSweepSlotsAt: kept slots of SweepSlotBytes each.
// A variant whose fault class (TestProgram::FaultClassOf) the request
// skips is drawn and counted, never run: the discrepancy registry predicts
// that it faults, and one fault would end the whole launch.
// A variant is kept when it disagrees, or is sampled: the first of the
// sweep and every one whose index is a multiple of kSampleEvery. Its slot
// holds its index (.u64), its verdict word (device_judge.h's VerdictWord),
// each lane's operand word as the device drew it (where plan line `lane`
// starts: ldmatrix's row, or p plus `lane` strides for wmma.load) and its
// registers, lane-major, as a block's output holds them, so
// that the host re-makes the variant, checks the draw and judges the
// registers with the model itself.
#ifndef MATLOAD_HARNESS_KERNELS_DEVICE_SWEEP_H_
#define MATLOAD_HARNESS_KERNELS_DEVICE_SWEEP_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/kernels/device_judge.h"
#include "harness/kernels/planted_bug.h"
#include "reference/legality.h"
#include "reference/load_plan.h"
#include "reference/outcome.h"

namespace matload {

// kSweepWarps is the warps of one sweep block, sharing its window.
inline constexpr int kSweepWarps = 4;

// kSweepBlocksPerSm sizes a sweep's grid: blocks per SM of the GPU, the
// fastest of 2, 4, 8 and 16 for ldmatrix.x4 on an H200 (grid.log in
// reports/bench/sweep-h200-2026-11-29/).
inline constexpr int kSweepBlocksPerSm = 16;

// kSweepRequestBytes is the size of a SweepRequest as the kernel reads it.
inline constexpr size_t kSweepRequestBytes = 40;

// kSweepFaultClasses bounds a form's fault classes: a request's skipped
// classes are the bits of one .u64.
inline constexpr int kSweepFaultClasses = 64;

// The output's layout (above).
inline constexpr size_t kSweepSmCountsAt = 32;
inline constexpr size_t kSweepSkipsAt = kSweepSmCountsAt + 8 * kMostSms;
inline constexpr size_t kSweepSlotsAt = kSweepSkipsAt + 16 * kSweepFaultClasses;
// kSweepSlotHeaderBytes precede a slot's operand words: index and verdict word.
inline constexpr size_t kSweepSlotHeaderBytes = 16;

// SweepSlotBytes is the size of one kept slot of a form whose block output
// (32 lanes' registers) is `output_bytes`.
inline size_t SweepSlotBytes(size_t output_bytes) { return kSweepSlotHeaderBytes + 4 * kWarpLanes + output_bytes; }

// SweepRequest is what one launch of a sweep runs.
struct SweepRequest {
  std::uint64_t seed = 0;
  std::uint64_t first = 1;  // the first variant: at least 1, since variant 0 is the tagged one
  std::uint64_t end = 1;    // one past the last
  std::uint32_t slots = 0;  // kept slots the output has room for
  // skipped_classes: bit c set skips the variants of fault class c.
  std::uint64_t skipped_classes = 0;
};

// WriteSweepRequest writes `request` as the kernel reads it into `bytes`
// (exactly kSweepRequestBytes).
void WriteSweepRequest(const SweepRequest& request, absl::Span<std::uint8_t> bytes);

// SweepFamilyPtx is a family's part of a sweep kernel.
struct SweepFamilyPtx {
  // The windows the family's loads read: the block's .shared window (its
  // generic address in %window) and its slice of the scratch buffer, global
  // memory (scratch + block * window_bytes, in %global_window). Each is
  // filled with the window's data.
  int window_bytes = 0;
  bool shared_window = true;
  bool global_window = false;
  // The destination: `registers` registers of `register_bits`, 32 or 64.
  int registers = 0;
  int register_bits = 32;
  // draw: PTX that sets the variant's operands from its key %sweep_key and
  // index %sweep_index (.u64 each) and %lane, as the family's MakeVariant
  // draws them, among them this lane's .u32 %operand: the start of plan
  // line %lane, in bytes from the window (PlannedLineOffset), which the
  // host checks the device's draw by; and the variant's fault class, the
  // .u32 %fault_class (TestProgram::FaultClassOf), below
  // kSweepFaultClasses and the same on every lane.
  std::string draw;
  // load: PTX that runs the instruction under test into %v0.., the planted
  // bug, if it is one of the load's, included.
  std::string load;
  // line_start: PTX that sets the .u32 %judge_at to where plan line
  // %judge_line (.u32) starts, in bytes from the window.
  std::string line_start;
  // line_alignment: bytes that every line start of every variant the
  // kernel runs is a multiple of, as the family draws them.
  int line_alignment = 1;
};

// kSplitPairsNote is the PTX comment of a sweep kernel whose neighbouring
// lanes split the window's 64-bit words, each making one SplitMix64 mix for
// two words, where the plan and the line alignment allow it: so tests can
// tell which kernels rely on line starts at multiples of 8.
inline constexpr absl::string_view kSplitPairsNote = "  // neighbouring lanes split 64-bit data words\n";

// SweepEntry is the name of the sweep kernel of a form whose test kernel
// is `kernel_entry`: that name, then "_sweep".
std::string SweepEntry(absl::string_view kernel_entry);

// KeyDrawPtx is a PTX block that sets the .u64 register `output` to
// KeyDraw(key, k) (harness/families/test_program.h) for the .u64 register
// `key` and `k`, a .u32 register or a number.
std::string KeyDrawPtx(absl::string_view key, absl::string_view k, absl::string_view output);

// SweepKernelPtx writes the sweep kernel `entry` of `instruction`, whose
// model's plan is `plan`. `bug` is planted in the judge
// (kMisjudgingChecker) or where the kept registers are stored, where it is
// one of those; the family's load carries the others.
std::string SweepKernelPtx(const CheckedInstruction& instruction, absl::string_view entry, const LoadPlan& plan,
                           const SweepFamilyPtx& family, PlantedBug bug);

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_DEVICE_SWEEP_H_
