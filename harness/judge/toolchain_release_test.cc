#include "harness/judge/toolchain_release.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

// ParsedOrDie is `toolchain` parsed; the test fails on a name that does not parse.
ToolchainRelease ParsedOrDie(absl::string_view toolchain) {
  std::optional<ToolchainRelease> parsed = ParseToolchainRelease(toolchain);
  EXPECT_TRUE(parsed.has_value()) << toolchain;
  return parsed.value_or(ToolchainRelease{});
}

TEST(ToolchainReleaseTest, SplitsEveryNameTheRegistryUses) {
  EXPECT_EQ(ParsedOrDie("ptxas 13.0.88").tool, "ptxas");
  EXPECT_THAT(ParsedOrDie("ptxas 13.0.88").release, ElementsAre(13, 0, 88));
  EXPECT_EQ(ParsedOrDie("nvJitLink 13.0").tool, "nvJitLink");
  const ToolchainRelease driver = ParsedOrDie("driver JIT CUDA 13.0; 580.159.04");
  EXPECT_EQ(driver.tool, "driver JIT CUDA");
  EXPECT_THAT(driver.release, ElementsAre(13, 0)) << "the driver's own version is not the release";
  EXPECT_EQ(ParseToolchainRelease("ptxas"), std::nullopt) << "no release";
  EXPECT_EQ(ParseToolchainRelease("13.0.88"), std::nullopt) << "no tool";
}

TEST(ToolchainReleaseTest, ReleasesOfOneToolCompareAsNumbers) {
  EXPECT_THAT(ReleaseNumbers("12.10.1"), ElementsAre(12, 10, 1));
  EXPECT_TRUE(Reaches(ParsedOrDie("ptxas 12.10.1"), ParsedOrDie("ptxas 12.9.86")));
  EXPECT_FALSE(Reaches(ParsedOrDie("ptxas 12.9.86"), ParsedOrDie("ptxas 12.10.1")));
  EXPECT_TRUE(Reaches(ParsedOrDie("ptxas 13.0.88"), ParsedOrDie("ptxas 13.0.88")));
}

// A release named in part ("ptxas 13.0") stands for every release it starts.
TEST(ToolchainReleaseTest, APartlyNamedReleaseComparesOnItsOwnNumbers) {
  EXPECT_TRUE(IsRelease(ParsedOrDie("ptxas 13.0.88"), ParsedOrDie("ptxas 13.0")));
  EXPECT_FALSE(IsRelease(ParsedOrDie("ptxas 13.0.88"), ParsedOrDie("ptxas 13.0.76")));
  EXPECT_TRUE(Reaches(ParsedOrDie("ptxas 13.0.1"), ParsedOrDie("ptxas 13.0")));
  EXPECT_TRUE(Reaches(ParsedOrDie("ptxas 13.1.5"), ParsedOrDie("ptxas 13.0")));
  EXPECT_FALSE(Reaches(ParsedOrDie("ptxas 12.9.86"), ParsedOrDie("ptxas 13.0")));
}

TEST(ToolchainReleaseTest, TwoToolsNeverCompare) {
  EXPECT_FALSE(Reaches(ParsedOrDie("nvJitLink 13.6"), ParsedOrDie("ptxas 13.0.88")));
  EXPECT_FALSE(IsRelease(ParsedOrDie("nvJitLink 13.0"), ParsedOrDie("ptxas 13.0")));
  EXPECT_FALSE(Reaches(ParsedOrDie("driver JIT CUDA 13.6"), ParsedOrDie("ptxas 13.0")));
}

}  // namespace
}  // namespace matload
