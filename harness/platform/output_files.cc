#include "harness/platform/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/infrastructure.h"

namespace matload {

namespace {

// WriteFailure is why `path` could not be written: a path that cannot be
// written there (no such directory, no permission, a directory in the way,
// a read-only file system) is kFailedPrecondition, the user's choice (exit
// status 2); a disk that is full or failed is an InfrastructureError
// kOutOfDisk (exit status 4); anything else kDataLoss. All name the file.
absl::Status WriteFailure(const std::filesystem::path& path, int error) {
  const std::string message = absl::StrCat("cannot write ", path.string(), ": ", std::strerror(error));
  for (int unwritable : {ENOENT, EACCES, EPERM, EISDIR, ENOTDIR, EROFS, ENAMETOOLONG}) {
    if (error == unwritable) return absl::FailedPreconditionError(message);
  }
  if (error == ENOSPC || error == EIO || error == EDQUOT) {
    return InfrastructureError(InfrastructureCause::kOutOfDisk, message);
  }
  return absl::DataLossError(message);
}

// WriteAll writes `text` to descriptor `fd` and flushes it to the disk,
// returning 0 or the errno of what failed.
int WriteAll(int fd, absl::string_view text) {
  while (!text.empty()) {
    const ssize_t written = write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return errno;
    text.remove_prefix(static_cast<size_t>(written));
  }
  return fsync(fd) == 0 ? 0 : errno;
}

}  // namespace

absl::Status WriteFile(const std::filesystem::path& path, absl::string_view text) {
  const std::filesystem::path temporary = absl::StrCat(path.string(), ".tmp-", getpid());
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return WriteFailure(path, errno);
  const int error = WriteAll(fd, text);
  if (close(fd) != 0 || error != 0) {
    const int failed = error != 0 ? error : errno;
    unlink(temporary.c_str());
    return WriteFailure(path, failed);
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    const int failed = errno;
    unlink(temporary.c_str());
    return WriteFailure(path, failed);
  }
  return absl::OkStatus();
}

absl::Status CreateDirectories(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (!error && std::filesystem::is_directory(path, error)) return absl::OkStatus();
  if (!error) error = std::make_error_code(std::errc::not_a_directory);
  const std::string message = absl::StrCat("cannot create directory ", path.string(), ": ", error.message());
  if (error == std::errc::no_space_on_device || error == std::errc::io_error || error.value() == EDQUOT) {
    return InfrastructureError(InfrastructureCause::kOutOfDisk, message);
  }
  return absl::FailedPreconditionError(message);
}

std::string Slug(absl::string_view text) {
  std::string slug;
  for (char c : text) slug.push_back(absl::ascii_isalnum(static_cast<unsigned char>(c)) ? c : '-');
  return slug;
}

}  // namespace matload
