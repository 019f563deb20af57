#include "harness/runs/run_diff.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Case is a case record with what the diff reads.
CaseRecord Case(std::string id, CaseOutcome outcome, bool finding, std::string detail = "", std::string bundle = "") {
  return CaseRecord{.id = std::move(id),
                    .outcome = outcome,
                    .finding = finding,
                    .detail = std::move(detail),
                    .bundle = std::move(bundle)};
}

// The two runs of the tests: one case per rule of run_diff.h.
const std::vector<CaseRecord> kRunA = {
    Case("a.same", CaseOutcome::kPass, false),
    Case("a.same_finding", CaseOutcome::kMismatch, true, "old detail"),
    Case("b.new", CaseOutcome::kPass, false),
    Case("c.fixed", CaseOutcome::kTimeout, true),
    Case("d.changed", CaseOutcome::kKnownFault, false),
    Case("d.changed_finding", CaseOutcome::kMismatch, true),
    Case("e.flaky", CaseOutcome::kPass, false),
    Case("e.flaky_finding", CaseOutcome::kPass, false),
    Case("g.removed", CaseOutcome::kMismatch, true, "gone", "bundles/g.removed"),
    Case("g.removed_flake", CaseOutcome::kFlake, true),
};
const std::vector<CaseRecord> kRunB = {
    Case("f.added_finding", CaseOutcome::kMismatch, true, "lane 0", "bundles/f"),
    Case("f.added", CaseOutcome::kPass, false),
    Case("e.flaky_finding", CaseOutcome::kFlake, true, "attempts disagree"),
    Case("e.flaky", CaseOutcome::kFlake, false),
    Case("d.changed_finding", CaseOutcome::kUnexpectedFault, true, "CUDA_ERROR_ILLEGAL_ADDRESS"),
    Case("d.changed", CaseOutcome::kLegalRejected, false),
    Case("c.fixed", CaseOutcome::kPass, false),
    Case("b.new", CaseOutcome::kMismatch, true, "lane 3 r2: got 0x1, want 0x2", "bundles/b.new"),
    Case("a.same_finding", CaseOutcome::kMismatch, true, "new detail"),
    Case("a.same", CaseOutcome::kPass, false),
};

TEST(DiffTest, PutsEachCaseInItsLists) {
  const RunDiff diff = Diff(kRunA, kRunB);
  const DiffEntry b_new{"b.new", CaseOutcome::kPass, CaseOutcome::kMismatch, "lane 3 r2: got 0x1, want 0x2",
                        "bundles/b.new"};
  const DiffEntry e_flaky{"e.flaky", CaseOutcome::kPass, CaseOutcome::kFlake, "", ""};
  const DiffEntry e_flaky_finding{"e.flaky_finding", CaseOutcome::kPass, CaseOutcome::kFlake, "attempts disagree", ""};
  const DiffEntry f_added{"f.added", std::nullopt, CaseOutcome::kPass, "", ""};
  const DiffEntry f_added_finding{"f.added_finding", std::nullopt, CaseOutcome::kMismatch, "lane 0", "bundles/f"};
  const DiffEntry g_removed_flake{"g.removed_flake", CaseOutcome::kFlake, std::nullopt, "", ""};
  EXPECT_THAT(diff.new_failures, ElementsAre(b_new, e_flaky_finding, f_added_finding));
  EXPECT_THAT(diff.fixed, ElementsAre(DiffEntry{"c.fixed", CaseOutcome::kTimeout, CaseOutcome::kPass, "", ""}));
  EXPECT_THAT(diff.changed,
              ElementsAre(DiffEntry{"d.changed", CaseOutcome::kKnownFault, CaseOutcome::kLegalRejected, "", ""},
                          DiffEntry{"d.changed_finding", CaseOutcome::kMismatch, CaseOutcome::kUnexpectedFault,
                                    "CUDA_ERROR_ILLEGAL_ADDRESS", ""},
                          e_flaky));
  EXPECT_THAT(diff.flaky, ElementsAre(e_flaky, e_flaky_finding, g_removed_flake));
  EXPECT_THAT(diff.added, ElementsAre(f_added, f_added_finding));
  EXPECT_THAT(diff.removed,
              ElementsAre(DiffEntry{"g.removed", CaseOutcome::kMismatch, std::nullopt, "", ""}, g_removed_flake));
  EXPECT_EQ(diff.unchanged, 2);
  EXPECT_TRUE(Regressed(diff));
}

TEST(DiffTest, ARunAgainstItselfIsAllUnchanged) {
  const RunDiff diff = Diff(kRunB, kRunB);
  EXPECT_EQ(diff.unchanged, static_cast<int>(kRunB.size()));
  EXPECT_THAT(diff.new_failures, IsEmpty());
  EXPECT_THAT(diff.changed, IsEmpty());
  EXPECT_THAT(diff.added, IsEmpty());
  EXPECT_EQ(diff.flaky.size(), 2u);  // flaky is a view: the two flakes are also unchanged
  EXPECT_FALSE(Regressed(diff));
}

