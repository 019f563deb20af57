// Device judging: a test kernel that judges its own block against the
// model's plan (reference/load_plan.h), so that only the blocks the host
// must see cross back to it (docs/gpu-judge.md). After the instruction
// under test, each lane computes every destination word the plan predicts
// straight from the data pattern (DataWordPtx: no memory is read for it),
// compares it with the word the instruction loaded, and the warp votes.
// Lane 0 writes the block's verdict word to
//
//   .entry NAME(.param .u64 records, .param .u64 scratch, .param .u64 out, .param .u64 verdicts)
//
// at verdicts + 4 * b: the verdict, and the SM that ran the block (%smid),
// so that a fleet sees which SM of which GPU disagreed (VerdictWord). And the block stores its registers as every
// kernel does only when it disagrees, or when it is sampled: every block whose index is a multiple of kSampleEvery,
// block 0 of each launch among them. The host judges those in full with the model and holds the verdict to it, so that
// the device's comparison is itself checked.
#ifndef MATLOAD_HARNESS_KERNELS_DEVICE_JUDGE_H_
#define MATLOAD_HARNESS_KERNELS_DEVICE_JUDGE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "harness/kernels/planted_bug.h"
#include "reference/load_plan.h"

namespace matload {

// kSampleEvery says which blocks are sampled: one in this many.
inline constexpr std::uint32_t kSampleEvery = 4096;

// DeviceVerdict is what a device-judged block says of itself. A verdict
// word still holding the launch's poison (0xA5A5A5A5) says the block never
// got as far as judging.
enum class DeviceVerdict : std::uint32_t {
  kAgree = 1,     // every word the plan predicts was loaded
  kDisagree = 2,  // some lane loaded another word: the registers follow
};

// VerdictWord is a verdict word read back: the verdict in its low byte,
// the SM that ran the block above it.
struct VerdictWord {
  std::optional<DeviceVerdict> verdict;  // none: the word holds the poison, the block never judged
  std::uint32_t sm = 0;                  // meaningful where `verdict` is set
};

// ReadVerdictWord reads a verdict word as the kernel writes it.
VerdictWord ReadVerdictWord(std::uint32_t word);

// kMostSms bounds the SM numbers counts are kept for: a word naming a
// higher one is no verdict (the poison names SM 0xA5A5A5).
inline constexpr std::uint32_t kMostSms = 1024;

// SampledBlock says whether block `block` of a launch stores its registers
// even though it agrees.
inline bool SampledBlock(size_t block) { return block % kSampleEvery == 0; }

// PlanTablePtx declares the module-scope table the judge of kernel `entry`
// reads: one .u32 per destination byte, in the plan's order,
// line << 16 | byte. It is named after the kernel.
std::string PlanTablePtx(const LoadPlan& plan, absl::string_view entry);

// DeviceJudgePtx is the judge, to follow the instruction under test in a
// kernel whose prologue declared the verdicts parameter
// (KernelPrologue with frame.judged_on_device) and the table
// (PlanTablePtx for the same `entry`). It reads the destination registers %v0.. (`registers`
// of `register_bits`, 32 or 64). `line_offset_ptx` is the family's PTX
// that sets the .u64 %judge_line_at to where line %judge_line (.u32)
// starts, in bytes from the window, as the record gives it. It writes the
// verdict and returns, unless the block must store its registers, which
// the code after it then does. With `bug` kMisjudgingChecker the judge is
// planted wrong (planted_bug.h); every other bug leaves it as it is.
std::string DeviceJudgePtx(const LoadPlan& plan, absl::string_view entry, int registers, int register_bits,
                           absl::string_view line_offset_ptx, PlantedBug bug);

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_DEVICE_JUDGE_H_
