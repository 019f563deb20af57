#include "harness/platform/input_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// Fresh is an empty path of the test's temporary directory named `name`.
fs::path Fresh(const std::string& name) {
  const fs::path path = fs::path(::testing::TempDir()) / ("input_files_test_" + name);
  fs::remove_all(path);
  return path;
}

TEST(InputFilesTest, ReadsAWholeFileByteForByte) {
  const fs::path path = Fresh("bytes.bin");
  std::ofstream(path, std::ios::binary) << std::string("a\0b\n", 4);
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, std::string("a\0b\n", 4));
}

TEST(InputFilesTest, AMissingFileIsNotFoundNamingIt) {
  const fs::path path = Fresh("missing.tsv");
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(bytes.status().message(), HasSubstr(path.string()));
}

// A directory where a file belongs (a run directory's coverage.tsv made a
// directory) is an error, where an ifstream threw std::ios_base::failure.
TEST(InputFilesTest, ADirectoryIsRefusedNamingIt) {
  const fs::path path = Fresh("coverage.tsv");
  fs::create_directories(path);
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(bytes.status().message(), HasSubstr(path.string() + " is a directory, not a regular file"));
}

// A FIFO is refused at once: no reader waits for a writer that never comes.
TEST(InputFilesTest, AFifoIsRefusedWithoutWaitingForAWriter) {
  const fs::path path = Fresh("fifo.tsv");
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  std::promise<absl::StatusOr<std::string>> read;
  std::future<absl::StatusOr<std::string>> answer = read.get_future();
  std::thread reader([&] { read.set_value(ReadFileBytes(path)); });
  const bool answered = answer.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!answered) close(open(path.c_str(), O_WRONLY | O_NONBLOCK));  // a writer, to let the waiting reader go
  reader.join();
  ASSERT_TRUE(answered) << "ReadFileBytes waited for the FIFO's writer";
  const absl::StatusOr<std::string> bytes = answer.get();
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(bytes.status().message(), HasSubstr("is a FIFO"));
}

// A symlink is refused as what it points at: /dev/zero's endless bytes are
// never read (they were, until std::bad_alloc).
TEST(InputFilesTest, ASymlinkToADeviceIsRefused) {
  const fs::path path = Fresh("zero.tsv");
  fs::create_symlink("/dev/zero", path);
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(bytes.status().message(), HasSubstr("is a character device"));
}

// A file beyond the bound is refused before a byte of it is read (a sparse
// one here, which takes no disk).
TEST(InputFilesTest, AFileBeyondTheBoundIsRefused) {
  const fs::path path = Fresh("huge.bin");
  std::ofstream(path).close();
  fs::resize_file(path, static_cast<std::uintmax_t>(kMaxInputFileBytes) + 1);
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  fs::remove(path);
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(bytes.status().message(), HasSubstr("more than the 256 MiB"));
}

}  // namespace
}  // namespace matload
