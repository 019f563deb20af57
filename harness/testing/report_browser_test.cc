// The HTML reports in a real browser: each kind of page (a conform run on
// the fake GPU of fake_libcuda.cc, a diff of two such runs, a support sweep
// with the real ptxas, a fuzz run's export) is loaded by headless Chromium,
// which runs its JavaScript and dumps the DOM. Each test asserts that the
// summary's counts equal the results store's, that the "only disagreements"
// view (report.html#only-disagreements) shows exactly the disagreeing case
// IDs, and that the page logged no console error (Chromium's log, and the
// page's own collector, #console-errors). The expectations are computed
// here from the store's rows, not by harness/report/.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"

namespace matload {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

// kDisagreeingWords are the outcome words that are disagreements even when
// the registry explains them, as the reports' legend says: a fault the
// registry predicts, and a support sweep's form ptxas judges otherwise.
const std::set<std::string>& DisagreeingWords() {
  static const auto* const kWords =
      new std::set<std::string>{"known_fault", "legal_rejected", "illegal_accepted", "flake"};
  return *kWords;
}

// Disagrees says whether a stored case is a disagreement: a finding, or one of DisagreeingWords.
bool Disagrees(const CaseRecord& record) {
  return record.finding || DisagreeingWords().contains(std::string(CaseOutcomeWord(record.outcome)));
}

// FindChromium is the browser's path, or empty where none is installed.
std::string FindChromium() {
  for (const char* directory : {"/usr/bin", "/usr/local/bin", "/snap/bin"}) {
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      const fs::path path = fs::path(directory) / name;
      if (access(path.c_str(), X_OK) == 0) return path.string();
    }
  }
  return "";
}

// LoadedPage is what the browser made of a page.
struct LoadedPage {
  std::string dom;
  std::string log;  // Chromium's stderr, with the page's console messages
};

// Rows are the <tr> start tags that carry `attribute`, each as its text.
std::vector<std::string> Rows(const std::string& dom, const std::string& attribute) {
  std::vector<std::string> rows;
  const std::regex tag("<tr [^>]*" + attribute + "=\"[^\"]*\"[^>]*>");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), tag); it != std::sregex_iterator(); ++it) {
    rows.push_back(it->str());
  }
  return rows;
}

// Attribute reads one attribute of a start tag, or "".
std::string Attribute(const std::string& tag, const std::string& name) {
  std::smatch match;
  return std::regex_search(tag, match, std::regex(" " + name + "=\"([^\"]*)\"")) ? match[1].str() : "";
}

// ShownCaseIds are the case IDs of every row the filters left visible.
std::set<std::string> ShownCaseIds(const std::string& dom) {
  std::set<std::string> ids;
  for (const std::string& row : Rows(dom, "data-case")) {
    if (!absl::StrContains(row, " hidden")) ids.insert(Attribute(row, "data-case"));
  }
  return ids;
}

// CountsIn reads a summary table's counts: the `key` attribute of each row
// with a data-count cell, to that count.
std::map<std::string, int> CountsIn(const std::string& dom, const std::string& key) {
  std::map<std::string, int> counts;
  const std::regex row("<tr " + key + "=\"([^\"]+)\">.*?data-count=\"([0-9]+)\"");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row); it != std::sregex_iterator(); ++it) {
    counts[(*it)[1].str()] = std::stoi((*it)[2].str());
  }
  return counts;
}

class ReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
    directory_ = fs::path(::testing::TempDir()) /
                 absl::StrCat("report_browser_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_ / "state");
  }

  // Matload runs matload with `arguments` against the fake GPU and the test's store.
  ProcessResult Matload(std::vector<std::string> arguments) const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    arguments.insert(arguments.end(), {"--db", (directory_ / "results.sqlite").string()});
    absl::StatusOr<ProcessResult> result =
        RunProcess(arguments, std::chrono::seconds(300),
                   {absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR), "MATLOAD_FAKE_CUDA=normal",
                    absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (directory_ / "state").string())});
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{.exit_code = -1};
  }

  // Conform runs `conform` on the fake GPU over the ldmatrix forms `forms`
  // matches, into `out`. Its kernels store nothing: every case mismatches.
  void Conform(const std::string& forms, const std::string& out) const {
    const ProcessResult result = Matload(
        {"conform", "--forms", forms, "--variants", "2", "--near_miss=false", "--out", (directory_ / out).string()});
    ASSERT_EQ(result.exit_code, 1) << result.standard_error;
  }

  // Load opens `page` (with `fragment`) in headless Chromium and dumps its DOM.
  LoadedPage Load(const fs::path& page, const std::string& fragment = "") const {
    EXPECT_TRUE(fs::exists(page)) << page;
    absl::StatusOr<ProcessResult> result =
        RunProcess({chromium_, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                    absl::StrCat("--user-data-dir=", (directory_ / "chromium-profile").string()), "--dump-dom",
                    absl::StrCat("file://", fs::absolute(page).string(), fragment)},
                   std::chrono::seconds(120));
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return {};
    EXPECT_EQ(result->exit_code, 0) << result->standard_error;
    return {result->standard_output, result->standard_error};
  }

  // ExpectNoConsoleErrors checks the browser's log and the page's collector.
  static void ExpectNoConsoleErrors(const LoadedPage& page) {
    for (absl::string_view line : absl::StrSplit(page.log, '\n')) {
      EXPECT_FALSE(absl::StrContains(line, ":CONSOLE")) << line;
    }
    EXPECT_TRUE(absl::StrContains(page.dom, "<pre id=\"console-errors\"></pre>")) << "the page collected errors";
    EXPECT_TRUE(absl::StrContains(page.dom, "data-ready=\"1\"")) << "the page's script did not finish";
  }

  // Store opens the test's results store.
  ResultsStore Store() const {
    absl::StatusOr<ResultsStore> store = ResultsStore::OpenReadOnly(directory_ / "results.sqlite");
    EXPECT_TRUE(store.ok()) << store.status();
    return *std::move(store);
  }

  // StoredCases reads the cases of the store's `index`-th run (oldest first).
  std::vector<CaseRecord> StoredCases(size_t index) const {
    ResultsStore store = Store();
    absl::StatusOr<std::vector<RunRecord>> runs = store.Runs();
    EXPECT_TRUE(runs.ok() && runs->size() > index);
    absl::StatusOr<std::vector<CaseRecord>> cases = store.Cases((*runs)[index].id);
    EXPECT_TRUE(cases.ok()) << cases.status();
    return *std::move(cases);
  }

  // ExpectRunPage checks a run's page against the run's stored `cases`.
  void ExpectRunPage(const fs::path& page, const std::vector<CaseRecord>& cases) const {
    std::map<std::string, int> by_outcome;
    std::set<std::string> disagreeing;
    for (const CaseRecord& record : cases) {
      ++by_outcome[std::string(CaseOutcomeWord(record.outcome))];
      if (Disagrees(record)) disagreeing.insert(record.id);
    }
    const LoadedPage whole = Load(page);
    ExpectNoConsoleErrors(whole);
    EXPECT_EQ(CountsIn(whole.dom, "data-outcome"), by_outcome);
    EXPECT_TRUE(absl::StrContains(whole.dom, absl::StrCat("<span id=\"total-cases\">", cases.size(), "</span>")));
    const LoadedPage only = Load(page, "#only-disagreements");
    ExpectNoConsoleErrors(only);
    EXPECT_EQ(ShownCaseIds(only.dom), disagreeing);
  }

  std::string chromium_;
  fs::path directory_;
};

TEST_F(ReportBrowserTest, AConformRunsReport) {
  Conform(R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)", "run");
  const std::vector<CaseRecord> cases = StoredCases(0);
  ASSERT_FALSE(cases.empty());
  ExpectRunPage(directory_ / "run" / "report.html", cases);
  // The fake GPU's judge gave every verdict on SM 0: the strip's one cell,
  // red, as the browser lays it out.
  const LoadedPage page = Load(directory_ / "run" / "report.html");
  EXPECT_TRUE(absl::StrContains(page.dom, "<h2 id=\"gpu-judge\">")) << page.dom;
  EXPECT_TRUE(absl::StrContains(page.dom, "<svg class=\"sm-strip\"")) << page.dom;
  EXPECT_TRUE(absl::StrContains(page.dom, "<rect class=\"o-finding\" x=\"0\"")) << page.dom;
}

