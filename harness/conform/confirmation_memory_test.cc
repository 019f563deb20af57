#include "harness/conform/confirmation_memory.h"

#include <filesystem>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "reference/target.h"

namespace matload {
namespace {

class ConfirmationMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path = std::filesystem::path(::testing::TempDir()) /
                             (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".sqlite");
    std::filesystem::remove(path);
    absl::StatusOr<std::unique_ptr<VerdictCache>> cache = VerdictCache::Open(path);
    ASSERT_TRUE(cache.ok()) << cache.status();
    cache_ = *std::move(cache);
    options_.fault_memory = cache_.get();
    options_.run_directory = "runs/today";
    absl::StatusOr<std::unique_ptr<TestProgram>> program =
        TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, PtxVersion{9, 0}, {});
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = *std::move(program);
  }

  // ConfirmationOf is variant `index` of case "case-1", predicted by "entry-a".
  Confirmation ConfirmationOf(int index, CompilePath path = CompilePath::kDriverJit) const {
    return {.case_id = "case-1",
            .entry = "entry-a",
            .program = program_.get(),
            .path = path,
            .variant = program_->MakeVariant(3, index, false)};
  }

  std::unique_ptr<VerdictCache> cache_;
  ConformanceOptions options_;
  std::unique_ptr<TestProgram> program_;
  const std::vector<DeviceProbe> h100_ = {{.toolchain = "driver JIT CUDA 13.0; 580", .name = "NVIDIA H100"}};
};

TEST_F(ConfirmationMemoryTest, AKeptFaultIsRecalledForThatLaunchOnThatGpuAndDriver) {
  const ConfirmationMemory memory(options_, h100_);
  ASSERT_TRUE(memory.Keep(ConfirmationOf(5), "misaligned address (716)").ok());
  absl::StatusOr<std::optional<std::string>> recalled = memory.Recall(ConfirmationOf(5));
  ASSERT_TRUE(recalled.ok()) << recalled.status();
  EXPECT_EQ(recalled->value_or("none"), "misaligned address (716)");
  // Another variant is another launch.
  EXPECT_EQ(memory.Recall(ConfirmationOf(6)).value(), std::nullopt);
  // Another GPU model or driver remembers nothing of it.
  const std::vector<DeviceProbe> h200 = {{.toolchain = "driver JIT CUDA 13.0; 580", .name = "NVIDIA H200"}};
  EXPECT_EQ(ConfirmationMemory(options_, h200).Recall(ConfirmationOf(5)).value(), std::nullopt);
  const std::vector<DeviceProbe> newer_driver = {{.toolchain = "driver JIT CUDA 13.1; 590", .name = "NVIDIA H100"}};
  EXPECT_EQ(ConfirmationMemory(options_, newer_driver).Recall(ConfirmationOf(5)).value(), std::nullopt);
}

// An offline compiler's binary is no part of the key: its launches are
// neither kept nor recalled.
TEST_F(ConfirmationMemoryTest, AnOfflineCompilersLaunchIsNotRemembered) {
  const ConfirmationMemory memory(options_, h100_);
  ASSERT_TRUE(memory.Keep(ConfirmationOf(5, CompilePath::kPtxasCubin), "misaligned address (716)").ok());
  EXPECT_EQ(memory.Recall(ConfirmationOf(5, CompilePath::kPtxasCubin)).value(), std::nullopt);
  EXPECT_EQ(memory.Recall(ConfirmationOf(5)).value(), std::nullopt);
  EXPECT_EQ(cache_->kept(), 0u);
}

// A soak's earlier round answers first, on any compile path.
TEST_F(ConfirmationMemoryTest, AnEarlierRoundOfTheSoakIsRecalled) {
  const ConfirmedPredictions earlier = {{{"case-1", "entry-a"}, "illegal address (700)"}};
  options_.confirmed_earlier = &earlier;
  const ConfirmationMemory memory(options_, h100_);
  EXPECT_EQ(memory.Recall(ConfirmationOf(9, CompilePath::kPtxasCubin)).value(), "illegal address (700)");
}

// The memory's key is what earlier runs stored, so that a store keeps its
// memories across releases of matload: the GPU models and driver, and a
// question of the entry, the variant's record and the kernel, written out
// here by hand. An answer under it that does not read back is no memory.
TEST_F(ConfirmationMemoryTest, TheKeyIsWhatEarlierRunsStoredAndAGarbledAnswerIsNoMemory) {
  const Variant variant = program_->MakeVariant(3, 5, false);
  const std::vector<std::uint8_t> record = program_->Record(variant);
  const std::string question = absl::StrCat(
      "conform fault confirmation, one variant per launch\nentry entry-a\nrecord ",
      absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(record.data()), record.size())),
      "\nkernel\n", program_->kernel());
  const std::string identity = "NVIDIA H100; driver JIT CUDA 13.0; 580";
  const ConfirmationMemory memory(options_, h100_);
  ASSERT_TRUE(cache_->Keep(identity, {{question, R"({"fault": "stored by hand", "run": "r"})"}}).ok());
  EXPECT_EQ(memory.Recall(ConfirmationOf(5)).value(), "stored by hand");
  ASSERT_TRUE(cache_->Keep(identity, {{question, R"({"fault": 716})"}}).ok());
  EXPECT_EQ(memory.Recall(ConfirmationOf(5)).value(), std::nullopt);
  ASSERT_TRUE(cache_->Keep(identity, {{question, "not json"}}).ok());
  EXPECT_EQ(memory.Recall(ConfirmationOf(5)).value(), std::nullopt);
}

}  // namespace
}  // namespace matload
