#include "harness/gpu/isolated_runner.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include <fcntl.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/process_tree.h"

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

TEST(IsolatedRunnerTest, AFailuresCodeAndMarkSurviveThePipe) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      3,
      [](int item) -> absl::StatusOr<std::string> {
        if (item == 0) return InfrastructureError(InfrastructureCause::kGpuBusy, "cannot open device 0 (46)");
        if (item == 1) return NoGpuError("the CUDA driver sees no GPU");
        return absl::FailedPreconditionError("ptxas rejected the module");
      },
      std::chrono::seconds(5));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(InfrastructureCauseOf((*results)[0].error), InfrastructureCause::kGpuBusy);
  EXPECT_THAT(std::string((*results)[0].error.message()), HasSubstr("cannot open device 0 (46)"));
  EXPECT_TRUE(IsNoGpu((*results)[1].error));
  EXPECT_EQ((*results)[2].error.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(InfrastructureCauseOf((*results)[2].error), std::nullopt);
}

TEST(IsolatedRunnerTest, AHangIsReportedWithThePhaseItHungIn) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      1,
      [](int) -> absl::StatusOr<std::string> {
        MarkWorkerPhase(WorkerPhase::kCompiling);
        pause();
        return "";
      },
      std::chrono::milliseconds(300));
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].kind, Kind::kTimedOut);
  EXPECT_EQ((*results)[0].phase, WorkerPhase::kCompiling);
  EXPECT_THAT((*results)[0].output, HasSubstr("while compiling"));
}

TEST(WatchdogTest, AKernelsLimitFollowsTheLongestKernelSeenWithAFloor) {
  Watchdog watchdog(std::chrono::seconds(30));
  EXPECT_EQ(watchdog.Limit(WorkerPhase::kRunningKernel), std::chrono::seconds(30));  // not calibrated yet
  watchdog.ObserveKernel(std::chrono::milliseconds(1));
  EXPECT_EQ(watchdog.Limit(WorkerPhase::kRunningKernel), Watchdog::kKernelFloor);
  watchdog.ObserveKernel(std::chrono::milliseconds(500));
  EXPECT_EQ(watchdog.Limit(WorkerPhase::kRunningKernel), std::chrono::seconds(10));
  watchdog.ObserveKernel(std::chrono::seconds(5));
  EXPECT_EQ(watchdog.Limit(WorkerPhase::kRunningKernel), std::chrono::seconds(30));  // never past the limit
  EXPECT_EQ(watchdog.Limit(WorkerPhase::kCompiling), std::chrono::seconds(30));
}

TEST(IsolatedRunnerTest, AHungKernelIsCaughtByTheCalibratedLimit) {
  Watchdog watchdog(std::chrono::seconds(30));
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      2,
      [](int item) -> absl::StatusOr<std::string> {
        MarkWorkerPhase(WorkerPhase::kRunningKernel);
        if (item == 1) pause();
        usleep(10000);
        MarkWorkerPhase(WorkerPhase::kFinishing);
        return "ran";
      },
      watchdog);
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].kind, Kind::kDone);
  EXPECT_EQ((*results)[1].kind, Kind::kTimedOut);
  EXPECT_EQ((*results)[1].phase, WorkerPhase::kRunningKernel);
  EXPECT_THAT((*results)[1].output, HasSubstr("no result within 2000 ms while running the kernel"));
}

TEST(IsolatedRunnerTest, AWorkerLeadsAProcessGroupOfItsOwn) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      1, [](int) -> absl::StatusOr<std::string> { return getpgrp() == getpid() ? "leads" : "does not lead"; },
      std::chrono::seconds(5));
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].output, "leads");
}

TEST(IsolatedRunnerTest, AWorkerHoldsNoDescriptorOfTheParentButItsOwn) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);  // inheritable on purpose, as another worker's pipe would be
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      1, [&](int) -> absl::StatusOr<std::string> { return fcntl(fds[1], F_GETFD) < 0 ? "closed" : "open"; },
      std::chrono::seconds(5));
  close(fds[0]);
  close(fds[1]);
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].output, "closed");
}