TEST_F(ReportBrowserTest, ADiffsReport) {
  Conform(R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)", "night-1");
  Conform(R"(^ldmatrix\.sync\.aligned\.m8n8\.x(1|2)\.)", "night-2");
  const ProcessResult diff =
      Matload({"diff", "conform@latest~1", "conform@latest", "--html", (directory_ / "diff.html").string()});
  ASSERT_EQ(diff.exit_code, 1) << diff.standard_error;  // night 2 adds failing cases
  // By the rules of harness/runs/run_diff.h, from the two nights' rows.
  const std::vector<CaseRecord> a = StoredCases(0), b = StoredCases(1);
  std::map<std::string, const CaseRecord*> in_a;
  for (const CaseRecord& record : a) in_a[record.id] = &record;
  std::map<std::string, int> expected = {{"new_failures", 0}, {"fixed", 0},   {"flaky", 0},    {"changed", 0},
                                         {"added", 0},        {"removed", 0}, {"unchanged", 0}};
  std::set<std::string> disagreeing;
  for (const CaseRecord& record : b) {
    const auto found = in_a.find(record.id);
    if (found == in_a.end()) {
      ++expected["added"];
      expected["new_failures"] += record.finding;
    } else {
      const bool same = found->second->finding == record.finding && found->second->outcome == record.outcome;
      ++expected[same ? "unchanged" : record.finding ? "new_failures" : "changed"];
    }
    if (Disagrees(record) && (found == in_a.end() || found->second->outcome != record.outcome)) {
      disagreeing.insert(record.id);
    }
  }
  ASSERT_GT(expected["added"], 0);
  const LoadedPage whole = Load(directory_ / "diff.html");
  ExpectNoConsoleErrors(whole);
  EXPECT_EQ(CountsIn(whole.dom, "data-list"), expected);
  const LoadedPage only = Load(directory_ / "diff.html", "#only-disagreements");
  ExpectNoConsoleErrors(only);
  EXPECT_EQ(ShownCaseIds(only.dom), disagreeing);
}

TEST_F(ReportBrowserTest, ASupportSweepsReportAndMatrix) {
  // ldmatrix on sm_90: about 700 forms, 32 of them near misses that ptxas 13.0 accepts (known discrepancies).
  const ProcessResult sweep = Matload(
      {"support", "--target", "sm_90", "--include", "sm_90.ldmatrix.*", "--out", (directory_ / "sweep").string()});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.standard_error;
  const std::vector<CaseRecord> cases = StoredCases(0);
  ExpectRunPage(directory_ / "sweep" / "report.html", cases);
  // support.html lists every disagreement the store has, and counts them per target.
  size_t disagreements = 0, explained = 0;
  for (const CaseRecord& record : cases) {
    disagreements += Disagrees(record);
    explained += Disagrees(record) && !record.finding;
  }
  ASSERT_GT(disagreements, 0u);
  const LoadedPage matrix = Load(directory_ / "sweep" / "support.html", "#only-disagreements");
  ExpectNoConsoleErrors(matrix);
  EXPECT_EQ(ShownCaseIds(matrix.dom).size(), disagreements);
  EXPECT_TRUE(absl::StrContains(matrix.dom, absl::StrCat("data-count=\"", explained, "\"")));
}

