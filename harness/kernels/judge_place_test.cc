#include "harness/kernels/judge_place.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(JudgePlaceTest, EachNameReadsBackAndOthersAreRefused) {
  for (JudgePlace place : {JudgePlace::kHost, JudgePlace::kGpu}) {
    EXPECT_EQ(*ParseJudgePlace(JudgePlaceName(place)), place);
  }
  EXPECT_EQ(JudgePlaceName(JudgePlace::kGpu), "gpu");
  EXPECT_EQ(ParseJudgePlace("device").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseJudgePlace("").status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
