#include "harness/platform/output_files.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
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

TEST(OutputFilesTest, WriteFileToAMissingDirectoryIsTheUsersError) {
  const absl::Status status = WriteFile("/nonexistent-matload-dir/x.txt", "x");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), ::testing::HasSubstr("/nonexistent-matload-dir/x.txt"));
}

// A write that fails part way (here the file-size limit, as a full disk
// would) names the file and leaves the old one whole: no reader ever sees
// a truncated result.
TEST(OutputFilesTest, AFailedWriteKeepsTheOldFileWhole) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "output_files_test_kept.txt";
  ASSERT_TRUE(WriteFile(path, "the published result").ok());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{.rlim_cur = 4096, .rlim_max = 4096};
    setrlimit(RLIMIT_FSIZE, &limit);
    const absl::Status status = WriteFile(path, std::string(100000, 'x'));
    const bool named = absl::StrContains(status.message(), path.string());
    _exit(status.code() == absl::StatusCode::kDataLoss && named ? 0 : 1);
  }
  int wait_status = 0;
  waitpid(child, &wait_status, 0);
  EXPECT_TRUE(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0);
  std::ifstream file(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(file), {}), "the published result");
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path())) {
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(::testing::HasSubstr("kept.txt.tmp")));
  }
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

}  // namespace
}  // namespace matload
