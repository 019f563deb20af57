#include "harness/runs/baseline.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// Finding is a case that needs a person.
CaseRecord Finding(std::string id, CaseOutcome outcome) {
  return CaseRecord{.id = std::move(id), .outcome = outcome, .finding = true};
}

// Clean is a case that does not.
CaseRecord Clean(std::string id, CaseOutcome outcome = CaseOutcome::kPass) {
  return CaseRecord{.id = std::move(id), .outcome = outcome, .finding = false};
}

TEST(ParseBaselineTest, ReadsTheHeaderKeysAndTheCases) {
  const absl::StatusOr<Baseline> baseline = ParseBaseline(
      "# matload baseline\r\n"
      "# gpu: NVIDIA H100 80GB HBM3\r\n"
      "#driver:CUDA driver 13000 (580.159.04)\n"
      "# toolkits:\n"
      "# run: conform-1\n"
      "# made_by: hand: after the driver update\n"
      "\n"
      "  ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64 , mismatch \n"
      "# later: a plain comment, not a key\n"
      "sm_90.wmma_load.raw_1f2e-3,legal_rejected");
  ASSERT_TRUE(baseline.ok()) << baseline.status();
  EXPECT_THAT(
      baseline->key,
      ElementsAre(Pair("driver", "CUDA driver 13000 (580.159.04)"), Pair("gpu", "NVIDIA H100 80GB HBM3"),
                  Pair("made_by", "hand: after the driver update"), Pair("run", "conform-1"), Pair("toolkits", "")));
  EXPECT_THAT(baseline->expected, ElementsAre(Pair("ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64", "mismatch"),
                                              Pair("sm_90.wmma_load.raw_1f2e-3", "legal_rejected")));
}

TEST(ParseBaselineTest, EmptyTextIsAnEmptyBaseline) {
  const absl::StatusOr<Baseline> baseline = ParseBaseline("");
  ASSERT_TRUE(baseline.ok()) << baseline.status();
  EXPECT_EQ(*baseline, Baseline{});
}

TEST(ParseBaselineTest, EachMalformedLineIsAnInvalidArgumentNamingItsNumberAndText) {
  struct Bad {
    std::string line;
    std::string problem;
  };
  const std::vector<Bad> bads = {
      {"wmma_load.a.row", "found 1 field(s)"},
      {"wmma_load.a.row,mismatch,extra", "found 3 field(s)"},
      {",mismatch", "the case ID is empty"},
      {"wmma_load.a.row,", "not one lowercase word"},
      {"wmma_load.a.row,Mismatch", "not one lowercase word"},
      {"wmma_load.a.row,mis match", "not one lowercase word"},
      {"wmma_load.a.row,mismatch2", "not one lowercase word"},
      {"wmma_load.*.driver_jit,mismatch", "no globs"},
      {"wmma_load.a row,mismatch", "only letters, digits"},
      {"wmma_load/a,mismatch", "only letters, digits"},
  };
  for (const Bad& bad : bads) {
    const absl::Status status = ParseBaseline(absl::StrCat("# gpu: x\n\nok.case,pass\n", bad.line, "\n")).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad.line;
    EXPECT_THAT(status.message(), AllOf(HasSubstr("line 4 '" + bad.line + "'"), HasSubstr(bad.problem))) << bad.line;
  }
}

TEST(ParseBaselineTest, ACaseIdGivenTwiceNamesBothLines) {
  const absl::Status status = ParseBaseline("a.b,mismatch\n# x\nc.d,timeout\na.b,timeout\n").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), AllOf(HasSubstr("line 4"), HasSubstr("on line 1")));
}

TEST(ParseBaselineTest, AKeyGivenTwiceNamesBothLines) {
  const absl::Status status = ParseBaseline("# matload baseline\n# gpu: A\n# gpu: B\n").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), AllOf(HasSubstr("line 3 '# gpu: B'"), HasSubstr("on line 2")));
}

