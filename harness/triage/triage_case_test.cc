#include "harness/triage/triage_case.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/conform/bundle_writer.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

class TriageCaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp") /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    absl::StatusOr<std::unique_ptr<TestProgram>> program =
        TestProgram::ForOpcode("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8", *ParseTarget("sm_90"),
                               *ParsePtxVersion("9.0"), {.shared_address_bits = 32});
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = *std::move(program);
  }

  // Bundle files variant `index` of seed 7 as a conform run would.
  std::filesystem::path Bundle(int index) {
    BundleWriter writer((root_ / "bundles").string());
    const Variant variant = program_->MakeVariant(7, index, false);
    absl::StatusOr<std::string> directory =
        writer.Add({.program = program_.get(),
                    .variant = variant,
                    .seed = 7,
                    .compile_path = "driver-jit",
                    .identity = "NVIDIA H100 80GB HBM3, GPU-1, driver JIT CUDA 13.0",
                    .verdict = {CaseClass::kUnexpectedFault, {}, "misaligned address (716)"},
                    .expected = program_->Expect(variant)});
    EXPECT_TRUE(directory.ok()) << directory.status();
    return *directory;
  }

  std::filesystem::path root_;
  std::unique_ptr<TestProgram> program_;
};

TEST_F(TriageCaseTest, TakesBackTheFormTheAddressWidthAndTheVariant) {
  absl::StatusOr<TriageCase> triage_case = ReadTriageCase(Bundle(5));
  ASSERT_TRUE(triage_case.ok()) << triage_case.status();
  EXPECT_EQ(triage_case->program->Label(), program_->Label());
  EXPECT_EQ(triage_case->program->options().shared_address_bits, 32);
  EXPECT_EQ(triage_case->seed, 7u);
  EXPECT_EQ(triage_case->variant.index, 5);
  EXPECT_EQ(triage_case->program->Record(triage_case->variant), program_->Record(program_->MakeVariant(7, 5, false)));
  EXPECT_TRUE(triage_case->kernel_is_matloads);
  EXPECT_EQ(triage_case->recorded_outcome, "unexpected fault");
  EXPECT_EQ(triage_case->recorded_detail, "misaligned address (716)");
}

TEST_F(TriageCaseTest, ARecordThatIsNotTheVariantItsKeyNamesIsBadInput) {
  const std::filesystem::path bundle = Bundle(5);
  std::ofstream(bundle / "record.bin", std::ios::binary | std::ios::app) << "x";
  const absl::StatusOr<TriageCase> triage_case = ReadTriageCase(bundle);
  EXPECT_EQ(triage_case.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(triage_case.status().message(), HasSubstr("record.bin is not variant 5 of seed 7"));
}

TEST_F(TriageCaseTest, AKernelMatloadDidNotBuildIsSaidAndKept) {
  const std::filesystem::path bundle = Bundle(2);
  std::ofstream(bundle / "kernel.ptx", std::ios::app) << "// edited\n";
  absl::StatusOr<TriageCase> triage_case = ReadTriageCase(bundle);
  ASSERT_TRUE(triage_case.ok()) << triage_case.status();
  EXPECT_FALSE(triage_case->kernel_is_matloads);
  EXPECT_THAT(triage_case->kernel, HasSubstr("// edited"));
}

TEST_F(TriageCaseTest, ADirectoryThatIsNoBundleIsBadInput) {
  std::filesystem::create_directories(root_ / "empty");
  EXPECT_EQ(ReadTriageCase(root_ / "empty").status().code(), absl::StatusCode::kInvalidArgument);
  const std::filesystem::path bundle = Bundle(1);
  std::ofstream(bundle / "case.json") << "{\"form\": 3}";
  EXPECT_EQ(ReadTriageCase(bundle).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
