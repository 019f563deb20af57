// WorkerWaves on the fake GPU (harness/testing/fake_libcuda.cc). Its
// workers are forked, and the loader reads LD_LIBRARY_PATH when a process
// starts, so the test runs itself again with LD_LIBRARY_PATH naming the
// fake's directory before its first test.
#include "harness/conform/worker_waves.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "reference/target.h"

namespace matload {
namespace {

// RunOnTheFakeGpu runs this process again with the fake libcuda first on
// LD_LIBRARY_PATH, unless it already is.
void RunOnTheFakeGpu() {
  const char* path = getenv("LD_LIBRARY_PATH");
  if (path != nullptr && absl::StartsWith(path, MATLOAD_FAKE_CUDA_DIR)) return;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words = absl::StrSplit(line, '\0', absl::SkipEmpty());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  setenv("LD_LIBRARY_PATH", MATLOAD_FAKE_CUDA_DIR, 1);
  execv("/proc/self/exe", argv.data());
}

class WorkerWavesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { RunOnTheFakeGpu(); }

  void SetUp() override {
    state_ = ::testing::TempDir() + "/worker-waves-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(state_);
    std::filesystem::create_directories(state_);
    setenv("MATLOAD_FAKE_CUDA_STATE", state_.c_str(), 1);
    setenv("MATLOAD_FAKE_CUDA_DEVICES", "2", 1);
    absl::StatusOr<std::unique_ptr<TestProgram>> program =
        TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, PtxVersion{9, 0}, {});
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = *std::move(program);
    for (int item = 0; item < 6; ++item) {
      works_.push_back({.program = program_.get(), .seed = 5, .begin = 4 * item, .end = 4 * item + 4});
    }
    for (const CaseWork& work : works_) pointers_.push_back(&work);
  }

  // Context runs each item on one host thread.
  static CaseWorkContext Context(const CaseWork& /*work*/, int device) { return {.device = device, .blocks = 4}; }

  // Mark notes, in a worker, that it starts `work` (item begin / 4) on GPU
  // `device`: a line "PID DEVICE" added to the item's file.
  void Mark(const CaseWork& work, int device) const {
    std::ofstream(absl::StrCat(state_, "/item-", work.begin / 4), std::ios::app) << getpid() << " " << device << "\n";
  }
  // Starts is what Mark noted of item `item`, a (PID, GPU) a start.
  std::vector<std::pair<long, int>> Starts(int item) const {
    std::ifstream in(absl::StrCat(state_, "/item-", item));
    std::vector<std::pair<long, int>> starts;
    for (std::pair<long, int> start; in >> start.first >> start.second;) starts.push_back(start);
    return starts;
  }
  // AwaitFrom waits, in a worker, until items [first, last) have started,
  // for 20 s at most (items dealt up front behind the waiting one never do).
  void AwaitFrom(int first, int last) const {
    for (int waited = 0; waited < 2000; ++waited) {
      int started = 0;
      for (int item = first; item < last; ++item) started += !Starts(item).empty();
      if (started == last - first) return;
      usleep(10000);
    }
  }
  // RunJudging runs the six items with `context` on GPUs 0 and 1, two
  // workers at once, and returns each judged item with the GPU it was
  // judged to have run on.
  absl::StatusOr<std::vector<std::pair<size_t, int>>> RunJudging(const WorkerWaves::WorkContext& context) {
    WorkerWaves waves({0, 1}, 2, watchdog_, progress_, result_);
    std::vector<std::pair<size_t, int>> judged;
    const absl::Status ran = waves.Run(
        pointers_, context,
        [&](size_t index, const ItemResult&, const LaunchOutcome& outcome, int device) {
          EXPECT_EQ(outcome.kind, LaunchOutcome::Kind::kRan) << outcome.detail;
          judged.emplace_back(index, device);
          return absl::OkStatus();
        },
        [] { return absl::OkStatus(); }, "forms");
    if (!ran.ok()) return ran;
    return judged;
  }

  std::string state_;
  std::unique_ptr<TestProgram> program_;
  std::vector<CaseWork> works_;
  std::vector<const CaseWork*> pointers_;
  Watchdog watchdog_{std::chrono::seconds(60)};
  ConformanceProgress progress_ = [](size_t, size_t, const std::string&) {};
  ConformanceResult result_;
};

