#include "harness/output_files.h"

#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(OutputFilesTest, WriteFileReplacesTheFile) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "output_files_test.txt";
  ASSERT_TRUE(WriteFile(path, "first, longer text").ok());
  ASSERT_TRUE(WriteFile(path, std::string("sec\0nd", 6)).ok());
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(), std::string("sec\0nd", 6));
}

TEST(OutputFilesTest, WriteFileToAMissingDirectoryIsDataLoss) {
  const absl::Status status = WriteFile("/nonexistent-matload-dir/x.txt", "x");
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), ::testing::HasSubstr("/nonexistent-matload-dir/x.txt"));
}

TEST(OutputFilesTest, CreateDirectoriesMakesParentsAndAcceptsAnExistingDirectory) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "output_files_test_dir" / "a" / "b";
  std::filesystem::remove_all(path.parent_path());
  ASSERT_TRUE(CreateDirectories(path).ok());
  EXPECT_TRUE(std::filesystem::is_directory(path));
  EXPECT_TRUE(CreateDirectories(path).ok());
}

TEST(OutputFilesTest, CreateDirectoriesWhereAFileIsIsAFailedPreconditionNamingIt) {
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) / "output_files_test_file";
  ASSERT_TRUE(WriteFile(file, "x").ok());
  for (const std::filesystem::path& path : {file, file / "below"}) {
    const absl::Status status = CreateDirectories(path);
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << path;
    EXPECT_THAT(status.message(), ::testing::HasSubstr(path.string()));
  }
}

TEST(OutputFilesTest, SlugKeepsLettersAndDigits) {
  EXPECT_EQ(Slug("wmma.load/mismatch sm_90a"), "wmma-load-mismatch-sm-90a");
}

TEST(OutputFilesTest, StableHashIsFnv1a) {
  // Published FNV-1a 32-bit test vectors.
  EXPECT_EQ(StableHash(""), 0x811c9dc5u);
  EXPECT_EQ(StableHash("a"), 0xe40c292cu);
  EXPECT_EQ(StableHash("foobar"), 0xbf9cf968u);
}

}  // namespace
}  // namespace matload
