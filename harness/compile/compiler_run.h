// CompilerRun: whether one run of an external compiler (ptxas, cuobjdump)
// ended in a way that can be read as a verdict at all. A compiler that died
// of a signal, exited with a status it never uses for a verdict, or ran
// past its time limit did not judge the module: that is an infrastructure
// failure (infrastructure.h), never a rejection.
#ifndef MATLOAD_HARNESS_COMPILE_COMPILER_RUN_H_
#define MATLOAD_HARNESS_COMPILE_COMPILER_RUN_H_

#include <initializer_list>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/platform/subprocess.h"

namespace matload {

// kPtxasRejectionExitCode is the status ptxas exits with when it rejects a
// module (measured with ptxas 13.0.88: every rejection harness/
// model_vs_ptxas_test.cc meets comes with it, and Ptxas checks each one).
inline constexpr int kPtxasRejectionExitCode = 255;

// CheckCompilerRun is OK when `run` exited with one of `verdict_exit_codes`;
// otherwise an InfrastructureError: kCompilerHung when it timed out,
// kCompilerCrashed when a signal ended it or it exited with another status.
// `what` names the run in the message ("ptxas 13.0.88 -arch=sm_90").
absl::Status CheckCompilerRun(const ProcessResult& run, absl::string_view what,
                              std::initializer_list<int> verdict_exit_codes);

// CompilerFaultSignal is the signal of a compiler that died of a fault of
// its own while it read its input (SIGSEGV, SIGBUS, SIGILL, SIGFPE or
// SIGABRT), read from a CheckCompilerRun error; nullopt for any other
// ending, a kill from outside (SIGKILL, SIGTERM, ...) and a time limit
// among them. Such a compiler crashes again on the same input: a toolchain
// bug, which the batch checker traces to the snippet that causes it
// (batch_checker.h, CompilerVerdict::crashed). ptxas 12.3.52 to 12.3.107
// die of SIGSEGV on a wmma.load of shape .m16n16k8 without its type
// (reports/support/history/README.md).
std::optional<int> CompilerFaultSignal(const absl::Status& status);

// CompilerFaultMessage states such a crash in a verdict, without the run's
// file names, so that it is the same in every run: "the compiler died of
// signal 11 (Segmentation fault)".
std::string CompilerFaultMessage(int signal);

// QuotedOutput is how a message quotes a compiler's output: its first 400
// bytes, as OutsideText (harness/platform/outside_text.h), since a compiler
// that fails may print any bytes and messages are stored and printed.
std::string QuotedOutput(absl::string_view output);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_COMPILER_RUN_H_
