#include "harness/platform/subprocess.h"
#include "harness/platform/process_tree.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST(SubprocessTest, ReportsTheSignalThatEndedIt) {
  absl::StatusOr<ProcessResult> result = RunProcess({"sh", "-c", "kill -SEGV $$"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->signal, SIGSEGV);
  EXPECT_EQ(result->exit_code, 128 + SIGSEGV);
  absl::StatusOr<ProcessResult> exited = RunProcess({"sh", "-c", "exit 139"});
  ASSERT_TRUE(exited.ok()) << exited.status();
  EXPECT_EQ(exited->signal, 0) << "an exit status of 139 is not a signal";
}

// WaitGone waits up to 5 s for `pid` to end.
bool WaitGone(int pid) { return WaitUntilEnded(pid, std::chrono::seconds(5)); }

// ReadPid reads the pid a child wrote to `path`, waiting up to 5 s for it.
int ReadPid(const std::string& path) {
  int pid = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!(std::ifstream(path) >> pid) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pid;
}

TEST(SubprocessTest, ATimeoutKillsTheChildsWholeProcessGroup) {
  const std::string pid_file = ::testing::TempDir() + "/subprocess_grandchild.pid";
  std::remove(pid_file.c_str());
  absl::StatusOr<ProcessResult> result = RunProcess(
      {"sh", "-c", "sleep 30 & echo $! > " + pid_file + "; wait"}, std::chrono::milliseconds(300));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->timed_out);
  const int grandchild = ReadPid(pid_file);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(WaitGone(grandchild)) << "the grandchild outlived the timeout";
}

TEST(SubprocessTest, NeverWaitsPastTheTimeoutForAChildThatClosedItsStreams) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<ProcessResult> result =
      RunProcess({"sh", "-c", "exec >&- 2>&-; sleep 30"}, std::chrono::milliseconds(300));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SubprocessTest, TheChildInheritsOnlyItsStandardStreams) {
  const int leaked = open("/dev/null", O_RDONLY);  // as a library might, without O_CLOEXEC
  ASSERT_GE(leaked, 0);
  absl::StatusOr<ProcessResult> result = RunProcess({"sh", "-c", "exec ls /proc/self/fd"});
  close(leaked);
  ASSERT_TRUE(result.ok()) << result.status();
  // 3 is the directory ls itself opens to list it.
  EXPECT_EQ(result->standard_output, "0\n1\n2\n3\n");
}

TEST(SubprocessTest, TheChildLeadsAProcessGroupOfItsOwn) {
  absl::StatusOr<ProcessResult> result = RunProcess({"sh", "-c", "ps -o pgid= -p $$; echo $$"});
  ASSERT_TRUE(result.ok()) << result.status();
  std::istringstream lines(result->standard_output);
  int group = 0;
  int pid = 0;
  ASSERT_TRUE(lines >> group >> pid) << result->standard_output;
  EXPECT_EQ(group, pid);
  EXPECT_NE(group, getpgrp());
}

// The child is made with every signal blocked (subprocess.cc): it must
// still start with the caller's signal mask, as a forked child would, and
// the caller must get its own back.
TEST(SubprocessTest, TheChildAndTheCallerKeepTheCallersSignalMask) {
  sigset_t usr2;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  sigset_t before;
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &usr2, &before), 0);
  std::string callers;
  for (std::ifstream status("/proc/thread-self/status"); std::getline(status, callers);) {
    if (callers.starts_with("SigBlk:")) break;
  }
  absl::StatusOr<ProcessResult> result = RunProcess({"grep", "^SigBlk:", "/proc/self/status"});
  sigset_t after;
  pthread_sigmask(SIG_SETMASK, &before, &after);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, callers + "\n");
  EXPECT_EQ(sigismember(&after, SIGUSR2), 1);
  EXPECT_EQ(sigismember(&after, SIGINT), sigismember(&before, SIGINT));
}

// A matload killed with SIGKILL cannot clean up: its children must die with
// it on their own (PR_SET_PDEATHSIG).
TEST(SubprocessTest, AChildDiesWithAParentKilledBySigkill) {
  const std::string pid_file = ::testing::TempDir() + "/subprocess_orphan.pid";
  std::remove(pid_file.c_str());
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    (void)RunProcess({"sh", "-c", "echo $$ > " + pid_file + "; exec sleep 30"}, std::chrono::seconds(60));
    _exit(0);
  }
  const int child = ReadPid(pid_file);
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  ASSERT_GT(child, 0);
  EXPECT_TRUE(WaitGone(child)) << "the child outlived its parent";
}

// sh ends on SIGINT; the sleep it started in the background ignores SIGINT
// (a non-interactive shell's background jobs do) and must die with the group.
TEST(BackgroundProcessTest, StopKillsWhatTheProgramLeftInItsGroup) {
  const std::string pid_file = ::testing::TempDir() + "/background_grandchild.pid";
  std::remove(pid_file.c_str());
  absl::StatusOr<BackgroundProcess> process = BackgroundProcess::Start(
      {"sh", "-c", "sleep 30 & echo $! > " + pid_file + "; wait"}, {}, ::testing::TempDir() + "/background_group.log");
  ASSERT_TRUE(process.ok()) << process.status();
  const int grandchild = ReadPid(pid_file);
  ASSERT_GT(grandchild, 0);
  process->Stop();
  EXPECT_TRUE(WaitGone(grandchild)) << "the background program's child outlived Stop";
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
