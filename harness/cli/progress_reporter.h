// ProgressReporter: the one progress line of every long command (support,
// conform, selftest, fuzz). It counts units of work (forms, cases, fuzz
// executions), not targets, and shows the rate and, from the total or a
// deadline, the time left. On a terminal it redraws one line in place,
// never wider than the terminal's 100 columns; off a terminal (a CI log,
// a cron mail) it prints a plain line every --progress_seconds, which logs
// keep, and a last one when the work ends.
#ifndef MATLOAD_HARNESS_CLI_PROGRESS_REPORTER_H_
#define MATLOAD_HARNESS_CLI_PROGRESS_REPORTER_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace matload {

class ProgressReporter {
 public:
  struct Options {
    bool terminal = false;                        // redraw in place, else a line every `interval`
    absl::Duration interval = absl::Seconds(10);  // off a terminal
    size_t columns = 100;                         // on a terminal, the widest line drawn
    std::function<absl::Time()> now = [] { return absl::Now(); };
    // tick: when set, a thread looks this often whether a line is due, so
    // that lines come while the work is silent (a target compiling for a
    // minute); unset, lines come only with Update.
    std::optional<absl::Duration> tick;
  };

  // ForStderr reports on stderr, redrawing when it is a terminal and
  // otherwise printing a line every `interval_seconds` (--progress_seconds),
  // with a tick of one second when `tick`. A command that forks workers
  // which may write to stderr (conform, selftest: harness/gpu/isolated_runner.h)
  // goes without: a fork while the tick thread held stderr's lock would
  // leave the worker's stderr locked for good.
  static Options ForStderr(int interval_seconds, bool tick);

  // The reporter prints to `out`; `unit` names what it counts ("forms").
  ProgressReporter(std::ostream& out, std::string unit, Options options);
  ~ProgressReporter();

  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // StartPhase ends the phase before (Finish) and starts counting `total`
  // units of phase `title` ("support ptxas 13.0.88", "forms") from now; a
  // total of 0 is unknown. `estimated` marks a total still growing.
  void StartPhase(absl::string_view title, size_t total, bool estimated = false);

  // SetTotal changes the phase's total as it becomes known.
  void SetTotal(size_t total, bool estimated);

  // SetDeadline gives a phase without a total its end, for the time left
  // (a fuzz campaign's).
  void SetDeadline(absl::Time deadline);

  // Update says `done` units are done, with a short `detail` (the last
  // target), and prints when a line is due.
  void Update(size_t done, absl::string_view detail = "");

  // Finish prints the phase's last line (and ends the redrawn one), unless
  // the line printed last says the same.
  void Finish();

  // Tick prints a line when one is due: on a terminal always, else once
  // `interval` has passed since the last. The tick thread calls it.
  void Tick();

  // Line is the progress line as it would be printed now, unclipped.
  std::string Line();

 private:
  std::string LineLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void PrintLocked(bool final) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void PrintIfDueLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  std::ostream& out_;
  const std::string unit_;
  const Options options_;
  absl::Mutex mutex_;
  std::string title_ ABSL_GUARDED_BY(mutex_);
  size_t total_ ABSL_GUARDED_BY(mutex_) = 0;
  bool estimated_ ABSL_GUARDED_BY(mutex_) = false;
  std::optional<absl::Time> deadline_ ABSL_GUARDED_BY(mutex_);
  size_t done_ ABSL_GUARDED_BY(mutex_) = 0;
  std::string detail_ ABSL_GUARDED_BY(mutex_);
  absl::Time start_ ABSL_GUARDED_BY(mutex_);
  absl::Time last_print_ ABSL_GUARDED_BY(mutex_);
  bool active_ ABSL_GUARDED_BY(mutex_) = false;  // a phase started and not finished
  std::string printed_ ABSL_GUARDED_BY(mutex_);  // the line printed last
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread ticker_;  // runs Tick every options_.tick, when set
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_PROGRESS_REPORTER_H_
