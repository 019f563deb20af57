#include "harness/platform/process_tree.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

TEST(ProcessTreeTest, FindsChildrenAndGrandchildren) {
  absl::StatusOr<BackgroundProcess> shell =
      BackgroundProcess::Start({"/bin/sh", "-c", "sleep 30 & sleep 30 & wait"}, {}, "/dev/null");
  ASSERT_TRUE(shell.ok()) << shell.status();
  std::vector<pid_t> below;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((below = Descendants(getpid())).size() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(below.size(), 3u);  // the shell and its two sleeps
  for (pid_t pid : below) {
    EXPECT_NE(pid, getpid());
    kill(pid, SIGKILL);
  }
  EXPECT_EQ(shell->Stop(), 128 + SIGKILL);
  EXPECT_THAT(Descendants(getpid()), ::testing::IsEmpty());
}

TEST(ProcessTreeTest, AProcessWithoutChildrenHasNoDescendants) {
  EXPECT_THAT(Descendants(getpid()), ::testing::IsEmpty());
}

TEST(ProcessTreeTest, AProcessHasEndedOnceItIsAZombieOrGone) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  EXPECT_FALSE(HasEnded(child));
  kill(child, SIGKILL);
  EXPECT_TRUE(WaitUntilEnded(child, std::chrono::seconds(5)));  // a zombie until reaped
  waitpid(child, nullptr, 0);
  EXPECT_TRUE(HasEnded(child));
}

}  // namespace
}  // namespace matload
