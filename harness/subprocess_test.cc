#include "harness/subprocess.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

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

std::string ReadLog(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(BackgroundProcessTest, WritesBothStreamsToTheLogAndReportsTheExitCode) {
  const std::string log = ::testing::TempDir() + "/background_process_test.log";
  std::remove(log.c_str());
  absl::StatusOr<BackgroundProcess> process =
      BackgroundProcess::Start({"sh", "-c", "echo out; echo err >&2; exit 3"}, {}, log);
  ASSERT_TRUE(process.ok()) << process.status();
  std::optional<int> exit_code;
  while (!(exit_code = process->Poll()).has_value()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(*exit_code, 3);
  EXPECT_EQ(ReadLog(log), "out\nerr\n");
}

TEST(BackgroundProcessTest, StopInterruptsARunningProgram) {
  absl::StatusOr<BackgroundProcess> process =
      BackgroundProcess::Start({"sleep", "60"}, {}, ::testing::TempDir() + "/background_sleep.log");
  ASSERT_TRUE(process.ok()) << process.status();
  EXPECT_FALSE(process->Poll().has_value());
  EXPECT_EQ(process->Stop(), 128 + SIGINT);
}

TEST(BackgroundProcessTest, AMissingProgramIsNotFound) {
  absl::StatusOr<BackgroundProcess> process =
      BackgroundProcess::Start({"/nonexistent/matload-fuzzer"}, {}, ::testing::TempDir() + "/missing.log");
  ASSERT_FALSE(process.ok());
  EXPECT_EQ(process.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace matload
