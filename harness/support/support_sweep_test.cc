#include "harness/support/support_sweep.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/subprocess.h"
#include "harness/report/page_rows.h"
#include "harness/support/support_report.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

class SupportSweepTest : public ::testing::Test {
 protected:
  // SetUpTestSuite runs the suite's one sweep. Its error is kept and fails
  // every test in SetUp: a fatal failure here would print "[  SKIPPED ]"
  // for each test, which ctest counts as skipped, not failed.
  static void SetUpTestSuite() { setup_ = new absl::Status(Sweep()); }

  void SetUp() override { ASSERT_TRUE(setup_->ok()) << *setup_; }

  // Sweep sweeps three targets with the toolkit's ptxas, keeping the sweep
  // and every progress it told.
  static absl::Status Sweep() {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    if (!ptxas.ok()) return ptxas.status();
    ptxas_ = new Ptxas(*std::move(ptxas));
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
    if (!registry.ok()) return registry.status();
    registry_ = new DiscrepancyRegistry(*std::move(registry));
    progress_ = new std::vector<SweepProgress>;
    absl::StatusOr<SupportSweep> sweep =
        RunSupportSweep(*ptxas_, *registry_, {*ParseTarget("sm_75"), *ParseTarget("sm_100a"), *ParseTarget("sm_70")},
                        {9, 0}, 2, [](const SweepProgress& now) { progress_->push_back(now); });
    if (!sweep.ok()) return sweep.status();
    sweep_ = new SupportSweep(*std::move(sweep));
    return absl::OkStatus();
  }

  static const SupportRow& Row(absl::string_view opcode) {
    for (const SupportRow& row : sweep_->rows) {
      if (row.opcode == opcode) return row;
    }
    ADD_FAILURE() << "no row " << opcode;
    return sweep_->rows.front();
  }

  static Ptxas* ptxas_;
  static DiscrepancyRegistry* registry_;
  static SupportSweep* sweep_;
  static std::vector<SweepProgress>* progress_;  // every progress the sweep told, in order
  static absl::Status* setup_;                   // what SetUpTestSuite's sweep returned
};

Ptxas* SupportSweepTest::ptxas_ = nullptr;
DiscrepancyRegistry* SupportSweepTest::registry_ = nullptr;
SupportSweep* SupportSweepTest::sweep_ = nullptr;
std::vector<SweepProgress>* SupportSweepTest::progress_ = nullptr;
absl::Status* SupportSweepTest::setup_ = nullptr;

// Progress counts cases, as the store does (one per case ID: a matrix row
// in its plain style is also a legal form, one case): each target's once
// when it starts, and as done while ptxas judges them, run after run, not
// only when the target ends.
TEST_F(SupportSweepTest, ProgressCountsCasesAsTheyAreJudged) {
  const std::vector<SweepProgress>& progress = *progress_;
  const size_t forms = sweep_->cases.size();
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().targets, 3u);
  EXPECT_EQ(progress.back().targets_started, 3u);
  EXPECT_EQ(progress.back().forms_counted, forms);
  EXPECT_EQ(progress.back().forms_done, forms);
  // A start and an end per target would be 6; the two targets ptxas 13
  // compiles take hundreds of runs each (TargetSummary::compiler_runs).
  EXPECT_GT(progress.size(), 6u + 10u);
  // While a target is being judged, its forms are partly done.
  const auto partly_done = [](const SweepProgress& now) {
    return now.forms_done > 0 && now.forms_done < now.forms_counted && now.targets_started < now.targets;
  };
  EXPECT_TRUE(std::any_of(progress.begin(), progress.end(), partly_done));
  for (size_t i = 0; i < progress.size(); ++i) {
    EXPECT_LE(progress[i].forms_done, progress[i].forms_counted) << i;
    if (i > 0) EXPECT_GE(progress[i].forms_done, progress[i - 1].forms_done) << i;
  }
}

