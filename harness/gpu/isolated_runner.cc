#include "harness/gpu/isolated_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/gpu/start_gate.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"

namespace matload {
namespace {

// kPollSlice bounds one wait, so that an interrupt is noticed promptly by
// every thread, not only the one the signal landed on.
constexpr std::chrono::milliseconds kPollSlice{100};

// RecordType tells a phase mark from an item's result on the channel.
enum class RecordType : std::int32_t { kPhase, kResult };

// A record on the channel: the header, then the payload (a result's output,
// or its error message).
struct RecordHeader {
  RecordType type;
  std::int32_t item;
  std::int32_t kind;     // ItemResult::Kind, for a result
  std::int32_t code;     // absl::StatusCode of a failed result
  std::int32_t cause;    // its InfrastructureCause, kNoCause, or kNoGpu
  std::int32_t phase;    // WorkerPhase
  std::uint64_t length;  // payload bytes
};
constexpr std::int32_t kNoCause = -1;
constexpr std::int32_t kNoGpu = -2;

// worker_channel is this process's end of its channel while it is a
// worker: it reads its items there and writes its records.
int worker_channel = -1;

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

bool WriteRecord(const RecordHeader& header, absl::string_view payload) {
  return WriteAll(worker_channel, &header, sizeof header) && WriteAll(worker_channel, payload.data(), payload.size());
}

// ReadAll reads `length` bytes from `fd`; false at its end or on an error.
bool ReadAll(int fd, void* data, size_t length) {
  char* at = static_cast<char*>(data);
  while (length > 0) {
    const ssize_t got = read(fd, at, length);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    at += got;
    length -= static_cast<size_t>(got);
  }
  return true;
}

// CauseOf encodes a failed status's mark for the channel.
std::int32_t CauseOf(const absl::Status& status) {
  if (std::optional<InfrastructureCause> cause = InfrastructureCauseOf(status); cause.has_value()) {
    return static_cast<std::int32_t>(*cause);
  }
  return IsNoGpu(status) ? kNoGpu : kNoCause;
}

// StatusOf rebuilds a failed item's status from its record, mark included.
absl::Status StatusOf(const RecordHeader& header, const std::string& message) {
  if (header.cause == kNoGpu) return NoGpuError(message);
  absl::Status status(static_cast<absl::StatusCode>(header.code), message);
  if (header.cause >= 0) return MarkInfrastructure(static_cast<InfrastructureCause>(header.cause), status);
  return status;
}

// ResultOf rebuilds an item's result from its record, the worker having
// been in `phase`.
ItemResult ResultOf(const RecordHeader& header, std::string payload, WorkerPhase phase) {
  ItemResult result{.kind = static_cast<ItemResult::Kind>(header.kind), .phase = phase};
  if (result.kind == ItemResult::Kind::kFailed) result.error = StatusOf(header, payload);
  result.output = result.kind == ItemResult::Kind::kFailed ? result.error.ToString() : std::move(payload);
  return result;
}

// BecomeWorker cuts a freshly forked child loose from the parent's state:
// it leads a process group of its own (a terminal's Ctrl-C reaches only
// matload, which then stops its workers), dies with the parent, and keeps
// only standard streams and `fd`, its channel.
void BecomeWorker(int fd, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(5);  // the parent died before the line above
  ResetInterruptHandlers();
  if (fd > 3) close_range(3, fd - 1, 0);
  close_range(fd + 1, ~0U, 0);
  worker_channel = fd;
}

// Worker runs the items the parent hands it, one at a time, writing a
// record for each, until the parent has none left for it (it shuts its
// end); it exits after the first error: its CUDA context may be unusable.
[[noreturn]] void Worker(const ItemWork& work) {
  std::int32_t item = 0;
  while (ReadAll(worker_channel, &item, sizeof item)) {
    MarkWorkerPhase(WorkerPhase::kStarting);
    absl::StatusOr<std::string> result = work(item);
    RecordHeader header{
        RecordType::kResult, item, static_cast<std::int32_t>(ItemResult::Kind::kDone), 0, kNoCause, 0, 0};
    const std::string payload = result.ok() ? *result : std::string(result.status().message());
    if (!result.ok()) {
      header.kind = static_cast<std::int32_t>(ItemResult::Kind::kFailed);
      header.code = static_cast<std::int32_t>(result.status().code());
      header.cause = CauseOf(result.status());
    }
    header.length = payload.size();
    if (!WriteRecord(header, payload)) _exit(4);
    if (!result.ok()) _exit(3);
  }
  _exit(0);
}

// Reader accumulates the channel's bytes and yields whole records.
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
  if (WIFSIGNALED(status)) {
    return absl::StrCat("the worker died of signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)), ")");
  }
  return absl::StrCat("the worker exited with status ", WEXITSTATUS(status), " without a result");
}

// WorkerWatch follows one worker: its channel, the item it is on, the
// phase it said it is in and since when.
struct WorkerWatch {
  int fd = -1;
  pid_t pid = 0;
  int item = -1;  // the item it was handed and has not reported, or -1
  WorkerPhase phase = WorkerPhase::kStarting;
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  StartGate::Place start_place;  // held until the worker says it has started
};

// Enter moves `watch` into `phase`, telling the watchdog how long a kernel took.
void Enter(WorkerWatch& watch, WorkerPhase phase, Watchdog& watchdog) {
  const auto now = std::chrono::steady_clock::now();
  if (watch.phase == WorkerPhase::kRunningKernel && phase != WorkerPhase::kRunningKernel) {
    watchdog.ObserveKernel(std::chrono::duration_cast<std::chrono::milliseconds>(now - watch.since));
  }
  watch.phase = phase;
  watch.since = now;
  if (phase != WorkerPhase::kStarting) watch.start_place.Leave();
}

// Hand gives `watch`'s worker `item` to run next, or, with nullopt, shuts
// the parent's end of the channel, so that the worker exits. A worker has
// at most this item waiting, so the send fits the channel's buffer; one
// that died meanwhile is no SIGPIPE (MSG_NOSIGNAL), and its end shows on
// the channel as any worker's does.
void Hand(WorkerWatch& watch, std::optional<int> item) {
  watch.item = item.value_or(-1);
  if (!item.has_value()) {
    shutdown(watch.fd, SHUT_WR);
    return;
  }
  const std::int32_t next = *item;
  while (send(watch.fd, &next, sizeof next, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

// Follow reads `watch`'s records, telling `finished` of each result once
// the worker has its next item from `queue` (none after a failure: the
// worker then exits), until the worker's channel closes (it exited or
// died) or a phase outlives its limit. It returns the limit that was
// passed, or nullopt; InterruptedError if interrupted.
absl::StatusOr<std::optional<std::chrono::milliseconds>> Follow(WorkerWatch& watch, WorkQueue& queue,
                                                                Watchdog& watchdog, const ItemFinished& finished) {
  Reader reader;
  for (;;) {
    if (const int signal = PendingInterrupt(); signal != 0) return InterruptedError(signal);
    const std::chrono::milliseconds limit = watchdog.Limit(watch.phase);
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(watch.since + limit - std::chrono::steady_clock::now());
    if (left.count() <= 0) return limit;
    pollfd poll_fd{watch.fd, POLLIN, 0};
    const int ready = poll(&poll_fd, 1, static_cast<int>(std::min(left, kPollSlice).count()));
    if (ready <= 0) continue;  // a slice passed, or a signal: look again
    char chunk[65536];
    const ssize_t got = read(watch.fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    reader.Append(chunk, static_cast<size_t>(got));
    RecordHeader header;
    std::string payload;
    while (reader.Next(header, payload)) {
      if (header.type == RecordType::kPhase) {
        Enter(watch, static_cast<WorkerPhase>(header.phase), watchdog);
        continue;
      }
      const ItemResult result = ResultOf(header, std::move(payload), watch.phase);
      watch.start_place.Leave();
      Enter(watch, WorkerPhase::kStarting, watchdog);
      if (result.kind == ItemResult::Kind::kFailed) {
        watch.item = -1;  // the worker exits (Worker)
      } else {
        Hand(watch, queue.Take());
      }
      if (finished) finished(header.item, result);
    }
  }
}

// Reap waits for a worker that has ended or been killed.
int Reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// StartWorker forks a worker that runs `work` on the items it is handed,
// the parent's end of its channel in watch.fd.
absl::StatusOr<WorkerWatch> StartWorker(const ItemWork& work) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return absl::InternalError(absl::StrCat("socketpair: ", std::strerror(errno)));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    BecomeWorker(fds[1], parent);
    Worker(work);
  }
  close(fds[1]);
  setpgid(pid, pid);  // as the child does, so that killpg works whichever runs first
  return WorkerWatch{.fd = fds[0], .pid = pid};
}

// Lost is the result of the item that `watch`'s worker was on when it
// passed its phase's `limit` and was killed, or, with no limit passed,
// ended with `status` without a result.
ItemResult Lost(const WorkerWatch& watch, std::optional<std::chrono::milliseconds> limit, int status) {
  if (limit.has_value()) {
    return {ItemResult::Kind::kTimedOut,
            absl::StrCat("no result within ", limit->count(), " ms while ", WorkerPhaseName(watch.phase),
                         "; the worker was killed"),
            absl::OkStatus(), watch.phase};
  }
  return {ItemResult::Kind::kCrashed, absl::StrCat(DescribeExit(status), " while ", WorkerPhaseName(watch.phase)),
          absl::OkStatus(), watch.phase};
}

}  // namespace

const char* WorkerPhaseName(WorkerPhase phase) {
  switch (phase) {
    case WorkerPhase::kStarting: return "starting";
    case WorkerPhase::kCompiling: return "compiling";
    case WorkerPhase::kRunningKernel: return "running the kernel";
    case WorkerPhase::kFinishing: return "finishing";
  }
  return "?";
}

void MarkWorkerPhase(WorkerPhase phase) {
  if (worker_channel < 0) return;
  const RecordHeader header{RecordType::kPhase, 0, 0, 0, kNoCause, static_cast<std::int32_t>(phase), 0};
  if (!WriteRecord(header, "")) _exit(4);
}

const char* ItemKindName(ItemResult::Kind kind) {
  switch (kind) {
    case ItemResult::Kind::kDone: return "done";
    case ItemResult::Kind::kFailed: return "failed";
    case ItemResult::Kind::kTimedOut: return "timed out";
    case ItemResult::Kind::kCrashed: return "crashed";
    case ItemResult::Kind::kNotRun: return "not run";
  }
  return "?";
}

std::chrono::milliseconds Watchdog::Limit(WorkerPhase phase) const {
  if (phase != WorkerPhase::kRunningKernel || !calibrate_) return limit_;
  absl::MutexLock lock(&mutex_);
  if (longest_kernel_.count() < 0) return limit_;
  return std::min(limit_, std::max(kKernelFloor, kKernelFactor * longest_kernel_));
}

void Watchdog::ObserveKernel(std::chrono::milliseconds elapsed) {
  absl::MutexLock lock(&mutex_);
  longest_kernel_ = std::max(longest_kernel_, elapsed);
}

absl::Status RunIsolated(WorkQueue& queue, const ItemWork& work, Watchdog& watchdog, const ItemFinished& finished,
                         StartPriority first_start, StartGate& gate) {
  for (StartPriority priority = first_start; !queue.Drained(); priority = StartPriority::kAnother) {
    absl::StatusOr<StartGate::Place> place = gate.Enter(priority);
    if (!place.ok()) {  // interrupted
      queue.Stop(place.status());
      return absl::OkStatus();
    }
    const std::optional<int> first = queue.Take();
    if (!first.has_value()) break;  // other workers took the rest while this one waited at the gate
    absl::StatusOr<WorkerWatch> watch = StartWorker(work);
    if (!watch.ok()) return watch.status();
    watch->start_place = *std::move(place);
    Hand(*watch, first);
    absl::StatusOr<std::optional<std::chrono::milliseconds>> passed = Follow(*watch, queue, watchdog, finished);
    if (!passed.ok() || passed->has_value()) killpg(watch->pid, SIGKILL);  // the worker and anything it started
    close(watch->fd);
    const int status = Reap(watch->pid);
    if (!passed.ok()) {  // interrupted
      queue.Stop(passed.status());
      return absl::OkStatus();
    }
    if (watch->item >= 0 && finished) finished(watch->item, Lost(*watch, *passed, status));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const ItemWork& work, Watchdog& watchdog,
                                                    const ItemFinished& finished, StartGate& gate) {
  WorkQueue queue(count);
  std::vector<ItemResult> results(count, ItemResult{.kind = ItemResult::Kind::kNotRun});
  const ItemFinished keep = [&](int item, const ItemResult& result) {
    results[item] = result;
    if (finished) finished(item, result);
  };
  if (absl::Status ran = RunIsolated(queue, work, watchdog, keep, StartPriority::kAnother, gate); !ran.ok()) return ran;
  for (ItemResult& result : results) {
    if (result.kind == ItemResult::Kind::kNotRun) result.output = std::string(queue.stopped().message());
  }
  return results;
}

absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count, const ItemWork& work,
                                                    std::chrono::milliseconds timeout) {
  Watchdog watchdog(timeout, /*calibrate=*/false);
  return RunIsolated(count, work, watchdog);
}

}  // namespace matload