TEST(IsolatedRunnerTest, AWorkerDiesWithItsParent) {
  const std::string pid_file = ::testing::TempDir() + "/isolated_runner_worker.pid";
  std::remove(pid_file.c_str());
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    (void)RunIsolated(
        1,
        [&](int) -> absl::StatusOr<std::string> {
          std::ofstream(pid_file) << getpid() << "\n";
          pause();
          return "";
        },
        std::chrono::seconds(60));
    _exit(0);
  }
  pid_t worker = 0;
  for (int i = 0; i < 100 && worker == 0; ++i) {
    usleep(20000);
    std::ifstream(pid_file) >> worker;
  }
  ASSERT_GT(worker, 0) << "the worker never started";
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  const bool gone = WaitUntilEnded(worker, std::chrono::seconds(2));
  EXPECT_TRUE(gone) << "worker " << worker << " outlived its parent";
  if (!gone) kill(worker, SIGKILL);
}

// Two runs share a gate of one: the second forks its worker only once the
// first's has said it started (its first phase after kStarting), so their
// starts, each a worker's time from its first item's beginning to that
// phase, come one after the other.
TEST(IsolatedRunnerTest, WorkersStartOnlyAsTheGateAdmitsThem) {
  StartGate gate(1);
  Watchdog watchdog(std::chrono::seconds(30));
  const auto start = [](int) -> absl::StatusOr<std::string> {
    const absl::Time began = absl::Now();
    absl::SleepFor(absl::Milliseconds(200));
    const absl::Time started = absl::Now();
    MarkWorkerPhase(WorkerPhase::kCompiling);
    return absl::StrCat(absl::ToUnixNanos(began), " ", absl::ToUnixNanos(started));
  };
  std::vector<std::string> starts(2);
  std::vector<std::thread> runs;
  for (std::string& interval : starts) {
    runs.emplace_back([&] {
      absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(1, start, watchdog, {}, gate);
      if (results.ok() && (*results)[0].kind == Kind::kDone) interval = (*results)[0].output;
    });
  }
  for (std::thread& run : runs) run.join();
  std::vector<std::pair<long long, long long>> intervals;
  for (const std::string& interval : starts) {
    std::pair<long long, long long> parsed;
    ASSERT_EQ(std::sscanf(interval.c_str(), "%lld %lld", &parsed.first, &parsed.second), 2) << interval;
    intervals.push_back(parsed);
  }
  std::sort(intervals.begin(), intervals.end());
  EXPECT_GE(intervals[1].first, intervals[0].second) << "the second worker began starting before the first had started";
  EXPECT_EQ(gate.starting(), 0);
}

// SharedRun runs `count` items from one queue in `workers` series at once,
// each on a thread of its own, and returns every result told to `finished`
// (kNotRun where none was).
std::vector<ItemResult> SharedRun(int count, int workers, const ItemWork& work) {
  WorkQueue queue(count);
  Watchdog watchdog(std::chrono::seconds(60), /*calibrate=*/false);
  absl::Mutex mutex;
  std::vector<ItemResult> results(count, ItemResult{.kind = Kind::kNotRun});
  std::vector<std::thread> series;
  for (int worker = 0; worker < workers; ++worker) {
    series.emplace_back([&] {
      const absl::Status ran = RunIsolated(queue, work, watchdog, [&](int item, const ItemResult& result) {
        absl::MutexLock lock(&mutex);
        results[item] = result;
      });
      EXPECT_TRUE(ran.ok()) << ran;
    });
  }
  for (std::thread& thread : series) thread.join();
  return results;
}

