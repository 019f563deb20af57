#include "harness/support_sweep.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/ptxas.h"
#include "harness/subprocess.h"
#include "harness/support_report.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

class SupportSweepTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    ASSERT_TRUE(ptxas.ok()) << ptxas.status();
    ptxas_ = new Ptxas(*std::move(ptxas));
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = new DiscrepancyRegistry(*std::move(registry));
    std::vector<std::string> progress;
    absl::StatusOr<SupportSweep> sweep = RunSupportSweep(
        *ptxas_, *registry_, {*ParseTarget("sm_75"), *ParseTarget("sm_100a"), *ParseTarget("sm_70")}, {9, 0}, 2,
        [&progress](size_t done, size_t total, const std::string& target) {
          progress.push_back(absl::StrCat(done, "/", total));
        });
    ASSERT_TRUE(sweep.ok()) << sweep.status();
    EXPECT_THAT(progress, ::testing::ElementsAre("1/3", "2/3", "3/3"));
    sweep_ = new SupportSweep(*std::move(sweep));
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
};

Ptxas* SupportSweepTest::ptxas_ = nullptr;
DiscrepancyRegistry* SupportSweepTest::registry_ = nullptr;
SupportSweep* SupportSweepTest::sweep_ = nullptr;

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
  EXPECT_THAT(html.str(), HasSubstr("<h2>ldmatrix</h2>"));
  EXPECT_THAT(html.str(), HasSubstr("class=\"c both\""));
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

}  // namespace
}  // namespace matload
