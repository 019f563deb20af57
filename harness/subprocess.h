// Subprocess: run a program without a shell and collect its output.
#ifndef MATLOAD_HARNESS_SUBPROCESS_H_
#define MATLOAD_HARNESS_SUBPROCESS_H_

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// ProcessResult is how a finished program ended and what it printed.
struct ProcessResult {
  int exit_code = 0;  // the exit status, or 128+signal if it was killed
  bool timed_out = false;
  std::string standard_output;
  std::string standard_error;
};

// RunProcess starts argv[0] (searched in PATH when it has no '/') with
// `argv`, no shell and no standard input, and waits for it, killing it after
// `timeout`. `environment` ("NAME=value") is added to this process's own.
// It fails only if the program cannot be started.
absl::StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(120),
                                         const std::vector<std::string>& environment = {});

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUBPROCESS_H_
