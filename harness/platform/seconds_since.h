// SecondsSince: the time since a steady-clock instant, in seconds, as the
// launch pipeline, the device sweep and the benchmarks keep their stage
// times.
#ifndef MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_
#define MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_

#include <chrono>

namespace matload {

// SecondsSince is the time from `start` to now, in seconds.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SECONDS_SINCE_H_
