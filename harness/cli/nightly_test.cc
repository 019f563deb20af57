// The nightly workflow end to end, as the README's nightly script runs it:
// support runs into one results store, a baseline of expected failures,
// a diff against last night, and the JUnit and CSV exports; and every bad
// input to them, each with its exit status and nothing stored lost. The
// toolchain is the real ptxas; tonight's regression is made with
// harness/testing/fake_ptxas.sh in its reject-ldmatrix mode, which
// rejects every ldmatrix line as a broken ptxas would.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

// ReadText is the file at `path`.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

class NightlyTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }

  // Matload runs matload in this test's directory, with its own store.
  ProcessResult Matload(std::vector<std::string> arguments, std::vector<std::string> environment = {}) const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    environment.push_back("MATLOAD_DB=" + (root_ / "results.sqlite").string());
    absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(300), environment);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Support sweeps sm_90's ldmatrix .x1 cases, tonight's toolchain broken
  // or not, with `extra` arguments.
  ProcessResult Support(bool broken, std::vector<std::string> extra = {}) const {
    std::vector<std::string> arguments = {"support", "--target", "sm_90", "--include", "sm_90.ldmatrix.*.x1.*"};
    std::vector<std::string> environment;
    if (broken) {
      arguments.insert(arguments.end(), {"--ptxas", SourceTreePath("harness/testing/fake_ptxas.sh")});
      environment.push_back("MATLOAD_FAKE_PTXAS=reject-ldmatrix");
    }
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return Matload(arguments, environment);
  }

  // ExpectValidJunit expects the JUnit file at `path` to be valid against
  // the schema Jenkins reads JUnit with (harness/runs/junit-jenkins.xsd),
  // where xmllint is installed (scripts/install-deps.sh).
  static void ExpectValidJunit(const std::filesystem::path& path) {
    absl::StatusOr<ProcessResult> lint =
        RunProcess({"xmllint", "--noout", "--schema", SourceTreePath("harness/runs/junit-jenkins.xsd"), path.string()},
                   std::chrono::seconds(60));
    if (!lint.ok()) {
      std::cerr << "not checked against the schema: no xmllint (apt-get install libxml2-utils)\n";
      return;
    }
    EXPECT_EQ(lint->exit_code, 0) << lint->standard_error;
  }

  std::filesystem::path root_;
};

TEST_F(NightlyTest, BaselineDiffAndExportsFollowARegression) {
  ASSERT_EQ(Support(false).exit_code, kExitClean);
  ProcessResult baseline = Matload({"baseline", "support@latest", "--out", (root_ / "last-night.csv").string()});
  ASSERT_EQ(baseline.exit_code, kExitClean) << baseline.standard_error;
  EXPECT_THAT(ReadText(root_ / "last-night.csv"), HasSubstr("# toolkits: ptxas 13.0.88"));

  // Tonight ptxas rejects every ldmatrix form: findings, regressions against
  // the baseline, and new failures against last night.
  ProcessResult tonight = Support(true, {"--baseline", (root_ / "last-night.csv").string()});
  EXPECT_EQ(tonight.exit_code, kExitFindings) << tonight.standard_error;
  EXPECT_THAT(tonight.standard_output, HasSubstr("regression: sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64"));
  ProcessResult diff = Matload({"diff", "support@latest~1", "support@latest"});
  EXPECT_EQ(diff.exit_code, kExitFindings) << diff.standard_error;
  EXPECT_THAT(diff.standard_output,
              HasSubstr("sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64: pass -> legal_rejected"));
  EXPECT_EQ(Matload({"diff", "support@latest~1", "support@latest~1"}).exit_code, kExitClean);

  ProcessResult exported = Matload({"export", "support@latest", "--junit", (root_ / "junit.xml").string(), "--csv",
                                    (root_ / "results.csv").string()});
  ASSERT_EQ(exported.exit_code, kExitClean) << exported.standard_error;
  // A support run is one testcase per target, family and qualifier set.
  const std::string junit = ReadText(root_ / "junit.xml");
  EXPECT_THAT(junit, HasSubstr(R"(classname="sm_90.ldmatrix" name="sync.aligned.m8n8.x1.shared.b16")"));
  EXPECT_THAT(junit, HasSubstr("<failure"));
  ExpectValidJunit(root_ / "junit.xml");
  EXPECT_THAT(ReadText(root_ / "results.csv"),
              HasSubstr("sm_90.ldmatrix.sync.aligned.m8n8.x1.shared.b16.addr64,legal_rejected,"));

  // Tonight's failures, once expected, pass; last night's clean toolchain
  // then fixes them, an error only with --strict-baseline.
  ASSERT_EQ(Matload({"baseline", "support@latest", "--out", (root_ / "tonight.csv").string()}).exit_code, kExitClean);
  // Exported with that baseline, tonight's failures are skipped tests that
  // say the baseline expects them.
  ProcessResult expected = Matload({"export", "support@latest", "--baseline", (root_ / "tonight.csv").string(),
                                    "--junit", (root_ / "expected.xml").string()});
  ASSERT_EQ(expected.exit_code, kExitClean) << expected.standard_error;
  EXPECT_THAT(ReadText(root_ / "expected.xml"), HasSubstr(R"(failures="0")"));
  EXPECT_THAT(ReadText(root_ / "expected.xml"), HasSubstr("expected by the baseline: legal_rejected"));
  ExpectValidJunit(root_ / "expected.xml");
  EXPECT_EQ(Support(true, {"--baseline", (root_ / "tonight.csv").string()}).exit_code, kExitClean);
  ProcessResult fixed = Support(false, {"--baseline", (root_ / "tonight.csv").string()});
  EXPECT_EQ(fixed.exit_code, kExitClean);
  EXPECT_THAT(fixed.standard_output, HasSubstr("fixed: sm_90.ldmatrix"));
  EXPECT_EQ(Support(false, {"--baseline", (root_ / "tonight.csv").string(), "--strict-baseline"}).exit_code,
            kExitFindings);
  ProcessResult runs = Matload({"runs"});
  EXPECT_EQ(runs.exit_code, kExitClean);
  EXPECT_EQ(std::count(runs.standard_output.begin(), runs.standard_output.end(), '\n'), 5);

  // The job prunes the store to two nights; the diff still finds last night.
  ProcessResult pruned = Matload({"prune", "--keep", "2"});
  EXPECT_EQ(pruned.exit_code, kExitClean) << pruned.standard_error;
  EXPECT_THAT(pruned.standard_output, HasSubstr("deleted 3 of 5 runs"));
  EXPECT_EQ(Matload({"diff", "support@latest~1", "support@latest"}).exit_code, kExitClean);
  runs = Matload({"runs"});
  EXPECT_EQ(std::count(runs.standard_output.begin(), runs.standard_output.end(), '\n'), 2);
}

