// Interrupt: SIGINT, SIGTERM, SIGHUP (a closed terminal or ssh session),
// SIGUSR1 and SIGUSR2 (a batch system's warning) end a long command in
// order. The handler only records the signal; the command's loops poll
// PendingInterrupt(), stop their workers and child processes, write what
// was judged and return InterruptedError, which exits 128+signal
// (exit_status.h).
#ifndef MATLOAD_HARNESS_PLATFORM_INTERRUPT_H_
#define MATLOAD_HARNESS_PLATFORM_INTERRUPT_H_

#include "absl/status/status.h"

namespace matload {

// kSameSignalNs: a second signal this soon after the first is taken as the
// same request (a process and its process group both signalled), not as
// an impatient user's second one.
inline constexpr long long kSameSignalNs = 1'000'000'000;

// InstallInterruptHandlers makes those signals record themselves instead
// of killing the process. A second signal more than kSameSignalNs after
// the first, while the first is being handled, ends the process at once,
// with the usual status.
void InstallInterruptHandlers();

// ResetInterruptHandlers gives those signals their default action again:
// a forked worker, which its parent stops, must die of them.
void ResetInterruptHandlers();

// PendingInterrupt is the signal received since the handlers were
// installed, or 0.
int PendingInterrupt();

// InterruptedError is a kCancelled status naming `signal`.
absl::Status InterruptedError(int signal);

// InterruptSignalOf is the signal an InterruptedError names, or 0.
int InterruptSignalOf(const absl::Status& status);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_INTERRUPT_H_
