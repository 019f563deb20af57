// JudgePlace: where a block's registers are compared with the model's
// prediction. On the GPU, the kernel compares them against the model's plan
// (device_judge.h) and the host re-judges the blocks that disagree and a
// sample; on the host, the model judges every block. docs/gpu-judge.md says
// why the model stays the only oracle either way.
#ifndef MATLOAD_HARNESS_KERNELS_JUDGE_PLACE_H_
#define MATLOAD_HARNESS_KERNELS_JUDGE_PLACE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// JudgePlace names the judge's place.
enum class JudgePlace : unsigned char {
  kHost,  // the model judges every block
  kGpu,   // the kernel judges where the form has a plan; the host re-judges disagreements and a sample
};

// JudgePlaceName spells a place for flags and records: "host", "gpu".
absl::string_view JudgePlaceName(JudgePlace place);

// ParseJudgePlace reads a JudgePlaceName spelling (kInvalidArgument otherwise).
absl::StatusOr<JudgePlace> ParseJudgePlace(absl::string_view name);

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_JUDGE_PLACE_H_