TEST_F(NightlyTest, BadInputIsAUsageErrorAndLosesNothing) {
  ASSERT_EQ(Support(false).exit_code, kExitClean);
  const std::string stored = ReadText(root_ / "results.sqlite");
  auto expect_usage = [&](const ProcessResult& result, const std::string& message) {
    EXPECT_EQ(result.exit_code, kExitUsage) << message << ": " << result.standard_error;
    EXPECT_THAT(result.standard_error, HasSubstr(message));
  };
  expect_usage(Matload({"diff", "support@latest", "support-19700101T000000Z-00000000"}), "no run");
  expect_usage(Matload({"diff", "support@latest~5", "support@latest"}), "holds 1 support runs");
  expect_usage(Matload({"diff", "support@soon", "support@latest"}), "is not a run");
  std::ofstream(root_ / "kept.csv") << "kept\n";
  expect_usage(Matload({"baseline", "support@latest", "--out", (root_ / "kept.csv").string()}), "never written over");
  EXPECT_EQ(ReadText(root_ / "kept.csv"), "kept\n");
  std::ofstream(root_ / "bad.csv") << "# matload baseline\nsm_90.x,pass\nnot a line\n";
  expect_usage(Support(false, {"--baseline", (root_ / "bad.csv").string()}), "line 3");
  expect_usage(Support(false, {"--include", "a b"}), "is not a case ID or glob");
  std::filesystem::create_directories(root_ / "published");
  std::ofstream(root_ / "published" / "support.md") << "published\n";
  expect_usage(Support(false, {"--out", (root_ / "published").string()}), "is not empty");
  EXPECT_EQ(ReadText(root_ / "published" / "support.md"), "published\n");
  ProcessResult runs = Matload({"runs", "--json"});
  EXPECT_THAT(runs.standard_output, HasSubstr("\"status\": \"clean\""));
  expect_usage(Support(false, {"--resume", "support@latest"}), "no run");
  std::ofstream(root_ / "corrupt.sqlite") << std::string(4096, 'x');
  expect_usage(Matload({"runs", "--db", (root_ / "corrupt.sqlite").string()}), "corrupt.sqlite");
  EXPECT_EQ(ReadText(root_ / "corrupt.sqlite"), std::string(4096, 'x'));
  const std::string store_path = (root_ / "results.sqlite").string();
  expect_usage(Matload({"export", "support@latest", "--csv", store_path}), "not an earlier CSV export");
  expect_usage(
      Matload({"export", "support@latest", "--csv", (root_ / "x").string(), "--junit", (root_ / "x").string()}),
      "name one file");
  expect_usage(Matload({"export", "support@latest", "--csv", (root_ / "no" / "such" / "x.csv").string()}),
               "cannot write");
  expect_usage(Support(false, {"--baseline", root_.string()}), "is a directory, not a regular file");
  expect_usage(Support(false, {"--include", "sm90.*"}), "take no case of this support run");
  // Every refused command left the one run stored as it was.
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(root_ / "results.sqlite");
  ASSERT_TRUE(store.ok());
  const std::vector<RunRecord> runs_stored = *store->Runs();
  ASSERT_EQ(runs_stored.size(), 2u);
  EXPECT_EQ(runs_stored.front().status, "clean");
  // The filter that took no case is a run refused with exit 2, as it asked.
  EXPECT_EQ(runs_stored.back().status, "usage");
}

