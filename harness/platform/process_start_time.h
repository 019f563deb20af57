// ProcessStartTime: when a process started, so that a PID is not mistaken
// for another process's. The kernel reuses a PID once its process has
// ended; the PID and the start time together name one process until the
// machine restarts. A run's claim (harness/runs/results_store.h) records
// both, so that a killed run whose PID a live process now has is seen as
// killed.
#ifndef MATLOAD_HARNESS_PLATFORM_PROCESS_START_TIME_H_
#define MATLOAD_HARNESS_PLATFORM_PROCESS_START_TIME_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace matload {

// ProcessStartTime is when process `pid` started, in clock ticks after the
// machine booted (/proc/PID/stat's 22nd field), or nullopt if there is no
// such process or /proc cannot be read.
std::optional<std::uint64_t> ProcessStartTime(pid_t pid);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_PROCESS_START_TIME_H_