TEST_F(SupportSweepTest, MatrixRowsCarryBothVerdicts) {
  const SupportRow& m8n8 = Row("ldmatrix.sync.aligned.m8n8.x1.b16");
  EXPECT_TRUE(m8n8.cells.at("sm_75").model_legal);
  EXPECT_TRUE(m8n8.cells.at("sm_75").compiler_accepted);
  const SupportRow& tmem = Row("tcgen05.ld.sync.aligned.32x32b.x1.b32");
  EXPECT_FALSE(tmem.cells.at("sm_75").model_legal);
  EXPECT_FALSE(tmem.cells.at("sm_75").compiler_accepted);
  EXPECT_THAT(tmem.cells.at("sm_75").compiler_messages[0], HasSubstr("not supported on .target 'sm_75'"));
  EXPECT_TRUE(tmem.cells.at("sm_100a").compiler_accepted);
  // CUDA 13's ptxas cannot target Volta: the model judges alone.
  EXPECT_FALSE(m8n8.cells.at("sm_70").compiled);
  EXPECT_FALSE(m8n8.cells.at("sm_70").model_legal) << "ldmatrix needs sm_75";
  EXPECT_TRUE(Row("wmma.load.a.sync.aligned.row.m16n16k16.f16").cells.at("sm_70").model_legal);
}

// A case's time is its share of its target's: the forms compile in batches.
TEST_F(SupportSweepTest, EveryCaseIsTimedByItsShareOfItsTarget) {
  ASSERT_FALSE(sweep_->cases.empty());
  for (const CaseRecord& record : sweep_->cases) ASSERT_GT(record.seconds, 0) << record.id;
}

TEST_F(SupportSweepTest, EveryDisagreementIsExplained) {
  for (const TargetSummary& summary : sweep_->summaries) {
    EXPECT_EQ(summary.unexplained, 0u) << summary.target;
    if (summary.compiled) EXPECT_GT(summary.agree, 10000u) << summary.target;
  }
  for (const Disagreement& disagreement : sweep_->disagreements) {
    EXPECT_FALSE(disagreement.registry_id.empty()) << disagreement.instruction;
  }
}

TEST_F(SupportSweepTest, WritesAReportWhoseReproducersReproduce) {
  const std::string directory = ::testing::TempDir() + "/support-report";
  ReportContext context{.command = "matload support (test)", .date = "2026-11-22", .machine = "test",
                        .compiler_path = ptxas_->path()};
  ASSERT_TRUE(WriteSupportReport(*sweep_, *registry_, context, directory).ok());
  std::ifstream json_file(directory + "/support.json");
  nlohmann::json json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["ptx"], "9.0");
  EXPECT_EQ(json["targets"].size(), 3u);
  EXPECT_EQ(json["rows"].size(), sweep_->rows.size());
  std::stringstream html;
  html << std::ifstream(directory + "/support.html").rdbuf();
  EXPECT_THAT(html.str(), HasSubstr("<h2 id=\"ldmatrix\">ldmatrix</h2>"));
  // The matrix rows come as a data block the page's script renders (harness/report/data_block.h).
  absl::StatusOr<std::vector<nlohmann::json>> ldmatrix = PageRows(html.str(), "matrix-ldmatrix");
  ASSERT_TRUE(ldmatrix.ok()) << ldmatrix.status();
  ASSERT_FALSE(ldmatrix->empty());
  EXPECT_THAT(ldmatrix->front()["css"], ::testing::Contains("m-both"));
  std::stringstream md;
  md << std::ifstream(directory + "/support.md").rdbuf();
  EXPECT_THAT(md.str(), HasSubstr("| sm_70 |"));
  ASSERT_FALSE(json["disagreements"].empty());
  for (const nlohmann::json& group : json["disagreements"]) {
    // Each reproducer, assembled as its report line says, shows the disagreement.
    absl::StatusOr<ProcessResult> run = RunProcess(
        {ptxas_->path(), "-arch=" + group["example_target"].get<std::string>(),
         directory + "/" + group["reproducer"].get<std::string>(), "-o", "/dev/null"});
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->exit_code == 0, group["model"] == "illegal") << group["id"] << ": " << run->standard_error;
  }
}

// CountingCompiler is `compiler`, counting the modules it is asked to
// assemble; `accept_all` makes it accept every one, as a compiler that
// cannot judge would.
class CountingCompiler : public CompileOracle {
 public:
  explicit CountingCompiler(const CompileOracle& compiler, bool accept_all = false)
      : compiler_(compiler), accept_all_(accept_all) {}
  std::string Tool() const override { return compiler_.Tool(); }
  std::string Version() const override { return compiler_.Version(); }
  bool Supports(Target target) const override { return compiler_.Supports(target); }
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override {
    ++assembled;
    if (accept_all_) return AssembleResult{.accepted = true};
    return compiler_.Assemble(module_text, target);
  }
  mutable std::atomic<int> assembled = 0;

