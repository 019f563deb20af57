#include "harness/gpu/start_gate.h"

#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/time/time.h"
#include "harness/platform/interrupt.h"

namespace matload {
namespace {

// kInterruptSlice bounds one wait at the gate, so that an interrupt is
// noticed promptly.
constexpr absl::Duration kInterruptSlice = absl::Milliseconds(100);

}  // namespace

StartGate::Place& StartGate::Place::operator=(Place&& other) noexcept {
  if (this != &other) {
    Leave();
    gate_ = std::exchange(other.gate_, nullptr);
  }
  return *this;
}

void StartGate::Place::Leave() {
  if (gate_ == nullptr) return;
  absl::MutexLock lock(&gate_->mutex_);
  --gate_->starting_;
  gate_ = nullptr;
}

absl::StatusOr<StartGate::Place> StartGate::Enter(StartPriority priority) {
  absl::MutexLock lock(&mutex_);
  const bool first = priority == StartPriority::kFirstOnItsGpu;
  if (first) ++firsts_waiting_;
  absl::Cleanup admitted_or_interrupted = [&] {
    if (first) --firsts_waiting_;
  };
  const absl::Condition room(this, first ? &StartGate::HasRoom : &StartGate::HasRoomForAnother);
  while (!mutex_.AwaitWithTimeout(room, kInterruptSlice)) {
    if (const int signal = PendingInterrupt(); signal != 0) return InterruptedError(signal);
  }
  ++starting_;
  return Place(this);
}

int StartGate::starting() const {
  absl::MutexLock lock(&mutex_);
  return starting_;
}

StartGate& WorkerStartGate() {
  static StartGate* const gate = new StartGate(kMostWorkerStartsAtOnce);
  return *gate;
}

}  // namespace matload
