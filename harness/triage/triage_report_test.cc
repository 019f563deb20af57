#include "harness/triage/triage_report.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A triage of an ldmatrix case whose optimised build fails, measured by hand.
struct Fixture {
  TriageCase triage_case;
  TriageResult result;
};

Fixture MakeFixture() {
  Fixture fixture;
  fixture.triage_case.program = *TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                                                        *ParseTarget("sm_90"), *ParsePtxVersion("9.0"), {});
  fixture.triage_case.variant = fixture.triage_case.program->MakeVariant(3, 9, false);
  fixture.triage_case.seed = 3;
  fixture.triage_case.bundle = "/runs/night/bundles/001-ldmatrix-mismatch";
  fixture.triage_case.recorded_identity = "NVIDIA H100 80GB HBM3 <GPU-1>";
  TriageResult& result = fixture.result;
  result.signature = "mismatch/moved-128-words-1|2";
  result.gpus.push_back({.ordinal = 0, .identity = "NVIDIA H100", .tally = {{{result.signature, 3}}, 3}});
  SassListing listing = ParseSassListing("        /*0410*/  LDSM.16.M88.4 R4, [R3] ;  /* 0x000000000304783b */\n");
  result.builds.push_back(
      {.build = {.name = "ptxas -O3", .toolchain = "ptxas 13.0.88", .cubin = true, .image = std::string("cubin")},
       .tally = ReplayTally{{{result.signature, 3}}, 3},
       .sass = listing});
  result.builds.push_back({.build = {.name = "nvJitLink", .image = absl::NotFoundError("no libnvJitLink")}});
  result.release_names = {"ptxas 12.4.99", "ptxas 13.0.88"};
  result.range =
      RegressionRange{.probed = {{1, ReleaseState::kFails, "x"}, {0, ReleaseState::kPasses, ""}},
                      .before = 0,
                      .after = 1,
                      .regression = true,
                      .verdict = "regressed between ptxas 12.4.99 (last good) and ptxas 13.0.88 (first bad)"};
  result.culprit = {.stage = "ptxas", .because = "the older cubin passes", .evidence = {"ptxas -O3: fails"}};
  return fixture;
}

TEST(TriageReportTest, TheMarkdownOpensWithTheSummaryAndHoldsEverySection) {
  const Fixture fixture = MakeFixture();
  const std::string md = TriageMarkdown(DescribeTriage(fixture.triage_case, fixture.result));
  EXPECT_THAT(md, HasSubstr("# Triage: ldmatrix.sync.aligned.m8n8.x4.shared.b16, variant 9 of seed 3\n\n"
                            "ldmatrix.sync.aligned.m8n8.x4.shared.b16 (sm_90, PTX 9.0): mismatch/moved-128-words-1|2. "
                            "reproducible (3 of 3 runs fail so) on GPU 0; fails on 1 of 1 GPUs. Culprit: ptxas"));
  EXPECT_THAT(md, HasSubstr("| ptxas -O3 | ptxas 13.0.88 | reproducible (3 of 3 runs fail so): "
                            "mismatch/moved-128-words-1\\|2 | LDSM.16.M88.4 | 0 |"));
  EXPECT_THAT(md, HasSubstr("| nvJitLink |  | not built: no libnvJitLink |"));
  EXPECT_THAT(md, HasSubstr("| ptxas 13.0.88 | fails | x |\n| ptxas 12.4.99 | passes |  |"));
  EXPECT_THAT(md, HasSubstr("/*0410*/ LDSM.16.M88.4 R4, [R3] ;   0x000000000304783b"));
}

TEST(TriageReportTest, AFailureOnSomeGpusOfTheHostIsSpecificToThem) {
  Fixture fixture = MakeFixture();
  fixture.result.gpus.push_back({.ordinal = 1, .identity = "NVIDIA H100 (2)", .tally = {{{"pass", 3}}, 3}});
  fixture.result.gpus.push_back({.ordinal = 2, .identity = "NVIDIA H100 (3)", .tally = {{{"pass", 3}}, 3}});
  EXPECT_THAT(DescribeTriage(fixture.triage_case, fixture.result).summary,
              HasSubstr("fails on 1 of 3 GPUs: specific to GPU 0."));
}

TEST(TriageReportTest, TheHtmlEscapesWhatItShows) {
  const Fixture fixture = MakeFixture();
  absl::StatusOr<std::string> html = TriageHtml(DescribeTriage(fixture.triage_case, fixture.result));
  ASSERT_TRUE(html.ok()) << html.status();
  EXPECT_THAT(*html, HasSubstr("NVIDIA H100 80GB HBM3 &lt;GPU-1&gt;"));
  EXPECT_THAT(*html, Not(HasSubstr("<GPU-1>")));
  EXPECT_THAT(*html, HasSubstr("<h2 id=\"range\">Since which toolkit</h2>"));
}

TEST(TriageReportTest, TheJsonHoldsTheCulpritRecordAndTheRange) {
  const Fixture fixture = MakeFixture();
  const nlohmann::json json = TriageJson(fixture.triage_case, fixture.result);
  EXPECT_EQ(json["culprit"]["stage"], "ptxas");
  EXPECT_EQ(json["range"]["before"], "ptxas 12.4.99");
  EXPECT_EQ(json["range"]["after"], "ptxas 13.0.88");
  EXPECT_EQ(json["builds"][1]["built"], false);
  EXPECT_EQ(json["case"]["variant"], 9);
}

TEST(TriageReportTest, ATriageNeverWritesIntoADirectoryThatHoldsFiles) {
  const std::filesystem::path root =
      std::filesystem::path(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp") / "triage-report-full";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);
  std::ofstream(root / "notes.txt") << "mine";
  const Fixture fixture = MakeFixture();
  EXPECT_EQ(WriteTriage(root, fixture.triage_case, fixture.result).code(), absl::StatusCode::kFailedPrecondition);
  std::ifstream notes(root / "notes.txt");
  std::string text;
  notes >> text;
  EXPECT_EQ(text, "mine");
  EXPECT_FALSE(std::filesystem::exists(root / "triage.md"));
}

}  // namespace
}  // namespace matload
