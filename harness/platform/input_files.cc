#include "harness/platform/input_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace matload {
namespace {

// kReadChunk is how many bytes one read(2) asks for.
constexpr size_t kReadChunk = 64 << 10;

// KindOf names what a file of `mode` is, for a path that is no regular file.
absl::string_view KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "no regular file";
}

// CannotRead is the error of an open(2) or fstat(2) of `path` that just
// failed: the code of its errno, which is taken before anything can change it.
absl::Status CannotRead(const std::filesystem::path& path) {
  const int error = errno;
  return absl::ErrnoToStatus(error, absl::StrCat("cannot read ", path.string()));
}

// TooLarge is the error for `path`, which holds more than kMaxInputFileBytes.
absl::Status TooLarge(const std::filesystem::path& path) {
  return absl::ResourceExhaustedError(
      absl::StrCat(path.string(), " holds more than the ", kMaxInputFileBytes >> 20, " MiB matload reads of one file"));
}

}  // namespace

absl::StatusOr<std::string> ReadFileBytes(const std::filesystem::path& path) {
  // O_NONBLOCK opens a FIFO without waiting for a writer, so that fstat can refuse it.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return CannotRead(path);
  const absl::Cleanup closed = [fd] { close(fd); };
  struct stat info {};
  if (fstat(fd, &info) != 0) return CannotRead(path);
  if (!S_ISREG(info.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path.string(), " is ", KindOf(info.st_mode), ", not a regular file"));
  }
  if (info.st_size > kMaxInputFileBytes) return TooLarge(path);
  std::string bytes;
  bytes.reserve(static_cast<size_t>(info.st_size));
  char chunk[kReadChunk];
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0) {
      const int error = errno;
      if (error == EINTR) continue;
      return absl::DataLossError(absl::StrCat("reading ", path.string(), ": ", strerror(error)));
    }
    if (got == 0) return bytes;
    // A file that grows while it is read, or that stat gives no size (/proc), is held to the bound too.
    if (bytes.size() + static_cast<size_t>(got) > static_cast<size_t>(kMaxInputFileBytes)) return TooLarge(path);
    bytes.append(chunk, static_cast<size_t>(got));
  }
}

}  // namespace matload
