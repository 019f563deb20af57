#include "harness/cli/progress_reporter.h"

#include <algorithm>
#include <sstream>
#include <string>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// FakeClock is a clock the test moves by hand.
struct FakeClock {
  absl::Time now = absl::FromUnixSeconds(1'800'000'000);
};

ProgressReporter::Options Options(FakeClock& clock, bool terminal) {
  ProgressReporter::Options options;
  options.terminal = terminal;
  options.interval = absl::Seconds(10);
  options.now = [&clock] { return clock.now; };
  return options;
}

TEST(ProgressReporterTest, OffATerminalALineEveryIntervalAndALastOne) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressReporter progress(out, "forms", Options(clock, false));
    progress.StartPhase("support ptxas 13.0.88", 1000);
    clock.now += absl::Seconds(4);
    progress.Update(200, "sm_90");
    EXPECT_EQ(out.str(), "");  // not yet 10 s
    clock.now += absl::Seconds(6);
    progress.Update(400, "sm_90a");
    EXPECT_EQ(out.str(), "support ptxas 13.0.88: 400/1,000 forms (40%), 40/s, 0:10, 0:15 left | sm_90a\n");
    clock.now += absl::Seconds(5);
    progress.Update(1000, "sm_120a");
  }
  const std::vector<std::string> lines = absl::StrSplit(out.str(), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  EXPECT_EQ(lines[1], "support ptxas 13.0.88: 1,000/1,000 forms (100%), 67/s, 0:15 | sm_120a");
  EXPECT_EQ(out.str().find('\r'), std::string::npos);
}

// A target compiles for minutes between updates; the log still gets a line
// every interval.
TEST(ProgressReporterTest, OffATerminalTicksPrintWhileTheWorkIsSilent) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, "cases", Options(clock, false));
  progress.StartPhase("support", 100);
  for (int second = 1; second <= 25; ++second) {
    clock.now += absl::Seconds(1);
    progress.Tick();
  }
  EXPECT_EQ(out.str(),
            "support: 0/100 cases (0%), 0.0/s, 0:10\n"
            "support: 0/100 cases (0%), 0.0/s, 0:20\n");
}

// The tick thread of ForStderr's options prints without any Update.
TEST(ProgressReporterTest, TheTickThreadPrintsOnItsOwn) {
  std::ostringstream out;
  ProgressReporter::Options options;
  options.interval = absl::Milliseconds(1);
  options.tick = absl::Milliseconds(5);
  {
    ProgressReporter progress(out, "cases", options);
    progress.StartPhase("support", 100);
    absl::SleepFor(absl::Milliseconds(100));
  }
  const std::string text = out.str();
  EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST(ProgressReporterTest, OnATerminalOneLineRedrawnWithin100Columns) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, "cases", Options(clock, true));
  progress.StartPhase("forms", 50);
  clock.now += absl::Seconds(1);
  progress.Update(1, std::string(300, 'x'));
  progress.Update(2, "short");
  progress.Finish();
  const std::vector<std::string> draws = absl::StrSplit(out.str(), '\r', absl::SkipEmpty());
  ASSERT_EQ(draws.size(), 3u);
  for (const std::string& draw : draws) {
    const size_t shown = draw.find("\x1b[K");
    ASSERT_NE(shown, std::string::npos) << draw;
    EXPECT_LE(shown, 99u) << draw;
  }
  EXPECT_THAT(draws[1], HasSubstr("forms: 2/50 cases (4%), 2.0/s, 0:01, 0:24 left | short"));
  EXPECT_EQ(out.str().back(), '\n');  // the last draw ends the line
}

TEST(ProgressReporterTest, EstimatedTotalsAndDeadlinesSayHowMuchIsLeft) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, "runs", Options(clock, false));
  progress.StartPhase("fuzz", 0);
  progress.SetDeadline(clock.now + absl::Seconds(60));
  clock.now += absl::Seconds(20);
  progress.Update(5000);
  EXPECT_EQ(progress.Line(), "fuzz: 5,000 runs, 250/s, 0:20, 0:40 left");
  progress.StartPhase("support", 100, true);
  clock.now += absl::Seconds(10);
  progress.Update(50);
  EXPECT_EQ(progress.Line(), "support: 50/~100 runs (50%), 5.0/s, 0:10, ~0:10 left");
  progress.SetTotal(200, false);
  EXPECT_EQ(progress.Line(), "support: 50/200 runs (25%), 5.0/s, 0:10, 0:30 left");
}

TEST(ProgressReporterTest, EachPhaseEndsWithItsOwnLine) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter progress(out, "cases", Options(clock, false));
  progress.StartPhase("forms", 3);
  progress.Update(3);
  progress.StartPhase("registry confirmations", 2);
  progress.Update(2);
  progress.Finish();
  progress.Finish();  // once only
  EXPECT_EQ(out.str(), "forms: 3/3 cases (100%), 0.0/s, 0:00\nregistry confirmations: 2/2 cases (100%), 0.0/s, 0:00\n");
}

}  // namespace
}  // namespace matload
