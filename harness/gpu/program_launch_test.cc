#include "harness/gpu/program_launch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ProgramLaunchTest, EveryCompilePathRoundTripsThroughItsName) {
  for (CompilePath path : kCompilePaths) {
    absl::StatusOr<CompilePath> parsed = ParseCompilePath(CompilePathName(path));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, path);
  }
  absl::StatusOr<CompilePath> unknown = ParseCompilePath("nvcc-cubin");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(unknown.status().message(), HasSubstr("(driver-jit, ptxas-cubin, nvjitlink-cubin)"));
}

// The offline paths name their compilers as the discrepancy registry does.
TEST(ProgramLaunchTest, OfflinePathsNameTheirToolchains) {
  absl::StatusOr<std::string> ptxas = OfflineToolchain(CompilePath::kPtxasCubin);
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_THAT(*ptxas, StartsWith("ptxas "));
  absl::StatusOr<std::string> nvjitlink = OfflineToolchain(CompilePath::kNvJitLinkCubin);
  ASSERT_TRUE(nvjitlink.ok()) << nvjitlink.status();
  EXPECT_THAT(*nvjitlink, StartsWith("nvJitLink "));
  EXPECT_EQ(OfflineToolchain(CompilePath::kDriverJit).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
