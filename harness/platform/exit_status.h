// ExitStatus: the one table of matload's exit statuses, for every command.
//
//   0    clean: everything judged, no finding
//   1    findings: the GPU or a toolchain disagrees with the model
//   2    usage: a bad flag, value, file or argument; nothing was judged wrongly
//   3    compile-only: a GPU command on a machine with no usable GPU
//   4    infrastructure: matload could not judge (GPU lost, compiler crashed, disk full)
//   128+N  interrupted by signal N (129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM, 138 and
//          140 for SIGUSR1 and SIGUSR2), after writing what was judged
#ifndef MATLOAD_HARNESS_PLATFORM_EXIT_STATUS_H_
#define MATLOAD_HARNESS_PLATFORM_EXIT_STATUS_H_

#include <ostream>

#include "absl/status/status.h"

namespace matload {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitCompileOnly = 3;
inline constexpr int kExitInfrastructure = 4;

// ExitStatusFor maps a command's failure to its exit status: an
// infrastructure failure (infrastructure.h) is 4, NoGpuError 3, an
// interruption 128+signal (interrupt.h), a problem with what the user gave
// (kInvalidArgument, kNotFound, kAlreadyExists, kOutOfRange,
// kFailedPrecondition) 2, and anything else, a failure of matload itself,
// 4: it could not judge. OK is 0.
int ExitStatusFor(const absl::Status& status);

// ReportFailure prints a command's failure to `err` as "WHO: MESSAGE" (who
// failed: "matload", or "matload fuzz" for a command whose messages name
// it), the message as PrintedText shows it (outside_text.h), and returns
// its exit status (ExitStatusFor).
int ReportFailure(std::ostream& err, const absl::Status& status, absl::string_view who = "matload");

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_EXIT_STATUS_H_