TEST(RenderBaselineTest, WritesTheHeaderAndTheFindingsSortedById) {
  RunRecord run{.id = "conform-20261124T052300Z-3f9a1c2e",
                .toolkits = "ptxas 13.0.88; nvJitLink 13.0",
                .driver = "CUDA driver 13000\n(580.159.04)",
                .gpu_name = ""};
  const std::vector<CaseRecord> cases = {Finding("wmma_load.b", CaseOutcome::kTimeout), Clean("ldmatrix.a"),
                                         Finding("ldmatrix.z", CaseOutcome::kMismatch),
                                         Clean("ldmatrix.k", CaseOutcome::kKnownFault)};
  const std::string text = RenderBaseline(run, cases);
  EXPECT_EQ(text,
            "# matload baseline\n"
            "# gpu:\n"
            "# driver: CUDA driver 13000 (580.159.04)\n"
            "# toolkits: ptxas 13.0.88; nvJitLink 13.0\n"
            "# run: conform-20261124T052300Z-3f9a1c2e\n"
            "ldmatrix.z,mismatch\n"
            "wmma_load.b,timeout\n");
  const absl::StatusOr<Baseline> read = ParseBaseline(text);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_THAT(read->expected, ElementsAre(Pair("ldmatrix.z", "mismatch"), Pair("wmma_load.b", "timeout")));
  EXPECT_THAT(read->key, ElementsAre(Pair("driver", "CUDA driver 13000 (580.159.04)"), Pair("gpu", ""),
                                     Pair("run", "conform-20261124T052300Z-3f9a1c2e"),
                                     Pair("toolkits", "ptxas 13.0.88; nvJitLink 13.0")));
}

TEST(CompareToBaselineTest, GivesEachCaseItsVerdictAndListsUnknownIds) {
  const Baseline baseline{.expected = {{"same", "mismatch"},
                                       {"other", "mismatch"},
                                       {"now_clean", "timeout"},
                                       {"gone.a", "mismatch"},
                                       {"gone.b", "timeout"}}};
  const std::vector<CaseRecord> cases = {
      Finding("same", CaseOutcome::kMismatch), Finding("other", CaseOutcome::kTimeout),
      Finding("unlisted", CaseOutcome::kUnexpectedFault), Clean("now_clean"), Clean("clean")};
  const BaselineComparison comparison = CompareToBaseline(cases, baseline);
  EXPECT_THAT(comparison.verdicts,
              ElementsAre(Pair("clean", BaselineVerdict::kPass), Pair("now_clean", BaselineVerdict::kFixed),
                          Pair("other", BaselineVerdict::kRegression), Pair("same", BaselineVerdict::kExpected),
                          Pair("unlisted", BaselineVerdict::kRegression)));
  EXPECT_EQ(comparison.Count(BaselineVerdict::kPass), 1);
  EXPECT_EQ(comparison.Count(BaselineVerdict::kExpected), 1);
  EXPECT_EQ(comparison.Count(BaselineVerdict::kRegression), 2);
  EXPECT_EQ(comparison.Count(BaselineVerdict::kFixed), 1);
  EXPECT_THAT(comparison.unknown_ids, ElementsAre("gone.a", "gone.b"));
}

TEST(CompareToBaselineTest, AnEmptyBaselineMakesEveryFindingARegression) {
  const BaselineComparison comparison =
      CompareToBaseline({Finding("a", CaseOutcome::kMismatch), Clean("b")}, Baseline{});
  EXPECT_THAT(comparison.verdicts,
              ElementsAre(Pair("a", BaselineVerdict::kRegression), Pair("b", BaselineVerdict::kPass)));
  EXPECT_TRUE(comparison.unknown_ids.empty());
}

TEST(BaselineVerdictNameTest, SpellsEachVerdict) {
  EXPECT_EQ(BaselineVerdictName(BaselineVerdict::kPass), "pass");
  EXPECT_EQ(BaselineVerdictName(BaselineVerdict::kExpected), "expected");
  EXPECT_EQ(BaselineVerdictName(BaselineVerdict::kRegression), "regression");
  EXPECT_EQ(BaselineVerdictName(BaselineVerdict::kFixed), "fixed");
}

}  // namespace
}  // namespace matload
