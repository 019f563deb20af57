#include "harness/runs/judged_nothing.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(JudgedNothingTest, AFilterThatTookNothingIsAnInvalidArgumentNamingTheIdShape) {
  const absl::Status conform = JudgedNothing("conform", true);
  EXPECT_EQ(conform.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(conform.message(), HasSubstr("take no case of this conform run"));
  EXPECT_THAT(conform.message(), HasSubstr("FORM.PATH with no target"));
  EXPECT_THAT(JudgedNothing("support", true).message(), HasSubstr("TARGET.FORM"));
  // fuzz has no case filters; a merge of its shards says the shards took none.
  EXPECT_THAT(JudgedNothing("fuzz", true).message(), HasSubstr("the shards of this fuzz run took no case"));
}

TEST(JudgedNothingTest, AnUnfilteredRunThatJudgedNothingIsAFailedPrecondition) {
  const absl::Status status = JudgedNothing("fuzz", false);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("judged no case, so it is not clean"));
}

}  // namespace
}  // namespace matload
