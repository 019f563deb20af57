#include "harness/gpu/nvjitlink.h"

#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"
#include "harness/families/test_program.h"
#include "reference/enumerate.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(NvJitLinkTest, ReportsAMissingLibrary) {
  absl::StatusOr<std::unique_ptr<NvJitLink>> missing = NvJitLink::Open("/nonexistent/libnvJitLink.so");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("/nonexistent/libnvJitLink.so"));
}

TEST(NvJitLinkTest, JudgesModulesInProcess) {
  absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
  ASSERT_TRUE(nvjitlink.ok()) << nvjitlink.status();
  EXPECT_THAT((*nvjitlink)->Version(), ::testing::MatchesRegex("[0-9]+\\.[0-9]+"));
  EXPECT_TRUE((*nvjitlink)->Supports(*ParseTarget("sm_90")));
  EXPECT_FALSE((*nvjitlink)->Supports(*ParseTarget("sm_70"))) << "CUDA 13 has no Volta code generation";
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
      CheckSnippets(**nvjitlink,
                    {*ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
                     *ParseSnippet("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];")},
                    {9, 0}, *ParseTarget("sm_90"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_TRUE((*verdicts)[0].accepted);
  EXPECT_FALSE((*verdicts)[1].accepted);
  EXPECT_THAT((*verdicts)[1].messages[0], HasSubstr("Unknown modifier '.x3'"));
}

// The library is known by the file that loaded, even when found by soname:
// the file the verdict cache hashes.
TEST(NvJitLinkTest, NamesTheFileThatLoaded) {
  {
    absl::StatusOr<std::unique_ptr<NvJitLink>> by_path = NvJitLink::Open("/usr/local/cuda/lib64/libnvJitLink.so");
    ASSERT_TRUE(by_path.ok()) << by_path.status();
    EXPECT_EQ((*by_path)->library_file(), "/usr/local/cuda/lib64/libnvJitLink.so");
  }
  absl::StatusOr<std::unique_ptr<NvJitLink>> by_soname = NvJitLink::Open("libnvJitLink.so.13");
  if (!by_soname.ok()) GTEST_SKIP() << "libnvJitLink.so.13 is not on the loader's path: " << by_soname.status();
  EXPECT_THAT((*by_soname)->library_file(), ::testing::MatchesRegex("/.*/libnvJitLink\\.so\\.13"));
}

// The nvjitlink-cubin compile path: an ELF cubin that defines the kernel,
// or the error log of a module it rejects.
TEST(NvJitLinkTest, CompilesKernelsToCubins) {
  absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
  ASSERT_TRUE(nvjitlink.ok()) << nvjitlink.status();
  absl::StatusOr<std::unique_ptr<TestProgram>> program =
      TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", *ParseTarget("sm_90"), {9, 0}, {});
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<std::string> cubin = (*nvjitlink)->CompileToCubin((*program)->kernel(), *ParseTarget("sm_90"));
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_EQ(cubin->substr(0, 4), "\x7f" "ELF");
  EXPECT_THAT(*cubin, HasSubstr((*program)->entry()));

  std::string broken = (*program)->kernel();
  broken.replace(broken.find(".x4"), 3, ".x3");
  absl::StatusOr<std::string> rejected = (*nvjitlink)->CompileToCubin(broken, *ParseTarget("sm_90"));
  EXPECT_EQ(rejected.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(rejected.status().message(), HasSubstr("Unknown modifier '.x3'"));
}

// Two compilers of one toolkit: nvJitLink's verdicts equal ptxas's on a random
// sample of legal and near-miss forms.
TEST(NvJitLinkTest, AgreesWithPtxas) {
  absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
  ASSERT_TRUE(nvjitlink.ok()) << nvjitlink.status();
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  for (const char* name : {"sm_90", "sm_103a"}) {
    const Target target = *ParseTarget(name);
    std::vector<Snippet> sample;
    for (const Form& form : LegalForms({9, 0}, target)) sample.push_back({StandardRegisterFile(), ToRaw(form)});
    for (RawInstruction& raw : NearMissInstructions({9, 0}, target)) sample.push_back({StandardRegisterFile(), raw});
    std::shuffle(sample.begin(), sample.end(), std::mt19937(11));
    sample.resize(1500);
    absl::StatusOr<std::vector<CompilerVerdict>> from_nvjitlink = CheckSnippets(**nvjitlink, sample, {9, 0}, target);
    absl::StatusOr<std::vector<CompilerVerdict>> from_ptxas = CheckSnippets(*ptxas, sample, {9, 0}, target);
    ASSERT_TRUE(from_nvjitlink.ok()) << from_nvjitlink.status();
    ASSERT_TRUE(from_ptxas.ok()) << from_ptxas.status();
    for (size_t i = 0; i < sample.size(); ++i) {
      EXPECT_EQ((*from_nvjitlink)[i].accepted, (*from_ptxas)[i].accepted) << name << ": " << PrintRaw(sample[i].instruction);
    }
  }
}

}  // namespace
}  // namespace matload
