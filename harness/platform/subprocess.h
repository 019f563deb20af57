// Subprocess: run a program without a shell and collect its output.
#ifndef MATLOAD_HARNESS_PLATFORM_SUBPROCESS_H_
#define MATLOAD_HARNESS_PLATFORM_SUBPROCESS_H_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// ProcessResult is how a finished program ended and what it printed.
struct ProcessResult {
  int exit_code = 0;  // the exit status, or 128+signal if it was killed
  int signal = 0;     // the signal that ended it, or 0 when it exited
  bool timed_out = false;
  std::string standard_output;
  std::string standard_error;
};

// Every child runs in a process group of its own and gets SIGKILL when the
// thread that started it ends (PR_SET_PDEATHSIG), so that nothing it starts
// outlives matload; it inherits no descriptor but its three standard
// streams (every descriptor matload opens is O_CLOEXEC, and the child closes
// any it inherited without).

// RunProcess starts argv[0] (searched in PATH when it has no '/') with
// `argv`, no shell and no standard input, and waits for it. After `timeout`
// (while it still holds its streams open or has not exited) it kills the
// child's whole process group, so a hung program's own children die too,
// and returns with timed_out set: it never waits longer. Whatever the child
// left running in its group when it ended is killed too. An interrupt
// (interrupt.h) stops the wait the same way, within 50 ms: the
// group is killed and RunProcess returns InterruptedError, so that a hung
// compiler never keeps matload from stopping in order, nor outlives it.
// `environment` ("NAME=value") is added to this process's own. It fails
// only if the program cannot be started, or on an interrupt.
absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(120),
                                         const std::vector<std::string>& environment = {});

// BackgroundProcess is a program left running while the caller goes on,
// its standard output and error appended to a log file the caller reads:
// a fuzz campaign's jobs, which report progress as they go.
class BackgroundProcess {
 public:
  // Start starts argv[0] (searched in PATH when it has no '/') without a
  // shell, with `environment` added, writing both streams to `log_path`.
  static absl::StatusOr<BackgroundProcess> Start(const std::vector<std::string>& argv,
                                                 const std::vector<std::string>& environment,
                                                 const std::string& log_path);
  // Poll returns the exit code (128+signal if killed) once it has ended,
  // and then kills whatever it left running in its process group.
  std::optional<int> Poll();
  // Stop interrupts it (SIGINT, so libFuzzer writes its final report) and
  // waits for it, returning the exit code; then its whole process group
  // is killed, the program too if it still runs 30 s after SIGINT.
  int Stop();
  // Kill ends it at once, as a crash or the OOM killer would: SIGKILL to
  // its whole process group, then waits for it and returns the exit code.
  int Kill();

 private:
  explicit BackgroundProcess(int pid) : pid_(pid) {}
  int pid_;
  std::optional<int> exit_code_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SUBPROCESS_H_
