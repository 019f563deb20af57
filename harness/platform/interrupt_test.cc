#include "harness/platform/interrupt.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtest/gtest.h"

namespace matload {
namespace {

// StatusOfChild runs `body` in a forked child and returns its wait status.
int StatusOfChild(void (*body)()) {
  const pid_t child = fork();
  if (child == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

// The same SIGTERM twice at once, as GNU timeout and Slurm send it (to
// the process and to its process group), is one request: the command
// still ends in order.
TEST(InterruptTest, ASecondSignalAtOnceIsTheSameRequest) {
  const int status = StatusOfChild([] {
    InstallInterruptHandlers();
    raise(SIGTERM);
    raise(SIGTERM);
    _exit(PendingInterrupt() == SIGTERM ? 0 : 1);
  });
  ASSERT_TRUE(WIFEXITED(status)) << "died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// An impatient user's second signal, later, ends the process at once.
TEST(InterruptTest, ASecondSignalLaterEndsTheProcess) {
  const int status = StatusOfChild([] {
    InstallInterruptHandlers();
    raise(SIGINT);
    usleep(static_cast<useconds_t>(kSameSignalNs / 1000 + 200'000));
    raise(SIGINT);
    _exit(0);
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
}

}  // namespace
}  // namespace matload