TEST(DiffTest, FixesAndChangesAloneAreNoRegression) {
  const RunDiff diff = Diff({Case("x", CaseOutcome::kMismatch, true), Case("y", CaseOutcome::kPass, false)},
                            {Case("x", CaseOutcome::kPass, false), Case("y", CaseOutcome::kKnownFault, false)});
  EXPECT_EQ(diff.fixed.size(), 1u);
  EXPECT_EQ(diff.changed.size(), 1u);
  EXPECT_FALSE(Regressed(diff));
}

const RunRecord kA{.id = "conform-1", .git_commit = "abc123", .toolkits = "ptxas 13.0.88", .gpu_name = "NVIDIA H100"};
const RunRecord kB{.id = "conform-2",
                   .git_commit = "def456",
                   .toolkits = "ptxas 13.0.88",
                   .driver = "CUDA driver 13000",
                   .gpu_name = "NVIDIA H100",
                   .directory = "/runs/conform-2"};

TEST(DiffTextTest, ListsCountsThenEachNonEmptySection) {
  const RunDiff diff = Diff(
      {Case("c.fixed", CaseOutcome::kTimeout, true), Case("g.removed", CaseOutcome::kPass, false)},
      {Case("c.fixed", CaseOutcome::kPass, false), Case("b.new", CaseOutcome::kMismatch, true, "lane 3", "bundles/b")});
  EXPECT_EQ(DiffText(kA, kB, diff),
            "A: conform-1; NVIDIA H100; ptxas 13.0.88; matload abc123\n"
            "B: conform-2; NVIDIA H100; CUDA driver 13000; ptxas 13.0.88; matload def456\n"
            "new failures: 1, fixed: 1, flaky: 0, changed: 0, added: 1, removed: 1, unchanged: 0\n"
            "\n"
            "new failures (1):\n"
            "  b.new: absent -> mismatch; lane 3; bundle /runs/conform-2/bundles/b\n"
            "\n"
            "fixed (1):\n"
            "  c.fixed: timeout -> pass\n"
            "\n"
            "added (1):\n"
            "  b.new: absent -> mismatch; lane 3; bundle /runs/conform-2/bundles/b\n"
            "\n"
            "removed (1):\n"
            "  g.removed: pass -> absent\n");
}

TEST(DiffTextTest, CapsASectionAndSaysHowManyMore) {
  std::vector<CaseRecord> a, b;
  for (int i = 0; i < kDiffTextSectionLimit + 3; ++i) {
    a.push_back(Case(absl::StrCat("case.", 1000 + i), CaseOutcome::kPass, false));
    b.push_back(Case(absl::StrCat("case.", 1000 + i), CaseOutcome::kMismatch, true));
  }
  const std::string text = DiffText(kA, kB, Diff(a, b));
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_EQ(lines.size(), 3u + 2u + kDiffTextSectionLimit + 1u + 1u);  // header, title, cases, "more", final ""
  EXPECT_EQ(lines[5], "  case.1000: pass -> mismatch");
  EXPECT_EQ(lines[4 + kDiffTextSectionLimit], "  case.1199: pass -> mismatch");
  EXPECT_EQ(lines[5 + kDiffTextSectionLimit], "  ... and 3 more");
  EXPECT_THAT(text, ::testing::Not(HasSubstr("case.1200")));
}

TEST(DiffJsonTest, CarriesTheRunsCountsAndEveryEntry) {
  const RunDiff diff = Diff(
      {Case("c.fixed", CaseOutcome::kTimeout, true), Case("e.flake", CaseOutcome::kFlake, false)},
      {Case("c.fixed", CaseOutcome::kPass, false), Case("b.new", CaseOutcome::kMismatch, true, "lane 3", "bundles/b"),
       Case("e.flake", CaseOutcome::kFlake, false)});
  EXPECT_EQ(DiffJson(kA, kB, diff), nlohmann::json::parse(R"({
    "a": {"id": "conform-1", "directory": "", "git_commit": "abc123", "toolkits": "ptxas 13.0.88", "driver": "",
          "gpu_name": "NVIDIA H100"},
    "b": {"id": "conform-2", "directory": "/runs/conform-2", "git_commit": "def456", "toolkits": "ptxas 13.0.88",
          "driver": "CUDA driver 13000", "gpu_name": "NVIDIA H100"},
    "regressed": true,
    "counts": {"new_failures": 1, "fixed": 1, "flaky": 1, "changed": 0, "added": 1, "removed": 0, "unchanged": 1},
    "new_failures": [{"id": "b.new", "outcome_a": null, "outcome_b": "mismatch", "detail": "lane 3",
                      "bundle": "bundles/b"}],
    "fixed": [{"id": "c.fixed", "outcome_a": "timeout", "outcome_b": "pass", "detail": "", "bundle": ""}],
    "flaky": [{"id": "e.flake", "outcome_a": "flake", "outcome_b": "flake", "detail": "", "bundle": ""}],
    "changed": [],
    "added": [{"id": "b.new", "outcome_a": null, "outcome_b": "mismatch", "detail": "lane 3",
               "bundle": "bundles/b"}],
    "removed": []
  })"));
}

}  // namespace
}  // namespace matload
