#include "harness/cli/store_commands.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/exit_status.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

// Cases of a run: one pass, one mismatch.
std::vector<CaseRecord> Tonight() {
  return {{.id = "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit", .outcome = "pass"},
          {.id = "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit", .outcome = "mismatch", .finding = true}};
}

// BaselineOf parses a baseline written by hand.
Baseline BaselineOf(const std::string& text) { return *ParseBaseline(text); }

TEST(BaselineExitStatusTest, ExpectedFailuresAreCleanAndRegressionsAreFindings) {
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(BaselineOf("ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n"), Tonight(),
                               true, false, out),
            kExitClean);
  EXPECT_THAT(out.str(), HasSubstr("baseline: 1 expected failures, 0 regressions, 0 fixed"));
  out.str("");
  EXPECT_EQ(BaselineExitStatus(BaselineOf("# none expected\n"), Tonight(), true, false, out), kExitFindings);
  EXPECT_THAT(out.str(), HasSubstr("regression: ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit"));
}

TEST(BaselineExitStatusTest, AFixedLineIsAnErrorOnlyWhenStrict) {
  const Baseline baseline = BaselineOf(
      "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit,mismatch\n"
      "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n");
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), true, false, out), kExitClean);
  EXPECT_THAT(out.str(), HasSubstr("fixed: ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), true, true, out), kExitFindings);
}

TEST(BaselineExitStatusTest, ALineNamingNoCaseIsAUsageErrorOnlyForAWholeRun) {
  const Baseline baseline = BaselineOf(
      "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit,mismatch\n"
      "ldmatrix.sync.aligned.m8n8.x9.b16.addr64.driver_jit,mismatch\n");
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), true, false, out), kExitUsage);
  EXPECT_THAT(out.str(), HasSubstr("names 1 cases this run does not have, first ldmatrix.sync.aligned.m8n8.x9"));
  EXPECT_EQ(BaselineExitStatus(baseline, Tonight(), false, false, out), kExitClean);
}

TEST(BaselineExitStatusTest, ListsFiftyCasesAndCountsTheRest) {
  std::vector<CaseRecord> cases;
  for (int i = 0; i < 60; ++i) cases.push_back({.id = absl::StrCat("case.", i), .outcome = "mismatch", .finding = true});
  std::ostringstream out;
  EXPECT_EQ(BaselineExitStatus(BaselineOf("# none expected\n"), cases, false, false, out), kExitFindings);
  const std::string said = out.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 52);
  EXPECT_THAT(said, HasSubstr("  ... and 10 more (matload export or diff lists every case)\n"));
}

TEST(LoadBaselineTest, NoPathIsNoBaselineAndBadFilesAreUsageErrors) {
  EXPECT_FALSE(LoadBaseline("")->has_value());
  EXPECT_EQ(LoadBaseline("/nonexistent/baseline.csv").status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string path = testing::TempDir() + "/store_commands_test_baseline.csv";
  std::ofstream(path) << "a.b,mismatch\na.b,pass\n";
  const absl::StatusOr<std::optional<Baseline>> twice = LoadBaseline(path);
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(twice.status().message(), HasSubstr(path));
}

}  // namespace
}  // namespace matload