// Marks is a directory where a worker marks each item it starts, so that
// an item can wait, in its worker, until others have started in another.
class Marks {
 public:
  explicit Marks(const std::string& name) : directory_(::testing::TempDir() + "/" + name) {
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  // Mark marks `item` as started.
  void Mark(int item) const { std::ofstream(Path(item)) << getpid(); }
  // AwaitFrom waits until items [first, last) are all marked, for 20 s at
  // most (a runner that deals items up front never marks them).
  void AwaitFrom(int first, int last) const {
    for (int waited = 0; waited < 2000; ++waited) {
      int marked = 0;
      for (int item = first; item < last; ++item) marked += std::filesystem::exists(Path(item));
      if (marked == last - first) return;
      usleep(10000);
    }
  }

 private:
  // Path is item `item`'s mark.
  std::string Path(int item) const { return absl::StrCat(directory_, "/", item); }

  std::string directory_;
};

// Two workers share a queue of nine items, and the first item they take
// lasts until the other eight have started: the other worker, free first,
// takes all eight, one after another.
TEST(IsolatedRunnerTest, AFreeWorkerTakesTheNextItemFromASharedQueue) {
  const Marks marks("isolated_runner_free_worker");
  const std::vector<ItemResult> results = SharedRun(9, 2, [&](int item) -> absl::StatusOr<std::string> {
    marks.Mark(item);
    if (item == 0) marks.AwaitFrom(1, 9);
    return std::to_string(getpid());
  });
  for (int item = 0; item < 9; ++item) ASSERT_EQ(results[item].kind, Kind::kDone) << item << results[item].output;
  for (int item = 1; item < 9; ++item) {
    EXPECT_NE(results[item].output, results[0].output) << "item " << item << " waited behind the slow item";
    EXPECT_EQ(results[item].output, results[1].output) << "item " << item << " ran in a third worker";
  }
}

// Of two workers sharing a queue, one lasts on its first item until items
// 2-5 have started; the other dies on item 1. Only item 1 is lost, and a
// fresh worker takes items 2-5 from the queue.
TEST(IsolatedRunnerTest, AFreshWorkerGoesOnTakingFromTheQueueOfOneThatDied) {
  const Marks marks("isolated_runner_fresh_worker");
  const std::vector<ItemResult> results = SharedRun(6, 2, [&](int item) -> absl::StatusOr<std::string> {
    marks.Mark(item);
    if (item == 0) marks.AwaitFrom(2, 6);
    if (item == 1) std::abort();
    return std::to_string(getpid());
  });
  EXPECT_EQ(results[1].kind, Kind::kCrashed);
  EXPECT_THAT(results[1].output, HasSubstr("signal 6"));
  for (int item : {0, 2, 3, 4, 5}) ASSERT_EQ(results[item].kind, Kind::kDone) << item << results[item].output;
  for (int item = 2; item < 6; ++item) {
    EXPECT_NE(results[item].output, results[0].output) << "item " << item << " waited behind the slow item";
    EXPECT_EQ(results[item].output, results[2].output) << "items 2-5 ran in more than one fresh worker";
  }
}

// An item that fails retires its worker (its context may be unusable), and
// the rest of a list run one after another in one fresh worker.
TEST(IsolatedRunnerTest, AFailedItemRetiresItsWorkerAndAFreshOneTakesTheRest) {
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      5,
      [](int item) -> absl::StatusOr<std::string> {
        if (item == 1) return absl::InternalError("cuCtxSynchronize: misaligned address (716)");
        return std::to_string(getpid());
      },
      std::chrono::seconds(5));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ((*results)[1].kind, Kind::kFailed);
  EXPECT_NE((*results)[2].output, (*results)[0].output);
  EXPECT_EQ((*results)[3].output, (*results)[2].output);
  EXPECT_EQ((*results)[4].output, (*results)[2].output);
}

TEST(IsolatedRunnerDeathTest, AnInterruptKillsTheWorkersAndEndsWith128PlusTheSignal) {
  EXPECT_EXIT(
      {
        InstallInterruptHandlers();
        std::thread interrupter([] {
          usleep(200000);
          kill(getpid(), SIGTERM);
        });
        absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
            1,
            [](int) -> absl::StatusOr<std::string> {
              pause();
              return "";
            },
            std::chrono::seconds(60));
        interrupter.join();
        if (!results.ok() || (*results)[0].kind != Kind::kNotRun) _exit(1);
        _exit(ExitStatusFor(InterruptedError(PendingInterrupt())));
      },
      ::testing::ExitedWithCode(143), "");
}

}  // namespace
}  // namespace matload
