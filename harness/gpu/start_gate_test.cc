#include "harness/gpu/start_gate.h"

#include <unistd.h>

#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/interrupt.h"

namespace matload {
namespace {

TEST(StartGateTest, AdmitsAtMostItsNumberUntilOneLeaves) {
  StartGate gate(2);
  absl::StatusOr<StartGate::Place> first = gate.Enter();
  absl::StatusOr<StartGate::Place> second = gate.Enter();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(gate.starting(), 2);
  absl::Notification admitted;
  std::thread third([&] {
    absl::StatusOr<StartGate::Place> place = gate.Enter();
    EXPECT_TRUE(place.ok());
    admitted.Notify();
  });
  EXPECT_FALSE(admitted.WaitForNotificationWithTimeout(absl::Milliseconds(300)))
      << "a third worker started while two held the gate of two";
  first->Leave();
  admitted.WaitForNotification();
  third.join();
  EXPECT_EQ(gate.starting(), 1) << "the third's place went back with it, the second's is held";
}

// With the gate full, a GPU's first worker that came to it after another
// worker takes the first place that comes free.
TEST(StartGateTest, AGpusFirstWorkerIsAdmittedBeforeOthersWaiting) {
  StartGate gate(1);
  absl::StatusOr<StartGate::Place> held = gate.Enter();
  ASSERT_TRUE(held.ok());
  absl::Mutex mutex;
  std::vector<std::string> order;
  const auto enter = [&](StartPriority priority, const std::string& name) {
    absl::StatusOr<StartGate::Place> place = gate.Enter(priority);
    EXPECT_TRUE(place.ok());
    absl::MutexLock lock(&mutex);
    order.push_back(name);
  };
  std::thread another(enter, StartPriority::kAnother, "another");
  absl::SleepFor(absl::Milliseconds(200));  // waiting at the gate first
  std::thread first(enter, StartPriority::kFirstOnItsGpu, "first");
  absl::SleepFor(absl::Milliseconds(200));
  held->Leave();
  another.join();
  first.join();
  EXPECT_EQ(order, (std::vector<std::string>{"first", "another"}));
}

TEST(StartGateTest, APlaceGoesBackOnceWhateverLeavesIt) {
  StartGate gate(1);
  {
    absl::StatusOr<StartGate::Place> place = gate.Enter();
    ASSERT_TRUE(place.ok());
    StartGate::Place moved = *std::move(place);
    moved.Leave();
    moved.Leave();
    EXPECT_EQ(gate.starting(), 0);
  }
  EXPECT_EQ(gate.starting(), 0);
  {
    absl::StatusOr<StartGate::Place> place = gate.Enter();
    ASSERT_TRUE(place.ok());
    EXPECT_EQ(gate.starting(), 1);
  }
  EXPECT_EQ(gate.starting(), 0) << "a place is given back when it is destroyed";
}

TEST(StartGateDeathTest, AnInterruptEndsTheWait) {
  EXPECT_EXIT(
      {
        InstallInterruptHandlers();
        StartGate gate(1);
        absl::StatusOr<StartGate::Place> held = gate.Enter();
        std::thread interrupter([] {
          usleep(200000);
          kill(getpid(), SIGTERM);
        });
        absl::StatusOr<StartGate::Place> waiting = gate.Enter();
        interrupter.join();
        if (!held.ok() || waiting.ok()) _exit(1);
        _exit(ExitStatusFor(waiting.status()));
      },
      ::testing::ExitedWithCode(143), "");
}

}  // namespace
}  // namespace matload
