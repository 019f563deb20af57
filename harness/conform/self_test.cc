#include "harness/conform/self_test.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/infrastructure.h"

namespace matload {
namespace {

size_t Count(const ConformanceResult& result, const std::string& family, CaseClass kind) {
  const auto classes = result.counts.find(family);
  if (classes == result.counts.end()) return 0;
  const auto count = classes->second.find(kind);
  return count == classes->second.end() ? 0 : count->second;
}

// CaughtAsContradiction says whether `bug` under `judge` is caught as the
// judges' contradiction rather than as a mismatch (self_test.h).
bool CaughtAsContradiction(JudgePlace judge, PlantedBug bug) {
  return judge == JudgePlace::kGpu && (PlantedWhereRegistersAreStored(bug) || PlantedInTheDeviceJudge(bug));
}

// Detected says whether `row` shows its bug caught as it must be, or, for
// the control, nothing caught.
bool Detected(const SelfTestRow& row) {
  if (CaughtAsContradiction(row.judge, row.bug)) {
    return absl::StrContains(row.contradiction, "the device judge and the model disagreed");
  }
  bool detected = row.contradiction.empty();
  for (const char* family : {"ldmatrix", "wmma.load"}) {
    const size_t mismatches = Count(row.result, family, CaseClass::kMismatch);
    const size_t passes = Count(row.result, family, CaseClass::kPass);
    detected =
        detected && (row.bug == PlantedBug::kNone ? mismatches == 0 && passes > 0 : mismatches > 0 && passes == 0);
  }
  return detected && (row.bug == PlantedBug::kNone ? row.result.findings == 0 : row.result.bundles > 0);
}

}  // namespace

absl::StatusOr<std::vector<SelfTestRow>> RunSelfTest(int device, const std::string& directory,
                                                     const ConformanceProgress& progress) {
  std::vector<PlantedBug> bugs = {PlantedBug::kNone};
  for (PlantedBug bug : AllPlantedBugs()) bugs.push_back(bug);
  // Through the driver JIT and, where the toolkit's ptxas can be used, its
  // cubins, which reach the forms of PTX versions the JIT does not speak.
  std::vector<CompilePath> paths = {CompilePath::kDriverJit};
  if (OfflineDialect(CompilePath::kPtxasCubin).ok()) paths.push_back(CompilePath::kPtxasCubin);
  std::vector<SelfTestRow> rows;
  for (JudgePlace judge : {JudgePlace::kHost, JudgePlace::kGpu}) {
    for (PlantedBug bug : bugs) {
      if (judge == JudgePlace::kHost && PlantedInTheDeviceJudge(bug)) continue;
      ConformanceOptions options{
          .devices = {device},
          .variants = 4,
          .seed = 20261122,
          .forms = kSelfTestForms,
          .paths = paths,
          .illegal = false,
          .bug = bug,
          .judge = judge,
          .run_directory = absl::StrCat(directory, "/", JudgePlaceName(judge), "-", PlantedBugName(bug))};
      SelfTestRow row{.judge = judge, .bug = bug};
      absl::StatusOr<ConformanceResult> result = RunConformance(options, progress);
      if (result.ok()) {
        row.result = *std::move(result);
      } else if (CaughtAsContradiction(judge, bug) && InfrastructureCauseOf(result.status()).has_value()) {
        row.contradiction = std::string(result.status().message());
      } else {
        return result.status();
      }
      row.detected = Detected(row);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string SelfTestMarkdown(const std::vector<SelfTestRow>& rows) {
  std::string text =
      "| judge | planted bug | ldmatrix mismatches | wmma.load mismatches | passes | bundles | verdict |\n"
      "|---|---|---:|---:|---:|---:|---|\n";
  for (const SelfTestRow& row : rows) {
    const size_t passes = Count(row.result, "ldmatrix", CaseClass::kPass) + Count(row.result, "wmma.load", CaseClass::kPass);
    const absl::string_view caught = CaughtAsContradiction(row.judge, row.bug)
                                         ? "caught: the judges contradict each other (exit 4)"
                                         : "detected and bundled";
    absl::StrAppend(&text, "| ", JudgePlaceName(row.judge), " | ", PlantedBugName(row.bug), " | ",
                    Count(row.result, "ldmatrix", CaseClass::kMismatch), " | ",
                    Count(row.result, "wmma.load", CaseClass::kMismatch), " | ", passes, " | ", row.result.bundles,
                    " | ",
                    row.bug == PlantedBug::kNone ? (row.detected ? "clean, as it must be" : "FALSE ALARM")
                                                 : (row.detected ? caught : "MISSED"),
                    " |\n");
  }
  return text;
}

}  // namespace matload