// An export replaces only its own earlier self: a file whose export
// marker names the same kind and the same run (or, for a diff page, the
// same two runs). Any other file, a matload page of another kind or run
// (a published one included) or a googletest report that starts as JUnit
// does, is refused, exit 2, and left as it was.
TEST_F(NightlyTest, AnExportReplacesOnlyItsOwnEarlierExport) {
  ASSERT_EQ(Support(false, {"--out", (root_ / "a").string()}).exit_code, kExitClean);
  ASSERT_EQ(Support(false, {"--out", (root_ / "b").string()}).exit_code, kExitClean);
  const std::filesystem::path gtest = root_ / "gtest.xml";
  std::ofstream(gtest) << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"1\" name=\"AllTests\">\n"
                          "  <testsuite name=\"A\" tests=\"1\"><testcase name=\"b\"/></testsuite>\n</testsuites>\n";
  const std::vector<std::filesystem::path> others = {gtest, root_ / "b" / "report.html", root_ / "a" / "support.html"};
  std::vector<std::string> before;
  for (const std::filesystem::path& path : others) before.push_back(ReadText(path));
  const auto refused = [&](const std::vector<std::string>& arguments, const std::string& message) {
    const ProcessResult result = Matload(arguments);
    EXPECT_EQ(result.exit_code, kExitUsage) << result.standard_error;
    EXPECT_THAT(result.standard_error, HasSubstr(message));
  };
  refused({"export", "support@latest~1", "--junit", gtest.string()}, "is not an earlier junit export of run support-");
  refused({"export", "support@latest~1", "--html", others[1].string()}, "is not an earlier run-page of run support-");
  refused({"export", "support@latest~1", "--html", others[2].string()}, "is not an earlier run-page");
  refused({"diff", "support@latest~1", "support@latest", "--html", others[1].string()}, "is not an earlier diff-page");
  for (size_t i = 0; i < others.size(); ++i) EXPECT_EQ(ReadText(others[i]), before[i]) << others[i];
  // A run's own page, and its own earlier exports, are replaced.
  const std::string junit = (root_ / "junit.xml").string();
  const std::string page = (root_ / "a" / "report.html").string();
  for (int time = 0; time < 2; ++time) {
    const ProcessResult exported = Matload({"export", "support@latest~1", "--junit", junit, "--html", page});
    EXPECT_EQ(exported.exit_code, kExitClean) << exported.standard_error;
    const ProcessResult diffed =
        Matload({"diff", "support@latest~1", "support@latest", "--html", (root_ / "diff.html").string()});
    EXPECT_EQ(diffed.exit_code, kExitClean) << diffed.standard_error;
  }
  // Tonight's run does not replace last night's export.
  refused({"export", "support@latest", "--junit", junit}, "is not an earlier junit export of run support-");
  refused({"diff", "support@latest", "support@latest~1", "--html", (root_ / "diff.html").string()},
          "is not an earlier diff-page of runs support-");
}

