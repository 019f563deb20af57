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
#include <vector>

#include "absl/strings/match.h"
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

  std::string state_;
  std::unique_ptr<TestProgram> program_;
  std::vector<CaseWork> works_;
  std::vector<const CaseWork*> pointers_;
  Watchdog watchdog_{std::chrono::seconds(60)};
  ConformanceProgress progress_ = [](size_t, size_t, const std::string&) {};
  ConformanceResult result_;
};

// Six items over two GPUs, two workers: each judged once, in order, on
// the GPU of its round (items alternate between the rounds), with a commit
// after each, and the run's phase named.
TEST_F(WorkerWavesTest, ItemsAreJudgedInOrderOnEveryGpu) {
  setenv("MATLOAD_FAKE_CUDA", "normal", 1);
  WorkerWaves waves({0, 1}, 2, watchdog_, progress_, result_);
  std::vector<size_t> judged;
  std::vector<int> devices;
  int commits = 0;
  const absl::Status ran = waves.Run(
      pointers_, Context,
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
  EXPECT_EQ(devices, (std::vector<int>{0, 1, 0, 1, 0, 1}));
  EXPECT_GE(commits, 7);  // one an item, one a wave
  EXPECT_TRUE(std::filesystem::exists(state_ + "/launched-on-0"));
  EXPECT_TRUE(std::filesystem::exists(state_ + "/launched-on-1"));
  ASSERT_EQ(result_.phases.size(), 1u);
  EXPECT_EQ(result_.phases[0].what, "forms");
  EXPECT_EQ(result_.infrastructure_retries, 0u);
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
  EXPECT_TRUE(absl::StrContains(ran.message(), "could not be judged in 3 attempts")) << ran;
  EXPECT_EQ(judged, 0);
  EXPECT_EQ(result_.infrastructure_retries, 6u * kInfrastructureAttempts);
  EXPECT_FALSE(result_.retry_causes.empty());
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
