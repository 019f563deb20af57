#include "harness/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace matload {
namespace {

// Spawn starts argv[0] with `environment` added to this process's own; it
// returns posix_spawnp's error number.
int Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
          const posix_spawn_file_actions_t& actions, pid_t& pid) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> variables;
  for (const std::string& variable : environment) variables.push_back(const_cast<char*>(variable.c_str()));
  for (char** inherited = environ; *inherited != nullptr; ++inherited) variables.push_back(*inherited);
  variables.push_back(nullptr);
  return posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), variables.data());
}

// ExitCode reads a wait status the way ProcessResult reports it.
int ExitCode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

}  // namespace

absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                                         const std::vector<std::string>& environment) {
  if (argv.empty()) return absl::InvalidArgumentError("RunProcess needs a program");
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  absl::Cleanup destroy_actions = [&actions] { posix_spawn_file_actions_destroy(&actions); };
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);

  pid_t pid = 0;
  const int spawn_error = Spawn(argv, environment, actions, pid);
  close(out_pipe[1]);
  close(err_pipe[1]);
  absl::Cleanup close_reads = [&] {
    close(out_pipe[0]);
    close(err_pipe[0]);
  };
  if (spawn_error != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run ", argv[0], ": ", std::strerror(spawn_error)));
  }

  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.standard_output, &result.standard_error};
  int open_streams = 2;
  char buffer[65536];
  while (open_streams > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    int ready = poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = ExitCode(status);
  return result;
}

absl::StatusOr<BackgroundProcess> BackgroundProcess::Start(const std::vector<std::string>& argv,
                                                           const std::vector<std::string>& environment,
                                                           const std::string& log_path) {
  if (argv.empty()) return absl::InvalidArgumentError("BackgroundProcess needs a program");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  absl::Cleanup destroy_actions = [&actions] { posix_spawn_file_actions_destroy(&actions); };
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  if (const int error = Spawn(argv, environment, actions, pid); error != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run ", argv[0], ": ", std::strerror(error)));
  }
  return BackgroundProcess(pid);
}

std::optional<int> BackgroundProcess::Poll() {
  if (exit_code_.has_value()) return exit_code_;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) exit_code_ = ExitCode(status);
  return exit_code_;
}

int BackgroundProcess::Stop() {
  if (!Poll().has_value()) {
    kill(pid_, SIGINT);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_code_ = ExitCode(status);
  }
  return *exit_code_;
}

}  // namespace matload
