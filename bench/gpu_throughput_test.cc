// gpu_throughput against the fake libcuda of the fault rig
// (harness/testing/fake_libcuda.cc): without a GPU it says so and fails,
// and with one it reports through Google Benchmark, so that
// --benchmark_format=json gives each form's figures as counters. The fake
// device's kernels store nothing, so every checked execution mismatches:
// the run's exit status says so too.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// FakeGpu is the environment that gives gpu_throughput the fake driver in `mode`.
std::vector<std::string> FakeGpu(const std::string& mode) {
  const std::filesystem::path state =
      std::filesystem::path(::testing::TempDir()) / absl::StrCat("gpu_throughput_", mode);
  std::filesystem::create_directories(state);
  return {absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR), absl::StrCat("MATLOAD_FAKE_CUDA=", mode),
          absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", state.string())};
}

TEST(GpuThroughputTest, WithoutAGpuItSaysSoAndFails) {
  absl::StatusOr<ProcessResult> run =
      RunProcess({GPU_THROUGHPUT, "--seconds", "1"}, std::chrono::seconds(120), FakeGpu("init-fails"));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, kExitCompileOnly) << run->standard_error;
  EXPECT_THAT(run->standard_error, ::testing::HasSubstr("gpu_throughput: needs a GPU: "));
  EXPECT_EQ(run->standard_output, "");
}

// A --judge it does not know is a usage error, said before any GPU is asked.
TEST(GpuThroughputTest, AnUnknownJudgeIsRefusedBeforeTheGpuIsProbed) {
  for (const std::vector<std::string>& flags :
       {std::vector<std::string>{"--judge", "device"}, std::vector<std::string>{"--new_forms", "--judge", "gpu"}}) {
    std::vector<std::string> command = {GPU_THROUGHPUT};
    command.insert(command.end(), flags.begin(), flags.end());
    absl::StatusOr<ProcessResult> run = RunProcess(command, std::chrono::seconds(120), FakeGpu("init-fails"));
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(run->exit_code, kExitUsage) << run->standard_error;
    EXPECT_THAT(run->standard_error, ::testing::HasSubstr("--judge"));
  }
}

// Under both judges, each form is measured twice, and on the fake GPU, whose
// kernels store nothing, the device judge calls every block wrong, so that
// the host judges every one of them too. Both forms have a sweep kernel
// and are measured swept too, which the fake GPU cannot do: it reports no
// SMs, and each such benchmark says so as its error.
TEST(GpuThroughputTest, ReportsEachFormAsJsonWithCounters) {
  absl::StatusOr<ProcessResult> run = RunProcess({GPU_THROUGHPUT, "--seconds", "1", "--threads", "1", "--blocks", "64",
                                                  "--judge", "both", "--benchmark_format=json"},
                                                 std::chrono::seconds(300), FakeGpu("normal"));
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->exit_code, kExitFindings) << run->standard_error;  // the fake's kernels store nothing
  const nlohmann::json report = nlohmann::json::parse(run->standard_output, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run->standard_output;
  EXPECT_THAT(report["context"]["device"].get<std::string>(), ::testing::HasSubstr("matload fake GPU"));
  ASSERT_EQ(report["benchmarks"].size(), 6u) << report.dump(2);
  for (const nlohmann::json& form : report["benchmarks"]) {
    if (absl::StrContains(form["name"].get<std::string>(), "swept")) {
      EXPECT_TRUE(form["error_occurred"].get<bool>()) << form.dump(2);
      EXPECT_THAT(form["error_message"].get<std::string>(), ::testing::HasSubstr("no SMs"));
      continue;
    }
    EXPECT_THAT(form["name"].get<std::string>(), ::testing::HasSubstr("manual_time")) << form.dump(2);
    EXPECT_EQ(form["time_unit"], "s");
    EXPECT_GT(form["launches"].get<double>(), 0) << form.dump(2);
    EXPECT_GT(form["checked_executions"].get<double>(), 0);
    EXPECT_EQ(form["mismatches"].get<double>(), form["checked_executions"].get<double>());
    EXPECT_GT(form["checked_executions_per_s"].get<double>(), 0);
    EXPECT_EQ(form["judged_on_device"].get<double>(), 0) << form.dump(2);
  }
}

}  // namespace
}  // namespace matload