TEST_F(ReportBrowserTest, AFuzzRunsExportWithHostileTextInEveryField) {
  // A fuzz run as `matload fuzz` records it (harness/cli/fuzz_command.cc), every text hostile: if any
  // reached the page as markup, its script would log a console error. Outcomes are words the store
  // holds (harness/runs/stored_words.h): it refuses any other.
  const std::string hostile = "<script>console.error('escaped?')</script>\"'&<img src=x onerror=console.error(1)>";
  {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(directory_ / "results.sqlite");
    ASSERT_TRUE(store.ok()) << store.status();
    const RunRecord run{.id = "fuzz-20261124T000000Z-00000000",
                        .command = "fuzz",
                        .command_line = "matload fuzz " + hostile,
                        .matload_version = hostile,
                        .git_commit = hostile,
                        .toolkits = hostile,
                        .host = hostile,
                        .directory = (directory_ / hostile).string(),
                        .options = "{}",
                        .started = absl::Now(),
                        .ended = absl::Now(),
                        .status = "findings",
                        .exit_status = 1};
    ASSERT_TRUE(store->CreateRun(run).ok());
    const std::vector<CaseRecord> cases = {
        {.id = "fuzz.text", .outcome = CaseOutcome::kPass, .campaign = CampaignFigures{.runs = 1000}},
        {.id = "fuzz.legality", .outcome = CaseOutcome::kFinding, .finding = true, .detail = hostile},
        {.id = "fuzz.legality.finding." + hostile,
         .outcome = CaseOutcome::kFinding,
         .finding = true,
         .detail = hostile,
         .bundle = "legality/findings/" + hostile},
        {.id = "fuzz.reference.crash.x", .outcome = CaseOutcome::kCrash, .finding = true, .bundle = hostile},
        {.id = "fuzz.cli", .outcome = CaseOutcome::kUnsupported, .detail = hostile},
        {.id = "fuzz.device", .outcome = CaseOutcome::kTimeout, .detail = hostile}};
    ASSERT_TRUE(store->AddCases(run.id, cases).ok());
  }
  const ProcessResult exported = Matload({"export", "fuzz@latest", "--html", (directory_ / "fuzz.html").string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.standard_error;
  const LoadedPage whole = Load(directory_ / "fuzz.html");
  ExpectNoConsoleErrors(whole);
  std::map<std::string, int> counted = CountsIn(whole.dom, "data-outcome");
  EXPECT_EQ(counted["finding"], 2);
  EXPECT_EQ(counted["pass"], 1);
  EXPECT_EQ(counted["unsupported"], 1);
  EXPECT_EQ(counted["timeout"], 1);
  // Listed: the three findings and the timeout that is none, which the only-disagreements view hides.
  EXPECT_EQ(ShownCaseIds(whole.dom).size(), 4u);
  const LoadedPage only = Load(directory_ / "fuzz.html", "#only-disagreements");
  ExpectNoConsoleErrors(only);
  EXPECT_EQ(ShownCaseIds(only.dom).size(), 3u);
  EXPECT_FALSE(absl::StrContains(only.dom, "<img src=\"x\""));
  // Each campaign's row, from its stored counts (the run directory, with its coverage.tsv, is not there).
  EXPECT_EQ(Rows(whole.dom, "data-campaign").size(), 4u);
  EXPECT_TRUE(absl::StrContains(whole.dom, "<td>text</td><td>pass</td><td class=\"n\">1,000</td>"));
}

// The runs index of two nights: one series, a bar per night, and the
// newest night's findings each failing since the first night that had it,
// counted here from the store's rows.
TEST_F(ReportBrowserTest, ARunsIndexAcrossNights) {
  Conform(R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.)", "night-1");
  Conform(R"(^ldmatrix\.sync\.aligned\.m8n8\.x(1|2)\.)", "night-2");
  const ProcessResult indexed = Matload({"runs", "--html", (directory_ / "runs.html").string()});
  ASSERT_EQ(indexed.exit_code, 0) << indexed.standard_error;
  std::set<std::string> first_night;
  for (const CaseRecord& record : StoredCases(0)) {
    if (record.finding) first_night.insert(record.id);
  }
  size_t since_first = 0, new_tonight = 0;
  for (const CaseRecord& record : StoredCases(1)) {
    if (!record.finding) continue;
    ++(first_night.contains(record.id) ? since_first : new_tonight);
  }
  ASSERT_GT(since_first, 0u);
  ASSERT_GT(new_tonight, 0u);
  const LoadedPage page = Load(directory_ / "runs.html");
  ExpectNoConsoleErrors(page);
  EXPECT_EQ(page.dom.find("<section class=\"series\""), page.dom.rfind("<section class=\"series\""));
  EXPECT_TRUE(absl::StrContains(page.dom, "<dt>Runs</dt><dd>2</dd>"));
  EXPECT_TRUE(
      absl::StrContains(page.dom, absl::StrCat("Failing in the newest finished run: ", since_first + new_tonight)));
  size_t marked_new = 0;
  for (size_t at = page.dom.find("<strong>new</strong>"); at != std::string::npos;
       at = page.dom.find("<strong>new</strong>", at + 1)) {
    ++marked_new;
  }
  EXPECT_EQ(marked_new, new_tonight);
}

}  // namespace
}  // namespace matload
