// SecondsSince: the time since a steady-clock instant, in seconds, as the
// launch pipeline, the device sweep and the benchmarks keep their stage
// times; and HasElapsed, whether a run's time limit, when it has one, is up.
#ifndef MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_
#define MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_

#include <chrono>
#include <optional>

#include "absl/time/time.h"

namespace matload {

// SecondsSince is the time from `start` to now, in seconds.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// HasElapsed says whether `limit` has passed since `start`; never, without
// a limit (a pipeline or sweep bounded by its variants alone).
inline bool HasElapsed(std::chrono::steady_clock::time_point start, const std::optional<absl::Duration>& limit) {
  return limit.has_value() && SecondsSince(start) >= absl::ToDoubleSeconds(*limit);
}

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_
