// TestProgram: everything the harness needs to run one checked form on a GPU
// and judge it: the kernel, the variants (run-time inputs) it serves in one
// launch, each variant's record, and the reference model's prediction.
//
// A variant replays from (form, seed, variant index) alone: its data come
// from DataStream(seed, index) on both sides (or the window's stream it
// shares, WindowStream), and its operands from SplitMix64 draws keyed by
// DataStream(seed, index). Both are SplitMix64, fixed by definition.
#ifndef MATLOAD_HARNESS_FAMILIES_TEST_PROGRAM_H_
#define MATLOAD_HARNESS_FAMILIES_TEST_PROGRAM_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/kernels/data_pattern.h"
#include "harness/kernels/kernel_text.h"
#include "harness/kernels/planted_bug.h"
#include "harness/platform/split_mix64.h"
#include "reference/legality.h"
#include "reference/load_plan.h"
#include "reference/outcome.h"

namespace matload {

// VariantOperands are a variant's run-time operands, by role (OperandRole,
// reference/family_spec.h): one struct for every family, as RuntimeInputs
// (runtime_inputs.h) is for the fuzzers. A family uses the roles its
// operands have and leaves the others zero.
struct VariantOperands {
  // Each lane's own address, a byte offset into the window: ldmatrix's rows.
  std::array<std::uint64_t, kWarpLanes> lane_addresses{};
  // The warp's one address: a byte offset into the window (wmma.load's p),
  // or a Tensor Memory column relative to warp 0's allocation (tcgen05.ld's
  // taddr).
  std::uint64_t address = 0;
  // The stride in elements (wmma.load): the form's default where it writes
  // no stride operand.
  std::uint32_t stride = 0;
  friend bool operator==(const VariantOperands&, const VariantOperands&) = default;
};

// Variant is one set of run-time inputs for one form.
struct Variant {
  int index = 0;     // with the seed, the replay key
  // What the generator meant: "scattered-rows", "shared-wide-stride", ...
  // A name with static storage, so that making a variant never allocates.
  absl::string_view kind;
  DataPattern pattern = DataPattern::kRandom;
  // The data's stream: DataStream(seed, index), or for a family whose
  // variants share windows (ldmatrix, wmma.load), WindowStream(seed, index).
  std::uint64_t stream = 0;
  DataPlacement placement = DataPlacement::kShared;
  VariantOperands operands;
};

// ProgramOptions choose how a form is built into a kernel.
struct ProgramOptions {
  int shared_address_bits = 64;  // wmma forms naming .shared: 32 or 64
  PlantedBug bug = PlantedBug::kNone;
  // judge_on_device: where the form has a plan (Plan), its kernel judges
  // each block itself (harness/kernels/device_judge.h) and frame() says
  // so; elsewhere the host judges every block, as without it. A bug
  // planted where the kernel stores its registers comes after the device
  // judged them (PlantedWhereRegistersAreStored), and one planted in the
  // judge needs it (PlantedInTheDeviceJudge: kInvalidArgument without).
  bool judge_on_device = false;
};

// Opcode spells a form's qualifiers canonically, without operands:
// "ldmatrix.sync.aligned.m8n8.x4.shared.b16".
std::string Opcode(const CheckedInstruction& instruction);

// TestProgram is one form's kernel and model.
class TestProgram {
 public:
  // For builds the program of a legal form. A form the model cannot predict
  // (no known wmma layout on the target) is kNotFound; a planted bug the
  // family cannot carry is kInvalidArgument.
  static absl::StatusOr<std::unique_ptr<TestProgram>> For(const CheckedInstruction& instruction,
                                                          const ProgramOptions& options);
  // ForOpcode builds the program of the legal form that `opcode` spells
  // (as Opcode does, "ldmatrix.sync.aligned.m8n8.x4.shared.b16") on
  // `target` at `ptx`, so benchmarks and users can name forms as text. No
  // legal form spelt so is kNotFound.
  static absl::StatusOr<std::unique_ptr<TestProgram>> ForOpcode(absl::string_view opcode, Target target,
                                                                PtxVersion ptx, const ProgramOptions& options);
  virtual ~TestProgram() = default;

  const CheckedInstruction& instruction() const { return instruction_; }
  const ProgramOptions& options() const { return options_; }
  const KernelFrame& frame() const { return frame_; }
  // opcode is Opcode(instruction()), spelt once: fault case texts name it
  // for every variant.
  const std::string& opcode() const { return opcode_; }
  const std::string& kernel() const { return kernel_; }
  const std::string& entry() const { return entry_; }
  // Label names the program in reports: the opcode, plus the shared address
  // width where it was chosen ("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 [32-bit address]").
  std::string Label() const;