// Six items over two GPUs, two workers: each judged once, in order, with a
// commit after each, and the run's phase named; each judgement is told the
// GPU its item ran on, and both GPUs ran items.
TEST_F(WorkerWavesTest, ItemsAreJudgedInOrderOnEveryGpu) {
  setenv("MATLOAD_FAKE_CUDA", "normal", 1);
  WorkerWaves waves({0, 1}, 2, watchdog_, progress_, result_);
  std::vector<size_t> judged;
  std::vector<int> devices;
  int commits = 0;
  const absl::Status ran = waves.Run(
      pointers_,
      [&](const CaseWork& work, int device) {
        Mark(work, device);
        if (work.begin == 0) AwaitFrom(1, 2);  // so that one worker cannot take every item alone
        return Context(work, device);
      },
      [&](size_t index, const ItemResult&, const LaunchOutcome& outcome, int device) {
        EXPECT_EQ(outcome.kind, LaunchOutcome::Kind::kRan) << outcome.detail;
        judged.push_back(index);
        devices.push_back(device);
        return absl::OkStatus();
      },
      [&] {
        ++commits;
        return absl::OkStatus();
      },
      "forms");
  ASSERT_TRUE(ran.ok()) << ran;
  EXPECT_EQ(judged, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  for (size_t item = 0; item < judged.size(); ++item) {
    ASSERT_EQ(Starts(item).size(), 1u) << item;
    EXPECT_EQ(devices[item], Starts(item)[0].second) << item;
  }
  EXPECT_GE(commits, 7);  // one an item, one a wave
  EXPECT_TRUE(std::filesystem::exists(state_ + "/launched-on-0"));
  EXPECT_TRUE(std::filesystem::exists(state_ + "/launched-on-1"));
  ASSERT_EQ(result_.phases.size(), 1u);
  EXPECT_EQ(result_.phases[0].what, "forms");
  EXPECT_EQ(result_.infrastructure_retries, 0u);
}

// The first item a worker takes lasts until the five others have started:
// the other worker, on the other GPU, free first, takes them all, one after
// another, and each judgement is told the GPU its item ran on. Items dealt
// to the workers up front left items 2 and 4 waiting behind item 0.
TEST_F(WorkerWavesTest, AFreeWorkerTakesTheNextItemWhileAnotherIsBusy) {
  setenv("MATLOAD_FAKE_CUDA", "normal", 1);
  absl::StatusOr<std::vector<std::pair<size_t, int>>> judged = RunJudging([&](const CaseWork& work, int device) {
    Mark(work, device);
    if (work.begin == 0) AwaitFrom(1, 6);
    return Context(work, device);
  });
  ASSERT_TRUE(judged.ok()) << judged.status();
  ASSERT_EQ(judged->size(), 6u);
  for (size_t item = 0; item < 6; ++item) {
    EXPECT_EQ((*judged)[item].first, item);
    ASSERT_EQ(Starts(item).size(), 1u) << item;
    EXPECT_EQ((*judged)[item].second, Starts(item)[0].second) << item;
  }
  for (int item = 1; item < 6; ++item) {
    EXPECT_NE(Starts(item)[0].second, Starts(0)[0].second) << "item " << item << " ran on the slow item's GPU";
    EXPECT_EQ(Starts(item)[0].first, Starts(1)[0].first) << "item " << item << " ran in another worker";
  }
}

// One worker lasts on its first item until items 2-5 have started; the
// other dies on item 1. Only item 1 is lost, and tried again after the
// wave; a fresh worker on item 1's GPU takes items 2-5 from the queue.
TEST_F(WorkerWavesTest, AWorkerThatDiesLosesOnlyItsItemAndAFreshOneTakesTheRest) {
  setenv("MATLOAD_FAKE_CUDA", "normal", 1);
  const std::string died = state_ + "/died";
  absl::StatusOr<std::vector<std::pair<size_t, int>>> judged = RunJudging([&](const CaseWork& work, int device) {
    Mark(work, device);
    if (work.begin == 0) AwaitFrom(2, 6);
    if (work.begin == 4 && !std::filesystem::exists(died)) {
      std::ofstream{died};
      std::abort();
    }
    return Context(work, device);
  });
  ASSERT_TRUE(judged.ok()) << judged.status();
  EXPECT_EQ(*judged, (std::vector<std::pair<size_t, int>>{{0, Starts(0)[0].second},
                                                          {2, Starts(2)[0].second},
                                                          {3, Starts(3)[0].second},
                                                          {4, Starts(4)[0].second},
                                                          {5, Starts(5)[0].second},
                                                          {1, Starts(1).back().second}}));
  EXPECT_EQ(result_.infrastructure_retries, 1u);
  const std::vector<std::pair<long, int>> dead = Starts(1);
  ASSERT_EQ(dead.size(), 2u) << "item 1 ran once and once again";
  EXPECT_EQ(dead[1].second, dead[0].second) << "item 1 ran again on the GPU it failed on";
  for (int item = 2; item < 6; ++item) {
    ASSERT_EQ(Starts(item).size(), 1u) << item;
    EXPECT_EQ(Starts(item)[0].second, dead[0].second) << "item " << item << " ran on the slow item's GPU, not item 1's";
    EXPECT_NE(Starts(item)[0].first, dead[0].first) << "item " << item << " ran in the worker that died";
    EXPECT_EQ(Starts(item)[0].first, Starts(2)[0].first) << "item " << item << " ran in another worker";
  }
}

// A GPU that is always busy keeps every item from being judged: each is
// tried kInfrastructureAttempts times, then the run stops with the cause,
// having judged nothing and counted every retry.
TEST_F(WorkerWavesTest, AnItemNeverJudgedStopsTheRunAfterItsAttempts) {
  setenv("MATLOAD_FAKE_CUDA", "busy-always", 1);
  WorkerWaves waves({0}, 2, watchdog_, progress_, result_);
  int judged = 0;
  const absl::Status ran = waves.Run(
      pointers_, Context,
      [&](size_t, const ItemResult&, const LaunchOutcome&, int) {
        ++judged;
        return absl::OkStatus();
      },
      [] { return absl::OkStatus(); }, "forms");
  EXPECT_EQ(ran.code(), absl::StatusCode::kUnavailable) << ran;
  EXPECT_TRUE(absl::StrContains(ran.message(), "could not be judged on GPU 0 in 3 attempts")) << ran;
  EXPECT_EQ(judged, 0);
  EXPECT_EQ(result_.infrastructure_retries, 6u * kInfrastructureAttempts);
  EXPECT_FALSE(result_.retry_causes.empty());
}

// A GPU lost after its probe fails every item it takes. Each is tried
// again on that GPU, not on the other, so the run stops as an
// infrastructure failure naming it, where retries on GPU 0 would have
// judged every item and ended clean with GPU 1 unchecked.
TEST_F(WorkerWavesTest, AGpuLostAfterItsProbeStopsTheRun) {
  setenv("MATLOAD_FAKE_CUDA", "lost-on-device:1", 1);
  absl::StatusOr<std::vector<std::pair<size_t, int>>> judged =
      RunJudging([&](const CaseWork& work, int device) { return Context(work, device); });
  ASSERT_FALSE(judged.ok());
  EXPECT_EQ(judged.status().code(), absl::StatusCode::kUnavailable) << judged.status();
  EXPECT_TRUE(absl::StrContains(judged.status().message(), "could not be judged on GPU 1 in 3 attempts"))
      << judged.status();
  EXPECT_GT(result_.infrastructure_retries, 0u);
}

// A judgement's error stops the run at once.
TEST_F(WorkerWavesTest, AJudgementsErrorStopsTheRun) {
  setenv("MATLOAD_FAKE_CUDA", "normal", 1);
  WorkerWaves waves({0}, 1, watchdog_, progress_, result_);
  const absl::Status ran = waves.Run(
      pointers_, Context,
      [&](size_t index, const ItemResult&, const LaunchOutcome&, int) {
        return index == 2 ? absl::DataLossError("the store is gone") : absl::OkStatus();
      },
      [] { return absl::OkStatus(); }, "forms");
  EXPECT_EQ(ran.code(), absl::StatusCode::kDataLoss) << ran;
}

}  // namespace
}  // namespace matload
