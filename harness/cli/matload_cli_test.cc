// End-to-end: the built binary, its exit codes and its messages on bad input.
#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/exit_status.h"
#include "harness/source_tree.h"
#include "harness/subprocess.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

ProcessResult Matload(std::vector<std::string> arguments, const std::vector<std::string>& environment = {}) {
  arguments.insert(arguments.begin(), MATLOAD_BINARY);
  absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(600), environment);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

TEST(MatloadCliTest, ChecksASnippet) {
  ProcessResult result = Matload({"check", "--target", "sm_90", "--ptx", "9.0",
                                  "ldmatrix.sync.aligned.m8n8.x4.trans.b16 {a, b, c, d}, [p];"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.standard_output, "legal\n");
}

TEST(MatloadCliTest, ChecksManyTargetsAsJson) {
  ProcessResult result = Matload({"check", "--target", "all", "--json", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.standard_output, HasSubstr(R"("target":"sm_100a","verdict":"legal")"));
  EXPECT_THAT(result.standard_output, HasSubstr(R"("target":"sm_120a","verdict":"illegal")"));
}

TEST(MatloadCliTest, PrintsForms) {
  ProcessResult result = Matload({"forms", "--target", "sm_75", "--ptx", "6.5"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.standard_output, HasSubstr("ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];\n"));
}

TEST(MatloadCliTest, BadInputGetsAClearMessageAndNonzeroExit) {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  for (const Case& bad : std::vector<Case>{
           {{"check", "--target", "sm_91", "x;"}, "--target: unknown target 'sm_91'"},
           {{"check", "--target", "sm_90", "--ptx", "6.9", "x;"}, "--ptx: unknown PTX ISA version '6.9'"},
           {{"check", "--target", "sm_90"}, "check needs one snippet argument"},
           {{"check", "--target", "sm_90", "--file", "/nonexistent"}, "cannot read snippet file /nonexistent"},
           {{"forms", "--target", "sm_90,sm_80"}, "forms takes exactly one --target"},
           {{"forms", "--target", "sm_110a", "--ptx", "8.8"}, "does not exist in PTX ISA 8.8"},
           {{"frobnicate"}, "unknown command 'frobnicate'"},
           {{}, "no command"},
       }) {
    ProcessResult result = Matload(bad.arguments);
    EXPECT_EQ(result.exit_code, 2) << bad.message;
    EXPECT_THAT(result.standard_error, HasSubstr(bad.message));
  }
  ProcessResult unknown_flag = Matload({"check", "--no-such-flag"});
  EXPECT_NE(unknown_flag.exit_code, 0);
  EXPECT_THAT(unknown_flag.standard_error, HasSubstr("no-such-flag"));
}

// Without a driver matload says so and exits 3; with one it lists devices.
TEST(MatloadCliTest, DevicesSaysWhetherAGpuIsThere) {
  ProcessResult result = Matload({"devices"});
  if (result.exit_code == 3) {
    EXPECT_THAT(result.standard_output, HasSubstr("compile-only mode"));
  } else {
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_THAT(result.standard_output, HasSubstr("device 0: "));
  }
}

TEST(MatloadCliTest, SupportRejectsBadOptions) {
  ProcessResult compiler = Matload({"support", "--compiler", "gcc"});
  EXPECT_EQ(compiler.exit_code, 2);
  EXPECT_THAT(compiler.standard_error, HasSubstr("unknown compiler 'gcc'"));
  ProcessResult target = Matload({"support", "--target", "sm_101a"});
  EXPECT_EQ(target.exit_code, 2);
  EXPECT_THAT(target.standard_error, HasSubstr(".target sm_101a does not exist in PTX ISA 9.0"));
  ProcessResult ptxas = Matload({"support", "--ptxas", "/nonexistent/ptxas", "--target", "sm_90"});
  EXPECT_EQ(ptxas.exit_code, 2);
  EXPECT_THAT(ptxas.standard_error, HasSubstr("cannot run /nonexistent/ptxas"));
}

TEST(MatloadCliTest, MalformedSnippetsAreVerdictsNotCrashes) {
  for (const char* garbage : {"", "{{{{", "ldmatrix.sync [", "@", "wmma.load.a {x}, [p+];", "\xff\xfe;"}) {
    ProcessResult result = Matload({"check", "--target", "sm_90", garbage});
    EXPECT_EQ(result.exit_code, 0) << garbage;
    EXPECT_THAT(result.standard_output, HasSubstr("illegal: ")) << garbage;
  }
}

// SupportWithFakePtxas runs `matload support --target sm_90` with
// harness/testing/fake_ptxas.sh in `mode`, into a fresh directory `out`.
ProcessResult SupportWithFakePtxas(const std::string& mode, const std::string& out) {
  std::filesystem::remove_all(out);
  return Matload({"support", "--target", "sm_90", "--ptxas", SourceTreePath("harness/testing/fake_ptxas.sh"),
                  "--out", out},
                 {"MATLOAD_FAKE_PTXAS=" + mode});
}

// A compiler that crashed, printed nothing or what cannot be read, accepted
// the canary or rejected the empty module ends the sweep with exit 4 and
// no report: no verdict it could not reach is published.
TEST(MatloadCliTest, SupportExitsFourWithoutAReportWhenTheCompilerCannotJudge) {
  for (const auto& [mode, cause] : std::vector<std::pair<std::string, std::string>>{
           {"crash", "compiler crashed"},
           {"silent", "compiler output not understood"},
           {"garbage", "compiler output not understood"},
           {"accept-all", "must be rejected"},
           {"reject", "rejected an empty module"}}) {
    const std::string out = ::testing::TempDir() + "/support-" + mode;
    ProcessResult result = SupportWithFakePtxas(mode, out);
    EXPECT_EQ(result.exit_code, kExitInfrastructure) << mode << ": " << result.standard_error;
    EXPECT_THAT(result.standard_error, HasSubstr(cause)) << mode;
    EXPECT_FALSE(std::filesystem::exists(out + "/support.json")) << mode << " wrote a report of verdicts it lacks";
  }
}

// Lines ptxas does not print (a loader's warning, a 100 KB line) change no
// verdict: sm_90 has no unexplained disagreement with ptxas 13.0.88
// (reports/support/ptxas-13.0.88/ptx9.0/support.md).
TEST(MatloadCliTest, SupportIsCleanDespiteAnExtraStderrLine) {
  const std::string out = ::testing::TempDir() + "/support-extra-line";
  ProcessResult result = SupportWithFakePtxas("extra-line", out);
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_error;
  EXPECT_THAT(result.standard_output, HasSubstr(" 0 unexplained"));
  EXPECT_THAT(result.standard_error, HasSubstr("printed a line not in its diagnostic format: ERROR: ld.so"));
  EXPECT_TRUE(std::filesystem::exists(out + "/support.json"));
}

TEST(MatloadCliTest, SupportIsCleanDespiteAHundredKilobyteLine) {
  ProcessResult result = SupportWithFakePtxas("long-line", ::testing::TempDir() + "/support-long-line");
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_error.substr(0, 2000);
  EXPECT_THAT(result.standard_output, HasSubstr(" 0 unexplained"));
}

// Unexplained disagreements are findings: exit 1, with the report written.
TEST(MatloadCliTest, SupportExitsOneOnUnexplainedDisagreements) {
  const std::string out = ::testing::TempDir() + "/support-reject-ldmatrix";
  ProcessResult result = SupportWithFakePtxas("reject-ldmatrix", out);
  EXPECT_EQ(result.exit_code, kExitFindings) << result.standard_error;
  EXPECT_THAT(result.standard_output, ::testing::Not(HasSubstr(" 0 unexplained")));
  EXPECT_TRUE(std::filesystem::exists(out + "/support.json"));
}

}  // namespace
}  // namespace matload
