#include "harness/platform/process_start_time.h"

#include <sys/wait.h>
#include <unistd.h>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ProcessStartTimeTest, ALiveProcessHasOneThatStaysTheSame) {
  const std::optional<std::uint64_t> start = ProcessStartTime(getpid());
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(ProcessStartTime(getpid()), start);
  // A process started later started no earlier.
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  ASSERT_GT(child, 0);
  const std::optional<std::uint64_t> child_start = ProcessStartTime(child);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_TRUE(child_start.has_value());
  EXPECT_GE(*child_start, *start);
}

TEST(ProcessStartTimeTest, AProcessThatEndedHasNone) {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(ProcessStartTime(child), std::nullopt);
  EXPECT_EQ(ProcessStartTime(-1), std::nullopt);
}

}  // namespace
}  // namespace matload