 private:
  const CompileOracle& compiler_;
  bool accept_all_;
};

// ReportFiles is the report of `sweep` written to `directory`, each file's
// bytes by name.
std::map<std::string, std::string> ReportFiles(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                               const std::string& directory) {
  const ReportContext context{.command = "matload support (test)", .date = "2026-11-22", .machine = "test"};
  EXPECT_TRUE(WriteSupportReport(sweep, registry, context, directory).ok());
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file()) continue;
    std::stringstream bytes;
    bytes << std::ifstream(entry.path(), std::ios::binary).rdbuf();
    files[std::filesystem::relative(entry.path(), directory).string()] = bytes.str();
  }
  return files;
}

// SupportSweepCacheTest sweeps sm_90's ldmatrix and tcgen05 cases with
// the real ptxas, its answers kept in a fresh verdict cache.
class SupportSweepCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    ASSERT_TRUE(ptxas.ok()) << ptxas.status();
    ptxas_ = std::make_unique<Ptxas>(*std::move(ptxas));
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = std::make_unique<DiscrepancyRegistry>(*std::move(registry));
    // One store per test: ctest runs the tests of this file side by side.
    const std::string path = absl::StrCat(::testing::TempDir(), "/support_sweep_cache_",
                                          ::testing::UnitTest::GetInstance()->current_test_info()->name(), ".sqlite");
    std::filesystem::remove(path);
    absl::StatusOr<std::unique_ptr<VerdictCache>> cache = VerdictCache::Open(path);
    ASSERT_TRUE(cache.ok()) << cache.status();
    cache_ = *std::move(cache);
  }

  // Sweep sweeps with `compiler`, answering from the cache.
  absl::StatusOr<SupportSweep> Sweep(const CompileOracle& compiler) {
    const SweepHooks hooks{.select = [](const std::string& id) {
      return id.starts_with("sm_90.ldmatrix.") || id.starts_with("sm_90.tcgen05.");
    }};
    return RunSupportSweep(compiler, *registry_, {*ParseTarget("sm_90")}, {9, 0}, 1, nullptr, "", hooks,
                           {.verdicts = cache_.get(), .compiler = "ptxas (counted)@0123456789abcdef"});
  }

  std::unique_ptr<Ptxas> ptxas_;
  std::unique_ptr<DiscrepancyRegistry> registry_;
  std::unique_ptr<VerdictCache> cache_;
};

// A second sweep with the same toolchain compiles nothing and reports
// byte for byte what the first did.
TEST_F(SupportSweepCacheTest, AWarmSweepCompilesNothingAndReportsTheSame) {
  CountingCompiler cold(*ptxas_);
  absl::StatusOr<SupportSweep> first = Sweep(cold);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_GT(cold.assembled, 10);
  // Every run's answer, and the target's whole check (cached_check.h).
  EXPECT_EQ(cache_->kept(), static_cast<size_t>(cold.assembled.load()) + 1);

  CountingCompiler warm(*ptxas_);
  absl::StatusOr<SupportSweep> second = Sweep(warm);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(warm.assembled, 0);
  // One lookup: the target's whole check.
  EXPECT_EQ(cache_->found(), 1u);
  EXPECT_EQ(ReportFiles(*second, *registry_, ::testing::TempDir() + "/support-warm"),
            ReportFiles(*first, *registry_, ::testing::TempDir() + "/support-cold"));
}

// A compiler that cannot judge (it accepts the batch checker's canary)
// stops the sweep, and none of its answers is kept.
TEST_F(SupportSweepCacheTest, NoAnswerOfACompilerThatCannotJudgeIsKept) {
  CountingCompiler broken(*ptxas_, /*accept_all=*/true);
  absl::StatusOr<SupportSweep> sweep = Sweep(broken);
  EXPECT_EQ(InfrastructureCauseOf(sweep.status()), InfrastructureCause::kCompilerOutputNotUnderstood) << sweep.status();
  EXPECT_GT(broken.assembled, 0);
  EXPECT_EQ(cache_->kept(), 0u);
}

}  // namespace
}  // namespace matload
