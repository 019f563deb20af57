// End-to-end: the built binary, its exit codes and its messages on bad input.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/subprocess.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

ProcessResult Matload(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), MATLOAD_BINARY);
  absl::StatusOr<ProcessResult> result = RunProcess(arguments);
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

}  // namespace
}  // namespace matload
