#include "harness/gpu/isolated_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
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

// RecordType tells a phase mark from an item's result on the pipe.
enum class RecordType : std::int32_t { kPhase, kResult };

// A record on the pipe: the header, then the payload (a result's output,
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

// worker_pipe is the write end of this process's pipe while it is a worker.
int worker_pipe = -1;

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
  return WriteAll(worker_pipe, &header, sizeof header) && WriteAll(worker_pipe, payload.data(), payload.size());
}

// CauseOf encodes a failed status's mark for the pipe.
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

// BecomeWorker cuts a freshly forked child loose from the parent's state:
// it leads a process group of its own (a terminal's Ctrl-C reaches only
// matload, which then stops its workers), dies with the parent, and keeps
// only standard streams and `fd`.
void BecomeWorker(int fd, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(5);  // the parent died before the line above
  ResetInterruptHandlers();
  if (fd > 3) close_range(3, fd - 1, 0);
  close_range(fd + 1, ~0U, 0);
  worker_pipe = fd;
}

// Worker runs items from `first` on, writing a record for each, and exits
// after the first error: its CUDA context may be unusable.
[[noreturn]] void Worker(int first, int count, const std::function<absl::StatusOr<std::string>(int)>& work) {
  for (int item = first; item < count; ++item) {
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
  if (WIFSIGNALED(status)) {
    return absl::StrCat("the worker died of signal ", WTERMSIG(status), " (", strsignal(WTERMSIG(status)), ")");
  }
  return absl::StrCat("the worker exited with status ", WEXITSTATUS(status), " without a result");
}

// WorkerWatch follows one worker: its pipe, the item it is on, the phase
// it said it is in and since when.
struct WorkerWatch {
  int fd = -1;
  pid_t pid = 0;
  int next = 0;  // the item it is on
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

// Follow reads `watch`'s records into `results`, telling `finished` of
// each, until the worker's pipe closes (it exited or died) or a phase
// outlives its limit. It returns the limit that was passed, or nullopt;
// InterruptedError if interrupted.
absl::StatusOr<std::optional<std::chrono::milliseconds>> Follow(WorkerWatch& watch, std::vector<ItemResult>& results,
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
      ItemResult& result = results[header.item];
      result.kind = static_cast<ItemResult::Kind>(header.kind);
      result.phase = watch.phase;
      if (result.kind == ItemResult::Kind::kFailed) result.error = StatusOf(header, payload);
      result.output = result.kind == ItemResult::Kind::kFailed ? result.error.ToString() : std::move(payload);
      if (finished) finished(header.item, result);
      watch.next = header.item + 1;
      watch.start_place.Leave();
      Enter(watch, WorkerPhase::kStarting, watchdog);
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

// StartWorker forks a worker for items [first, count), its pipe's read end
// in watch.fd.
absl::StatusOr<WorkerWatch> StartWorker(int first, int count,
                                        const std::function<absl::StatusOr<std::string>(int)>& work) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return absl::InternalError(absl::StrCat("pipe2: ", std::strerror(errno)));
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
    Worker(first, count, work);
  }
  close(fds[1]);
  setpgid(pid, pid);  // as the child does, so that killpg works whichever runs first
  return WorkerWatch{.fd = fds[0], .pid = pid, .next = first};
}

// MarkNotRun marks items `from` on as kNotRun, for the interruption `why`.
void MarkNotRun(int from, const absl::Status& why, std::vector<ItemResult>& results) {
  for (size_t item = from; item < results.size(); ++item) {
    results[item] = {ItemResult::Kind::kNotRun, std::string(why.message()), absl::OkStatus(), WorkerPhase::kStarting};
  }
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
  if (worker_pipe < 0) return;
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

absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count,
                                                    const std::function<absl::StatusOr<std::string>(int)>& work,
                                                    Watchdog& watchdog, const ItemFinished& finished, StartGate& gate) {
  std::vector<ItemResult> results(count);
  int next = 0;
  while (next < count) {
    absl::StatusOr<StartGate::Place> place = gate.Enter();
    if (!place.ok()) {  // interrupted
      MarkNotRun(next, place.status(), results);
      return results;
    }
    absl::StatusOr<WorkerWatch> watch = StartWorker(next, count, work);
    if (!watch.ok()) return watch.status();
    watch->start_place = *std::move(place);
    absl::StatusOr<std::optional<std::chrono::milliseconds>> passed = Follow(*watch, results, watchdog, finished);
    if (!passed.ok() || passed->has_value()) killpg(watch->pid, SIGKILL);  // the worker and anything it started
    close(watch->fd);
    const int status = Reap(watch->pid);
    next = watch->next;
    if (!passed.ok()) {  // interrupted
      MarkNotRun(next, passed.status(), results);
      return results;
    }
    if (next < count && (passed->has_value() || !(WIFEXITED(status) && WEXITSTATUS(status) == 3))) {
      // The worker stopped on item `next` without reporting it.
      results[next] = passed->has_value()
                          ? ItemResult{ItemResult::Kind::kTimedOut,
                                       absl::StrCat("no result within ", (*passed)->count(), " ms while ",
                                                    WorkerPhaseName(watch->phase), "; the worker was killed"),
                                       absl::OkStatus(), watch->phase}
                          : ItemResult{ItemResult::Kind::kCrashed,
                                       absl::StrCat(DescribeExit(status), " while ", WorkerPhaseName(watch->phase)),
                                       absl::OkStatus(), watch->phase};
      if (finished) finished(next, results[next]);
      ++next;
    }
  }
  return results;
}

absl::StatusOr<std::vector<ItemResult>> RunIsolated(int count,
                                                    const std::function<absl::StatusOr<std::string>(int)>& work,
                                                    std::chrono::milliseconds timeout) {
  Watchdog watchdog(timeout, /*calibrate=*/false);
  return RunIsolated(count, work, watchdog);
}

}  // namespace matload
