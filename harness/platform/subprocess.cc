#include "harness/platform/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/interrupt.h"

extern char** environ;

namespace matload {
namespace {

// kStopGrace is how long BackgroundProcess::Stop lets a program finish after
// SIGINT (libFuzzer writes its final report then) before it kills the group.
constexpr std::chrono::seconds kStopGrace(30);

// A wait with a deadline looks at the child again after kFirstWaitStep,
// doubling up to kLongestWaitStep: a child that closed its streams has
// usually exited within microseconds, and ptxas runs by the thousand.
constexpr std::chrono::microseconds kFirstWaitStep(20);
constexpr std::chrono::microseconds kLongestWaitStep(5000);

// kInterruptCheck is how often a wait for a child looks at PendingInterrupt:
// the signal may be delivered to another thread, which leaves this one's
// poll asleep, and a hung compiler must not keep matload from stopping.
constexpr std::chrono::milliseconds kInterruptCheck(50);

// ChildStreams says where a child's standard output and error go: pipes to
// dup2, or one file to append both to.
struct ChildStreams {
  int standard_output = -1;
  int standard_error = -1;
  const char* append_to = nullptr;  // when set, both streams go here
};

// ResetSignalHandlers gives every signal this process handles its default
// action again, in the child: a handler must never run on the parent's
// memory, which a vfork child shares.
void ResetSignalHandlers() {
  for (int number = 1; number < NSIG; ++number) {
    struct sigaction action {};
    if (sigaction(number, nullptr, &action) != 0) continue;
    if ((action.sa_flags & SA_SIGINFO) == 0 && (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)) {
      continue;
    }
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigaction(number, &fallback, nullptr);
  }
}

// ExecChild is the child's side of Spawn, after vfork: it shares the
// parent's memory and runs on the stack of the thread that called vfork
// (suspended until this exec or _exit), while the parent's other threads
// run on. So it makes only async-signal-safe calls, allocates nothing,
// writes nothing of the parent's (it is never inlined, so its locals are in
// a frame of its own), and never returns. It starts with every signal
// blocked, and unblocks them (restoring `mask`, the parent's) only once no
// handler is left to run. The child leads a process group of its own, so
// that a timeout kills whatever it started too, and gets SIGKILL when the
// thread that started it ends, so that no compiler outlives matload. If
// exec fails, its errno goes to `exec_report`.
[[noreturn]] __attribute__((noinline)) void ExecChild(char* const* argv, char* const* environment,
                                                      const ChildStreams& streams, pid_t parent, int exec_report,
                                                      const sigset_t* mask) {
  ResetSignalHandlers();
  sigprocmask(SIG_SETMASK, mask, nullptr);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  const int input = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int output = streams.standard_output;
  int error = streams.standard_error;
  if (streams.append_to != nullptr) {
    output = error = open(streams.append_to, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  // dup2 clears O_CLOEXEC on the copies. Descriptors matload inherited
  // without O_CLOEXEC are closed here, all but `exec_report` (which exec
  // closes), so exactly the three standard streams survive exec.
  const unsigned first = STDERR_FILENO + 1;
  const unsigned report = static_cast<unsigned>(exec_report);
  if (input >= 0 && output >= 0 && dup2(input, STDIN_FILENO) >= 0 && dup2(output, STDOUT_FILENO) >= 0 &&
      dup2(error, STDERR_FILENO) >= 0 && (report <= first || close_range(first, report - 1, 0) == 0) &&
      close_range(std::max(first, report + 1), ~0U, 0) == 0) {
    execvpe(argv[0], argv, environment);
  }
  const int failure = errno;
  (void)!write(exec_report, &failure, sizeof failure);
  _exit(127);
}

// Spawn starts argv[0] with `environment` added to this process's own, and
// returns the error number that kept it from running, or 0. exec's success
// is read from a pipe that exec closes: the child writes to it only when
// exec failed. The child is made with vfork, not fork: a fork copies the
// page tables of matload, whose memory runs to gigabytes in a support sweep,
// and the pages the parent then writes, for each of thousands of ptxas runs;
// vfork copies nothing. The calling thread waits until the child has
// exec'd or exited, so the child's process group exists before any
// kill(-pid).
int Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
          const ChildStreams& streams, pid_t& pid) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> variables;
  for (const std::string& variable : environment) variables.push_back(const_cast<char*>(variable.c_str()));
  for (char** inherited = environ; *inherited != nullptr; ++inherited) variables.push_back(*inherited);
  variables.push_back(nullptr);
  int exec_report[2];
  if (pipe2(exec_report, O_CLOEXEC) != 0) return errno;
  const pid_t parent = getpid();
  sigset_t every_signal;
  sigset_t mask;
  sigfillset(&every_signal);
  pthread_sigmask(SIG_BLOCK, &every_signal, &mask);
  pid = vfork();
  if (pid == 0) ExecChild(args.data(), variables.data(), streams, parent, exec_report[1], &mask);
  const int fork_error = errno;
  pthread_sigmask(SIG_SETMASK, &mask, nullptr);
  close(exec_report[1]);
  absl::Cleanup close_report = [&exec_report] { close(exec_report[0]); };
  if (pid < 0) return fork_error;
  int exec_error = 0;
  ssize_t n = 0;
  while ((n = read(exec_report[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  if (n <= 0) return 0;
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return exec_error;
}

// Finish fills in how a child with wait status `status` ended.
void Finish(int status, ProcessResult& result) {
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + result.signal;
}

// ExitCode reads a wait status the way ProcessResult reports it.
int ExitCode(int status) {
  ProcessResult result;
  Finish(status, result);
  return result.exit_code;
}

// ChildHasEnded says whether our child `pid` has ended, and leaves it unreaped: while the
// leader is a zombie, its process group id cannot go to another process.
bool ChildHasEnded(pid_t pid) {
  siginfo_t info{};
  while (waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno != EINTR) return true;  // not our child any more: nothing to wait for
  }
  return info.si_pid == pid;
}

// WaitUntil waits for `pid` to end, no later than `deadline`, without
// reaping it; false when it was still running then, or when an interrupt
// is pending (PendingInterrupt).
bool WaitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  for (std::chrono::microseconds step = kFirstWaitStep;; step = std::min(2 * step, kLongestWaitStep)) {
    if (ChildHasEnded(pid)) return true;
    if (std::chrono::steady_clock::now() >= deadline || PendingInterrupt() != 0) return false;
    std::this_thread::sleep_for(step);
  }
}

// KillGroupAndReap kills what is left of `pid`'s process group (whatever
// it started, and `pid` itself if it still runs) and reaps `pid`,
// returning its wait status.
int KillGroupAndReap(pid_t pid) {
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// ReadUntil appends what the child writes to `out_fd` and `err_fd` to
// `result` until both close or `deadline` passes; false on the deadline,
// and as soon as an interrupt is pending (PendingInterrupt).
bool ReadUntil(int out_fd, int err_fd, std::chrono::steady_clock::time_point deadline, ProcessResult& result) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&result.standard_output, &result.standard_error};
  int open_streams = 2;
  char buffer[65536];
  while (open_streams > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || PendingInterrupt() != 0) return false;
    const int ready = poll(fds, 2, static_cast<int>(std::min(left, kInterruptCheck).count()));
    if (ready < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  return true;
}

// Pipe is one pipe whose ends close when it goes out of scope.
struct Pipe {
  int ends[2] = {-1, -1};
  ~Pipe() {
    for (int end : ends) {
      if (end >= 0) close(end);
    }
  }
  void CloseWriteEnd() {
    close(ends[1]);
    ends[1] = -1;
  }
};

}  // namespace

absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                                         const std::vector<std::string>& environment) {
  if (argv.empty()) return absl::InvalidArgumentError("RunProcess needs a program");
  Pipe out;
  Pipe err;
  if (pipe2(out.ends, O_CLOEXEC) != 0 || pipe2(err.ends, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  pid_t pid = 0;
  const int spawn_error =
      Spawn(argv, environment, {.standard_output = out.ends[1], .standard_error = err.ends[1]}, pid);
  out.CloseWriteEnd();
  err.CloseWriteEnd();
  if (spawn_error != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run ", argv[0], ": ", std::strerror(spawn_error)));
  }
  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // A child that closed its streams may still run: the wait has the same deadline.
  result.timed_out = !ReadUntil(out.ends[0], err.ends[0], deadline, result) || !WaitUntil(pid, deadline);
  Finish(KillGroupAndReap(pid), result);
  if (const int signal = PendingInterrupt(); signal != 0 && result.timed_out) return InterruptedError(signal);
  return result;
}

absl::StatusOr<BackgroundProcess> BackgroundProcess::Start(const std::vector<std::string>& argv,
                                                           const std::vector<std::string>& environment,
                                                           const std::string& log_path) {
  if (argv.empty()) return absl::InvalidArgumentError("BackgroundProcess needs a program");
  pid_t pid = 0;
  if (const int error = Spawn(argv, environment, {.append_to = log_path.c_str()}, pid); error != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run ", argv[0], ": ", std::strerror(error)));
  }
  return BackgroundProcess(pid);
}

std::optional<int> BackgroundProcess::Poll() {
  if (!exit_code_.has_value() && ChildHasEnded(pid_)) exit_code_ = ExitCode(KillGroupAndReap(pid_));
  return exit_code_;
}

int BackgroundProcess::Stop() {
  if (!Poll().has_value()) {
    kill(pid_, SIGINT);
    WaitUntil(pid_, std::chrono::steady_clock::now() + kStopGrace);
    exit_code_ = ExitCode(KillGroupAndReap(pid_));
  }
  return *exit_code_;
}

int BackgroundProcess::Kill() {
  if (!Poll().has_value()) exit_code_ = ExitCode(KillGroupAndReap(pid_));
  return *exit_code_;
}

}  // namespace matload
