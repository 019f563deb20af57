#include "harness/platform/interrupt.h"

#include <signal.h>
#include <string.h>
#include <time.h>

#include <atomic>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

constexpr absl::string_view kSignalUrl = "matload/interrupt-signal";

std::atomic<int> pending_signal{0};
std::atomic<long long> first_signal_ns{0};  // CLOCK_MONOTONIC when the first signal came

// MonotonicNs is CLOCK_MONOTONIC in nanoseconds (async-signal-safe).
long long MonotonicNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// RecordSignal keeps the first signal. A second within kSameSignalNs of it
// is the same request sent twice (GNU timeout and Slurm signal the process
// and its process group, each of which reaches matload) and is dropped; a
// later one restores the default action and raises it, so that an
// impatient user can always stop matload.
void RecordSignal(int signal) {
  int expected = 0;
  if (pending_signal.compare_exchange_strong(expected, signal)) {
    first_signal_ns.store(MonotonicNs());
    return;
  }
  if (MonotonicNs() - first_signal_ns.load() < kSameSignalNs) return;
  ::signal(signal, SIG_DFL);
  raise(signal);
}

// kInterruptSignals are the signals that end a command in order. SIGUSR1
// and SIGUSR2 are among them: a batch system may send one as its warning
// before a time limit, and their default action kills matload as SIGKILL
// would, leaving its run marked running.
constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = RecordSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking poll or read returns EINTR
  for (const int signal : kInterruptSignals) sigaction(signal, &action, nullptr);
}

void ResetInterruptHandlers() {
  for (const int signal : kInterruptSignals) ::signal(signal, SIG_DFL);
}

int PendingInterrupt() { return pending_signal.load(std::memory_order_relaxed); }

absl::Status InterruptedError(int signal) {
  absl::Status status(absl::StatusCode::kCancelled, absl::StrCat("interrupted by signal ", signal, " (",
                                                                 strsignal(signal), "); what was judged is kept"));
  status.SetPayload(kSignalUrl, absl::Cord(absl::StrCat(signal)));
  return status;
}

int InterruptSignalOf(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kSignalUrl);
  int signal = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &signal)) return 0;
  return signal;
}

}  // namespace matload
