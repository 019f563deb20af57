#include "harness/kernels/planted_bug.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {

absl::string_view PlantedBugName(PlantedBug bug) {
  switch (bug) {
    case PlantedBug::kNone: return "none";
    case PlantedBug::kWrongLane: return "wrong-lane";
    case PlantedBug::kOffByOneRow: return "off-by-one-row";
    case PlantedBug::kRegisterOrder: return "register-order";
    case PlantedBug::kSkippedStore: return "skipped-store";
    case PlantedBug::kTransposedExpectation: return "transposed";
    case PlantedBug::kMisjudgingChecker: return "misjudging-checker";
    case PlantedBug::kHangingBlock: return "hang";
  }
  return "unknown";
}

std::vector<PlantedBug> AllPlantedBugs() {
  return {PlantedBug::kWrongLane,    PlantedBug::kOffByOneRow,           PlantedBug::kRegisterOrder,
          PlantedBug::kSkippedStore, PlantedBug::kTransposedExpectation, PlantedBug::kMisjudgingChecker};
}

absl::StatusOr<PlantedBug> ParsePlantedBug(absl::string_view name) {
  std::vector<PlantedBug> bugs = AllPlantedBugs();
  bugs.insert(bugs.begin(), PlantedBug::kNone);
  bugs.push_back(PlantedBug::kHangingBlock);
  std::vector<absl::string_view> names;
  for (PlantedBug bug : bugs) {
    if (name == PlantedBugName(bug)) return bug;
    names.push_back(PlantedBugName(bug));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown planted bug '", name, "' (one of ", absl::StrJoin(names, ", "), ")"));
}

}  // namespace matload
