#include "harness/conform/bundle_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "families/ldmatrix/ldmatrix_table.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"

namespace matload {
namespace {

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

class BundleWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), {9, 0}, Target{90})) {
      std::optional<CheckedInstruction> instruction = StandardInstruction(ldmatrix::Spec(), qualifiers, {9, 0}, Target{90});
      if (instruction->signature().destination_count == 4) {
        program_ = *TestProgram::For(*instruction, {});
        break;
      }
    }
    directory_ = ::testing::TempDir() + "/bundles-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(directory_);
  }

  // MismatchCase is variant `index` with lane 3's word 1 flipped in the output.
  BundleCase MismatchCase(int index) {
    BundleCase bundle_case{.program = program_.get(),
                           .variant = program_->Variants(index + 1, 5, false)[index],
                           .seed = 5,
                           .compile_path = "driver JIT",
                           .identity = "test"};
    bundle_case.expected = program_->Expect(bundle_case.variant);
    bundle_case.actual = ExpectedBytes(std::get<LaneValues>(bundle_case.expected));
    bundle_case.actual[(3 * 4 + 1) * 4] ^= 0xff;
    bundle_case.verdict = JudgeOutput(bundle_case.expected, bundle_case.actual);
    return bundle_case;
  }

  std::unique_ptr<TestProgram> program_;
  std::string directory_;
};

TEST_F(BundleWriterTest, ABundleHoldsEverythingToReproduce) {
  BundleWriter writer(directory_);
  absl::StatusOr<std::string> bundle = writer.Add(MismatchCase(1));
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  for (const char* file : {"case.json", "kernel.ptx", "record.bin", "expected.bin", "actual.bin", "diff.txt", "repro.cpp"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(*bundle) / file)) << file;
  }
  EXPECT_EQ(std::filesystem::file_size(std::filesystem::path(*bundle) / "record.bin"),
            static_cast<std::uintmax_t>(program_->frame().record_bytes));
  const std::string diff = ReadText(std::filesystem::path(*bundle) / "diff.txt");
  // The differing word, in element terms: lane 3's register 1 holds matrix 1's row 0 (lane 3 / 4), columns 6-7.
  EXPECT_NE(diff.find("\n3\t1\t"), std::string::npos) << diff;
  EXPECT_NE(diff.find("m1(0,6) via lane 8"), std::string::npos) << diff;
  const std::string description = ReadText(std::filesystem::path(*bundle) / "case.json");
  EXPECT_NE(description.find("\"outcome\": \"mismatch\""), std::string::npos);
  EXPECT_NE(description.find("\"index\": 1"), std::string::npos);
}

TEST_F(BundleWriterTest, CasesWithOneSignatureShareOneBundle) {
  BundleWriter writer(directory_);
  const std::string first = *writer.Add(MismatchCase(1));
  const std::string second = *writer.Add(MismatchCase(2));
  EXPECT_EQ(first, second);
  BundleCase fault = MismatchCase(3);
  fault.actual.clear();
  fault.verdict = JudgeFault(fault.expected, "cuCtxSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)", "");
  const std::string third = *writer.Add(fault);
  EXPECT_NE(third, first);
  EXPECT_EQ(writer.distinct(), 2u);
  EXPECT_EQ(writer.cases(), 0u);  // cases count when the run records them
  writer.Count(first, 2);
  writer.Count(third, 1);
  EXPECT_EQ(writer.cases(), 3u);
  ASSERT_TRUE(writer.WriteIndex().ok());
  const std::string index = ReadText(std::filesystem::path(directory_) / "index.tsv");
  EXPECT_NE(index.find("ldmatrix/mismatch/other-1-words-"), std::string::npos) << index;
  EXPECT_NE(index.find("ldmatrix/unexpected-fault/cuCtxSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)\t1\t"),
            std::string::npos)
      << index;
}

TEST_F(BundleWriterTest, StateRestoresNumberingAndCounts) {
  BundleWriter writer(directory_);
  const std::string first = *writer.Add(MismatchCase(1));
  writer.Count(first, 4);
  BundleWriter resumed(directory_);
  ASSERT_TRUE(resumed.Restore(writer.State()).ok());
  EXPECT_EQ(resumed.cases(), 4u);
  EXPECT_EQ(*resumed.Add(MismatchCase(2)), first);
  BundleCase fault = MismatchCase(3);
  fault.actual.clear();
  fault.verdict = JudgeFault(fault.expected, "cuCtxSynchronize: CUDA_ERROR_MISALIGNED_ADDRESS (716)", "");
  EXPECT_EQ(*resumed.Add(fault), *writer.Add(fault));  // the same number after a restore
  EXPECT_EQ(resumed.Restore(nlohmann::json::array({1, 2})).code(), absl::StatusCode::kDataLoss);
}

TEST_F(BundleWriterTest, AnUnwritableDirectoryIsAnError) {
  BundleWriter writer("/proc/matload-cannot-write-here");
  absl::StatusOr<std::string> bundle = writer.Add(MismatchCase(1));
  EXPECT_EQ(bundle.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(bundle.status().message().find("/proc/matload-cannot-write-here"), std::string::npos);
}

}  // namespace
}  // namespace matload
