#include "harness/isolated_runner.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using Kind = ItemResult::Kind;

// Items 0-9 return their square, except: 3 fails (as a sticky launch fault
// would), 5 aborts its worker, 7 hangs. Every other item's result survives.
TEST(IsolatedRunnerTest, AFaultAHangAndACrashCostOneItemEach) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      10,
      [](int item) -> absl::StatusOr<std::string> {
        if (item == 3) return absl::InternalError("cuCtxSynchronize: misaligned address (716)");
        if (item == 5) std::abort();
        if (item == 7) pause();
        return std::to_string(item * item);
      },
      std::chrono::milliseconds(500));
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 10u);
  for (int item : {0, 1, 2, 4, 6, 8, 9}) {
    EXPECT_EQ((*results)[item].kind, Kind::kDone) << item;
    EXPECT_EQ((*results)[item].output, std::to_string(item * item));
  }
  EXPECT_EQ((*results)[3].kind, Kind::kFailed);
  EXPECT_THAT((*results)[3].output, HasSubstr("misaligned address (716)"));
  EXPECT_EQ((*results)[5].kind, Kind::kCrashed);
  EXPECT_THAT((*results)[5].output, HasSubstr("signal 6"));
  EXPECT_EQ((*results)[7].kind, Kind::kTimedOut);
  EXPECT_THAT((*results)[7].output, HasSubstr("no result within 500 ms"));
}

TEST(IsolatedRunnerTest, AWorkerThatExitsEarlyLosesOnlyItsItem) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      3,
      [](int item) -> absl::StatusOr<std::string> {
        if (item == 1) _exit(9);
        return std::string(100000, 'x');  // larger than a pipe buffer
      },
      std::chrono::seconds(5));
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].output.size(), 100000u);
  EXPECT_EQ((*results)[1].kind, Kind::kCrashed);
  EXPECT_THAT((*results)[1].output, HasSubstr("exited with status 9"));
  EXPECT_EQ((*results)[2].kind, Kind::kDone);
}

}  // namespace
}  // namespace matload
