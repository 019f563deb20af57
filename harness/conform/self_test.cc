#include "harness/conform/self_test.h"

#include "absl/strings/str_cat.h"

namespace matload {
namespace {

size_t Count(const ConformanceResult& result, const std::string& family, CaseClass kind) {
  const auto classes = result.counts.find(family);
  if (classes == result.counts.end()) return 0;
  const auto count = classes->second.find(kind);
  return count == classes->second.end() ? 0 : count->second;
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
  for (PlantedBug bug : bugs) {
    ConformanceOptions options{.devices = {device},
                               .variants = 4,
                               .seed = 20261122,
                               .forms = kSelfTestForms,
                               .paths = paths,
                               .illegal = false,
                               .bug = bug,
                               .run_directory = absl::StrCat(directory, "/", PlantedBugName(bug))};
    absl::StatusOr<ConformanceResult> result = RunConformance(options, progress);
    if (!result.ok()) return result.status();
    SelfTestRow row{.bug = bug, .result = *std::move(result)};
    row.detected = true;
    for (const char* family : {"ldmatrix", "wmma.load"}) {
      const size_t mismatches = Count(row.result, family, CaseClass::kMismatch);
      const size_t passes = Count(row.result, family, CaseClass::kPass);
      row.detected = row.detected && (bug == PlantedBug::kNone ? mismatches == 0 && passes > 0 : mismatches > 0 && passes == 0);
    }
    row.detected = row.detected && (bug == PlantedBug::kNone ? row.result.findings == 0 : row.result.bundles > 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string SelfTestMarkdown(const std::vector<SelfTestRow>& rows) {
  std::string text =
      "| planted bug | ldmatrix mismatches | wmma.load mismatches | passes | bundles | verdict |\n|---|---:|---:|---:|---:|---|\n";
  for (const SelfTestRow& row : rows) {
    const size_t passes = Count(row.result, "ldmatrix", CaseClass::kPass) + Count(row.result, "wmma.load", CaseClass::kPass);
    absl::StrAppend(&text, "| ", PlantedBugName(row.bug), " | ", Count(row.result, "ldmatrix", CaseClass::kMismatch),
                    " | ", Count(row.result, "wmma.load", CaseClass::kMismatch), " | ", passes, " | ",
                    row.result.bundles, " | ",
                    row.bug == PlantedBug::kNone ? (row.detected ? "clean, as it must be" : "FALSE ALARM")
                                                 : (row.detected ? "detected and bundled" : "MISSED"),
                    " |\n");
  }
  return text;
}

}  // namespace matload
