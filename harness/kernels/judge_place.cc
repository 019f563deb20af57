#include "harness/kernels/judge_place.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {

absl::string_view JudgePlaceName(JudgePlace place) { return place == JudgePlace::kGpu ? "gpu" : "host"; }

absl::StatusOr<JudgePlace> ParseJudgePlace(absl::string_view name) {
  for (JudgePlace place : {JudgePlace::kHost, JudgePlace::kGpu}) {
    if (name == JudgePlaceName(place)) return place;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown judge '", name, "' (gpu or host)"));
}

}  // namespace matload
