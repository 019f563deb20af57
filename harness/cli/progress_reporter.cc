#include "harness/cli/progress_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace matload {
namespace {

// Clock is a duration as h:mm:ss, or m:ss under an hour.
std::string Clock(absl::Duration duration) {
  const std::int64_t seconds = std::max<std::int64_t>(0, absl::ToInt64Seconds(duration));
  if (seconds >= 3600) return absl::StrFormat("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  return absl::StrFormat("%d:%02d", seconds / 60, seconds % 60);
}

// Count is `n` with thousands separated: 12,345.
std::string Count(size_t n) {
  std::string digits = absl::StrCat(n);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return digits;
}

}  // namespace

ProgressReporter::Options ProgressReporter::ForStderr(int interval_seconds, bool tick) {
  Options options;
  options.terminal = isatty(STDERR_FILENO) != 0;
  options.interval = absl::Seconds(std::max(1, interval_seconds));
  if (tick) options.tick = absl::Seconds(1);
  return options;
}

ProgressReporter::ProgressReporter(std::ostream& out, std::string unit, Options options)
    : out_(out), unit_(std::move(unit)), options_(std::move(options)) {
  if (!options_.tick.has_value()) return;
  ticker_ = std::thread([this] {
    absl::MutexLock lock(&mutex_);
    while (!mutex_.AwaitWithTimeout(absl::Condition(&stopping_), *options_.tick)) {
      PrintIfDueLocked();
    }
  });
}

ProgressReporter::~ProgressReporter() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  if (ticker_.joinable()) ticker_.join();
  Finish();
}

void ProgressReporter::StartPhase(absl::string_view title, size_t total, bool estimated) {
  Finish();
  absl::MutexLock lock(&mutex_);
  title_ = std::string(title);
  total_ = total;
  estimated_ = estimated;
  deadline_.reset();
  done_ = 0;
  detail_.clear();
  start_ = last_print_ = options_.now();
  active_ = true;
}

void ProgressReporter::SetTotal(size_t total, bool estimated) {
  absl::MutexLock lock(&mutex_);
  total_ = total;
  estimated_ = estimated;
}

void ProgressReporter::SetDeadline(absl::Time deadline) {
  absl::MutexLock lock(&mutex_);
  deadline_ = deadline;
}

void ProgressReporter::Update(size_t done, absl::string_view detail) {
  absl::MutexLock lock(&mutex_);
  done_ = done;
  detail_ = std::string(detail);
  PrintIfDueLocked();
}

void ProgressReporter::Tick() {
  absl::MutexLock lock(&mutex_);
  PrintIfDueLocked();
}

void ProgressReporter::PrintIfDueLocked() {
  if (active_ && (options_.terminal || options_.now() - last_print_ >= options_.interval)) PrintLocked(false);
}

void ProgressReporter::Finish() {
  absl::MutexLock lock(&mutex_);
  if (!active_) return;
  if (options_.terminal || LineLocked() != printed_) PrintLocked(true);
  active_ = false;
}

std::string ProgressReporter::Line() {
  absl::MutexLock lock(&mutex_);
  return LineLocked();
}

std::string ProgressReporter::LineLocked() {
  const absl::Time now = options_.now();
  const absl::Duration elapsed = now - start_;
  std::string line = absl::StrCat(title_, ": ", Count(done_));
  if (total_ > 0) {
    absl::StrAppend(&line, "/", estimated_ ? "~" : "", Count(total_), " ", unit_,
                    absl::StrFormat(" (%d%%)", static_cast<int>(100 * std::min(done_, total_) / total_)));
  } else {
    absl::StrAppend(&line, " ", unit_);
  }
  const double seconds = absl::ToDoubleSeconds(elapsed);
  const double rate = seconds > 0 ? done_ / seconds : 0;
  absl::StrAppend(&line, ", ", rate >= 10 ? absl::StrFormat("%.0f", rate) : absl::StrFormat("%.1f", rate), "/s, ",
                  Clock(elapsed));
  if (deadline_.has_value()) {
    absl::StrAppend(&line, ", ", Clock(*deadline_ - now), " left");
  } else if (total_ > 0 && rate > 0 && done_ < total_) {
    absl::StrAppend(&line, ", ", estimated_ ? "~" : "", Clock(absl::Seconds((total_ - done_) / rate)), " left");
  }
  if (!detail_.empty()) absl::StrAppend(&line, " | ", detail_);
  return line;
}

void ProgressReporter::PrintLocked(bool final) {
  last_print_ = options_.now();
  std::string line = LineLocked();
  printed_ = line;
  if (options_.terminal) {
    // The cursor stays on the line; \x1b[K clears what a longer line left.
    if (line.size() > options_.columns - 1) line.resize(options_.columns - 1);
    out_ << "\r" << line << "\x1b[K" << (final ? "\n" : "") << std::flush;
  } else {
    out_ << line << "\n" << std::flush;
  }
}

}  // namespace matload
