// ThreadWindow: a prediction's memory window, kept by its host thread from
// one prediction to the next. A model reads only what its prediction
// wrote first (the matrix's lines, the rows the lanes name), so the window
// needs neither allocating nor clearing per prediction, which cost a 16 KiB
// malloc and memset each (reports/bench/host-bound-h100x2-2026-11-27).
// TestProgramTest.APredictionDoesNotDependOnTheThreadsEarlierOnes holds the
// families to that.
#ifndef MATLOAD_HARNESS_FAMILIES_THREAD_WINDOW_H_
#define MATLOAD_HARNESS_FAMILIES_THREAD_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace matload {

// ThreadWindow lends the calling thread's kept window to `space` (a
// MemoryImage's space, say), `bytes` long, and takes it back when it goes
// out of scope: after a prediction's return value is made.
class ThreadWindow {
 public:
  ThreadWindow(std::vector<std::uint8_t>& space, size_t bytes);
  ~ThreadWindow();
  ThreadWindow(const ThreadWindow&) = delete;
  ThreadWindow& operator=(const ThreadWindow&) = delete;

 private:
  std::vector<std::uint8_t>& space_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_THREAD_WINDOW_H_
