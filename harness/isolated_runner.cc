#include "harness/isolated_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// A record on the pipe: item index, kind, payload length, payload.
struct RecordHeader {
  std::int32_t item;
  std::int32_t kind;
  std::uint64_t length;
};

bool WriteAll(int fd, const void* data, size_t length) {
  const char* at = static_cast<const char*>(data);
  while (length > 0) {
    const ssize_t written = write(fd, at, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    at += written;
    length -= static_cast<size_t>(written);
  }
  return true;
}

// Worker runs items from `first` on, writing a record for each, and exits
// after the first error: its CUDA context may be unusable.
[[noreturn]] void Worker(int fd, int first, int count, const std::function<absl::StatusOr<std::string>(int)>& work) {
  for (int item = first; item < count; ++item) {
    absl::StatusOr<std::string> result = work(item);
    const std::string payload = result.ok() ? *result : result.status().ToString();
    const RecordHeader header{item, static_cast<std::int32_t>(result.ok() ? ItemResult::Kind::kDone : ItemResult::Kind::kFailed),
                              payload.size()};
    if (!WriteAll(fd, &header, sizeof header) || !WriteAll(fd, payload.data(), payload.size())) _exit(4);
    if (!result.ok()) _exit(3);
  }
  _exit(0);
}

// Reader accumulates the pipe's bytes and yields whole records.
class Reader {
 public:
  void Append(const char* data, size_t length) { buffer_.append(data, length); }
  bool Next(RecordHeader& header, std::string& payload) {
    if (buffer_.size() < sizeof header) return false;
    std::memcpy(&header, buffer_.data(), sizeof header);
    if (buffer_.size() < sizeof header + header.length) return false;
    payload = buffer_.substr(sizeof header, header.length);
    buffer_.erase(0, sizeof header + header.length);
    return true;
  }

 private:
  std::string buffer_;
};

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) return absl::StrCat("the worker died of signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)), ")");
  return absl::StrCat("the worker exited with status ", WEXITSTATUS(status), " without a result");
}

}  // namespace

const char* ItemKindName(ItemResult::Kind kind) {
  switch (kind) {
    case ItemResult::Kind::kDone:
      return "done";
    case ItemResult::Kind::kFailed:
      return "failed";
    case ItemResult::Kind::kTimedOut:
      return "timed out";
    case ItemResult::Kind::kCrashed:
      return "crashed";
  }
  return "?";
}

absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const std::function<absl::StatusOr<std::string>(int)>& work,
                                                    std::chrono::milliseconds timeout) {
  std::vector<ItemResult> results(count);
  int next = 0;
  while (next < count) {
    int fds[2];
    if (pipe(fds) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
    const pid_t pid = fork();
    if (pid < 0) return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
    if (pid == 0) {
      close(fds[0]);
      Worker(fds[1], next, count, work);
    }
    close(fds[1]);
    Reader reader;
    bool timed_out = false;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd poll_fd{fds[0], POLLIN, 0};
      const int ready = left.count() > 0 ? poll(&poll_fd, 1, static_cast<int>(left.count())) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {  // the item on hand has hung: the watchdog kills the worker
        kill(pid, SIGKILL);
        timed_out = true;
        break;
      }
      char chunk[65536];
      const ssize_t got = read(fds[0], chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      reader.Append(chunk, static_cast<size_t>(got));
      RecordHeader header;
      std::string payload;
      while (reader.Next(header, payload)) {
        results[header.item] = {static_cast<ItemResult::Kind>(header.kind), std::move(payload)};
        next = header.item + 1;
        deadline = std::chrono::steady_clock::now() + timeout;
      }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (next < count && (timed_out || !(WIFEXITED(status) && WEXITSTATUS(status) == 3))) {
      // The worker stopped on item `next` without reporting it.
      results[next] = timed_out ? ItemResult{ItemResult::Kind::kTimedOut,
                                             absl::StrCat("no result within ", timeout.count(), " ms; the worker was killed")}
                                : ItemResult{ItemResult::Kind::kCrashed, DescribeExit(status)};
      ++next;
    }
  }
  return results;
}

}  // namespace matload