// One night, counted once: the progress line, the summary line, the last
// line, support.json, support.html, the baseline's verdict, the diff, the
// listing of runs and the CSV export all give the store's numbers of cases
// and findings (a matrix row in its plain style is also a legal form, and
// was once counted twice everywhere but the store).
TEST_F(NightlyTest, EveryOutputCountsTheStoresCasesAndFindings) {
  ASSERT_EQ(Support(false).exit_code, kExitClean);
  ASSERT_EQ(Matload({"baseline", "support@latest", "--out", (root_ / "last-night.csv").string()}).exit_code,
            kExitClean);
  const ProcessResult tonight =
      Support(true, {"--baseline", (root_ / "last-night.csv").string(), "--out", (root_ / "tonight").string()});
  ASSERT_EQ(tonight.exit_code, kExitFindings) << tonight.standard_error;
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(root_ / "results.sqlite");
  ASSERT_TRUE(store.ok());
  const std::vector<CaseRecord> cases = *store->Cases(store->Runs()->back().id);
  const size_t findings = std::count_if(cases.begin(), cases.end(), [](const CaseRecord& c) { return c.finding; });
  ASSERT_GT(findings, 0u);
  const std::string said = tonight.standard_output + tonight.standard_error;
  EXPECT_THAT(said, HasSubstr(absl::StrCat(cases.size(), "/", cases.size(), " cases")));
  std::smatch summary;
  const std::regex summary_line(R"(: (\d+) agree, (\d+) known discrepancies, (\d+) unexplained)");
  ASSERT_TRUE(std::regex_search(said, summary, summary_line)) << said;
  EXPECT_EQ(std::stoul(summary[1]) + std::stoul(summary[2]) + std::stoul(summary[3]), cases.size());
  EXPECT_EQ(std::stoul(summary[3]), findings);
  EXPECT_THAT(said, HasSubstr(absl::StrCat("; ", findings, " unexplained disagreements")));
  EXPECT_THAT(said, HasSubstr(absl::StrCat("baseline: 0 expected failures, ", findings, " regressions")));
  const nlohmann::json json = nlohmann::json::parse(ReadText(root_ / "tonight" / "support.json"));
  EXPECT_EQ(json["summaries"][0]["unexplained"].get<size_t>(), findings);
  EXPECT_EQ(json["disagreements"].size(), findings);
  EXPECT_THAT(ReadText(root_ / "tonight" / "support.html"), HasSubstr(absl::StrCat("data-count=\"", findings, "\"")));
  EXPECT_THAT(Matload({"diff", "support@latest~1", "support@latest"}).standard_output,
              HasSubstr(absl::StrCat("new failures: ", findings, ",")));
  EXPECT_THAT(Matload({"runs"}).standard_output,
              HasSubstr(absl::StrFormat("%7d cases %5d findings", cases.size(), findings)));
  ASSERT_EQ(Matload({"export", "support@latest", "--csv", (root_ / "tonight.csv").string()}).exit_code, kExitClean);
  const std::string csv = ReadText(root_ / "tonight.csv");
  EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), cases.size() + 1);  // and the header
}

// Two runs writing one results store at once (two GPUs of a host, say)
// both finish with every case: SQLite serialises their transactions.
TEST_F(NightlyTest, TwoRunsWriteOneStoreAtOnce) {
  std::vector<BackgroundProcess> runs;
  for (const char* name : {"first", "second"}) {
    absl::StatusOr<BackgroundProcess> run = BackgroundProcess::Start(
        {MATLOAD_BINARY, "support", "--target", "sm_90", "--include", "sm_90.ldmatrix.*", "--out",
         (root_ / name).string()},
        {"MATLOAD_DB=" + (root_ / "results.sqlite").string()}, (root_ / (std::string(name) + ".log")).string());
    ASSERT_TRUE(run.ok()) << run.status();
    runs.push_back(*std::move(run));
  }
  for (BackgroundProcess& run : runs) {
    std::optional<int> exit_code;
    for (int i = 0; i < 1200 && !exit_code.has_value(); ++i) {
      exit_code = run.Poll();
      if (!exit_code.has_value()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(exit_code, std::optional<int>(kExitClean))
        << ReadText(root_ / "first.log") << ReadText(root_ / "second.log");
  }
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(root_ / "results.sqlite");
  ASSERT_TRUE(store.ok());
  const std::vector<RunRecord> stored = *store->Runs();
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(store->Cases(stored[0].id)->size(), store->Cases(stored[1].id)->size());
  EXPECT_GT(store->Cases(stored[0].id)->size(), 500u);  // 711 with ptxas 13.0.88
}

TEST_F(NightlyTest, AFinishedRunCannotBeResumed) {
  ASSERT_EQ(Support(false).exit_code, kExitClean);
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(root_ / "results.sqlite");
  const std::string id = store->Runs()->front().id;
  ProcessResult resumed = Support(false, {"--resume", id});
  EXPECT_EQ(resumed.exit_code, kExitUsage);
  EXPECT_THAT(resumed.standard_error, HasSubstr("nothing to resume"));
  ProcessResult other = Support(false, {"--resume", id, "--threads", "2", "--target", "sm_80"});
  EXPECT_EQ(other.exit_code, kExitUsage);
}

}  // namespace
}  // namespace matload
