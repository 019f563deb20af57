#include "harness/conform/near_miss_report.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

// A report with a disagreement of each kind, explained and not, and cases
// of several outcomes, as the near-miss sweep's worker writes one.
NearMissReport Sample() {
  return {.near_miss = 412,
          .disagreements = {{.model_legal = false, .registry_id = "jit-accepts-ldmatrix-b8"},
                            {.model_legal = true, .registry_id = ""}},
          .cases = {{.id = "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.jit_compile",
                     .outcome = CaseOutcome::kPass,
                     .seconds = 0.25},
                    {.id = "ldmatrix.sync.aligned.m8n8.x1.trans.b16.addr32.jit_compile",
                     .outcome = CaseOutcome::kLegalRejected,
                     .finding = true,
                     .detail = "ptxas: \"unexpected\"\ttab\nand a line",
                     .seconds = 1.5}}};
}

TEST(NearMissReportTest, WhatTheWorkerEncodesTheRunDecodes) {
  absl::StatusOr<NearMissReport> decoded = NearMissReport::Decode(Sample().Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, Sample());
  EXPECT_EQ(decoded->cases[1].outcome, CaseOutcome::kLegalRejected);
}

TEST(NearMissReportTest, ATextThatIsNoReportIsDataLoss) {
  for (const char* text : {"", "412\nillegal\tentry\tform\tmessage\n", "[]", R"({"near_miss": 1})",
                           R"({"near_miss": -1, "disagreements": [], "cases": []})",
                           R"({"near_miss": 1, "disagreements": [{"model_legal": "yes", "registry_id": ""}],)"
                           R"( "cases": []})"}) {
    EXPECT_EQ(NearMissReport::Decode(text).status().code(), absl::StatusCode::kDataLoss) << text;
  }
}

TEST(NearMissReportTest, ACaseWithoutAnOutcomeWordIsDataLoss) {
  for (const char* word : {"passed", "unjudged", ""}) {
    const std::string text =
        std::string(R"({"near_miss": 0, "disagreements": [], "cases": [{"id": "x", "outcome": ")") + word +
        R"(", "finding": false, "seconds": 0, "detail": ""}]})";
    EXPECT_EQ(NearMissReport::Decode(text).status().code(), absl::StatusCode::kDataLoss) << word;
  }
}

}  // namespace
}  // namespace matload
