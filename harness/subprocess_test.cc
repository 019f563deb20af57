#include "harness/subprocess.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(SubprocessTest, CollectsOutputAndExitCode) {
  absl::StatusOr<ProcessResult> result = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 3);
  EXPECT_EQ(result->standard_output, "out\n");
  EXPECT_EQ(result->standard_error, "err\n");
  EXPECT_FALSE(result->timed_out);
}

TEST(SubprocessTest, PassesArgumentsWithoutAShell) {
  absl::StatusOr<ProcessResult> result = RunProcess({"echo", "$HOME; rm -rf /"});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->standard_output, "$HOME; rm -rf /\n");
}

TEST(SubprocessTest, AddsToTheEnvironment) {
  absl::StatusOr<ProcessResult> result =
      RunProcess({"sh", "-c", "echo $MATLOAD_PROBE"}, std::chrono::seconds(10), {"MATLOAD_PROBE=yes"});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->standard_output, "yes\n");
}

TEST(SubprocessTest, KillsAHungProgram) {
  absl::StatusOr<ProcessResult> result = RunProcess({"sleep", "30"}, std::chrono::milliseconds(200));
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->timed_out);
  EXPECT_EQ(result->exit_code, 128 + 9);
}

TEST(SubprocessTest, ReportsAMissingProgram) {
  absl::StatusOr<ProcessResult> result = RunProcess({"/nonexistent/ptxas"});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("cannot run /nonexistent/ptxas"));
}

}  // namespace
}  // namespace matload