  // MakeVariant generates variant `index` of `seed`: a defined case the
  // model predicts, or with `undefined`, for a share of the indices, a case
  // it calls undefined, run only to record what the GPU does. Variant 0 is
  // the tagged-data, default-operand case. A Variant owns no heap memory,
  // and for ldmatrix and wmma.load making one allocates nothing, so that
  // host threads can fill a launch's batch in place (tcgen05.ld's check of
  // each draw runs the model, which does allocate).
  virtual Variant MakeVariant(std::uint64_t seed, int index, bool undefined) const = 0;
  // Variants is variants 0..count-1 of `seed` (MakeVariant).
  std::vector<Variant> Variants(int count, std::uint64_t seed, bool undefined) const;
  // WriteRecord writes the variant's record for the kernel into `record`,
  // which holds exactly frame().record_bytes bytes.
  void WriteRecord(const Variant& variant, absl::Span<std::uint8_t> record) const;
  // Record is the variant's record, as a new buffer.
  std::vector<std::uint8_t> Record(const Variant& variant) const;
  // Expect is the model's prediction for the variant. With the transposed
  // planted bug it is, on purpose, the transposed form's prediction.
  virtual Outcome Expect(const Variant& variant) const = 0;
  // Plan is the plan the model's prediction follows (reference/load_plan.h),
  // so that a GPU can judge the blocks itself (docs/gpu-judge.md): the
  // expected form's, as Expect predicts it. nullopt where the family or the
  // form has none, and the host judges every block.
  virtual std::optional<LoadPlan> Plan() const { return std::nullopt; }
  // SweepKernel is the form's sweep kernel (harness/kernels/device_sweep.h),
  // named SweepEntry(entry()): it draws on the device the variants
  // MakeVariant(seed, i, false) makes for i from 1, and judges each against
  // Plan(), whose line L starts at lane L's operand word
  // (PlannedLineOffset). nullopt where the options do not ask the device
  // to judge, or the family or the form has no sweep.
  virtual std::optional<std::string> SweepKernel() const { return std::nullopt; }
  // WordSource says, in element terms, where 32-bit word `word` of `lane`'s
  // registers comes from: "A(3,5) A(3,6)", "m1 (2,8..11)".
  virtual std::string WordSource(int lane, int word) const = 0;
  // FaultCaseText is the case text the discrepancy registry matches a fault
  // of the variant against (discrepancy_registry.h, kDeviceFaults):
  // the opcode, then the variant's addressing ("; p-mod16=8;
  // row-pitch-bytes=24; row-pitch-mod16=8" for wmma.load).
  virtual std::string FaultCaseText(const Variant& variant) const = 0;
  // FaultClassTexts are the fault case texts of the variants a sweep
  // draws (MakeVariant(seed, i, false) for i from 1), one per fault class:
  // a few dozen at most (kSweepFaultClasses, device_sweep.h), so that the
  // registry is asked once per class and the sweep kernel skips the
  // classes it predicts to fault. Empty for a program without a sweep.
  virtual std::vector<std::string> FaultClassTexts() const { return {}; }
  // FaultClassOf is the fault class of such a variant, as the sweep kernel
  // computes it: its FaultCaseText is FaultClassTexts()[FaultClassOf]. A
  // program without a sweep is never asked.
  virtual int FaultClassOf(const Variant& /*variant*/) const { return 0; }

 protected:
  TestProgram(const CheckedInstruction& instruction, const ProgramOptions& options, KernelFrame frame,
              std::string kernel, std::string entry)
      : instruction_(instruction), options_(options), frame_(frame), kernel_(std::move(kernel)),
        entry_(std::move(entry)), opcode_(Opcode(instruction)) {}
  // WriteOperands writes the family's operands: the record after its
  // header, frame().record_bytes - kRecordHeaderBytes bytes.
  virtual void WriteOperands(const Variant& variant, absl::Span<std::uint8_t> operands) const = 0;

 private:
  CheckedInstruction instruction_;
  ProgramOptions options_;
  KernelFrame frame_;
  std::string kernel_;
  std::string entry_;
  std::string opcode_;
};

// PlannedLineOffset is where line `line` of `plan` starts for a variant
// with `operands`, in bytes from the window's start: lane `line`'s address,
// or `line` strides past the warp's address.
std::uint64_t PlannedLineOffset(const LoadPlan& plan, const VariantOperands& operands, int line);

// KeyDraw is draw `k` of a variant whose key is `key` (DataStream(seed,
// index)): output k of SplitMix64 seeded with the key,
// SplitMix64Output(key + (k + 1) gamma). Each draw depends on the key and
// k alone, so a GPU makes any of them at once (KeyDrawPtx,
// harness/kernels/device_sweep.h): the draws of a family whose variants
// are swept.
inline std::uint64_t KeyDraw(std::uint64_t key, std::uint64_t k) {
  return SplitMix64Output(key + (k + 1) * kSplitMix64Gamma);
}

// ScaledDraw is a number in [0, bound) made from the low word of `draw`:
// (low * bound) >> 32, one multiplication on a GPU too.
inline std::uint32_t ScaledDraw(std::uint64_t draw, std::uint32_t bound) {
  return static_cast<std::uint32_t>((std::uint64_t{static_cast<std::uint32_t>(draw)} * bound) >> 32);
}

// OperandRandom is the generator of variant operands for data stream
// `stream`. It starts from the stream's own mix, so its draws are not the
// data words of the stream (DataWord).
SplitMix64 OperandRandom(std::uint64_t stream);


}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_TEST_PROGRAM_H_
