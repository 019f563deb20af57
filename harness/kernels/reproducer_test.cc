#include "harness/kernels/reproducer.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

// The reproducer compiles and links against the toolkit's cuda.h and
// libcuda (the stub here: linking needs no GPU). Running it needs a GPU;
// the conformance device test runs the bundles' reproducers.
TEST(ReproducerTest, CompilesWithOnlyCudaH) {
  const std::string cuda = std::getenv("CUDA_HOME") != nullptr ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
  const std::string directory = ::testing::TempDir() + "/reproducer";
  std::filesystem::create_directories(directory);
  std::ofstream(directory + "/repro.cpp") << ReproducerSource("ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                                                             "matload_ldmatrix", {272, 4096, 512, true});
  absl::StatusOr<ProcessResult> built =
      RunProcess({"g++", "-std=c++17", "-Wall", "-Werror", "-I" + cuda + "/include", directory + "/repro.cpp", "-o",
                  directory + "/repro", "-L" + cuda + "/lib64/stubs", "-lcuda"},
                 std::chrono::seconds(120));
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(built->exit_code, 0) << built->standard_error;
}

TEST(ReproducerTest, NamesTheFormAndTheKernelSizes) {
  const std::string source = ReproducerSource("wmma.load.a.sync.aligned.row.m16n16k16.f16", "matload_wmma_load",
                                              {32, 16384, 1024, true});
  EXPECT_NE(source.find("//   wmma.load.a.sync.aligned.row.m16n16k16.f16\n"), std::string::npos);
  EXPECT_NE(source.find("\"matload_wmma_load\""), std::string::npos);
  EXPECT_NE(source.find("scratch_bytes = 16384;"), std::string::npos);
  EXPECT_NE(source.find("output_bytes = 1024;"), std::string::npos);
  EXPECT_EQ(source.find('@'), std::string::npos);
}

}  // namespace
}  // namespace matload
