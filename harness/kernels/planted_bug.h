// PlantedBug: a bug the self-test plants on purpose, in an emitted kernel or
// in the expected values, to prove that the harness catches and bundles it.
// A harness that cannot fail proves nothing.
#ifndef MATLOAD_HARNESS_KERNELS_PLANTED_BUG_H_
#define MATLOAD_HARNESS_KERNELS_PLANTED_BUG_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// PlantedBug names one deliberate bug.
enum class PlantedBug : unsigned char {
  kNone,
  kWrongLane,              // the kernel stores each lane's registers as its neighbour's (lane ^ 1)
  kOffByOneRow,            // the kernel reads one row further on (ldmatrix: +16 bytes; wmma: + one row pitch)
  kRegisterOrder,          // the kernel stores the destination registers in reverse order
  kSkippedStore,           // the kernel never stores the last destination register
  kTransposedExpectation,  // the expected values come from the transposed form (.trans or .row/.col flipped)
  // kMisjudgingChecker: a fault in the device judge itself
  // (device_judge.h), not in the kernel under test: it expects each lane's
  // first word with its lowest bit flipped, so it calls every block wrong.
  // The host's re-judging must catch the contradiction (an infrastructure
  // failure, exit 4). Only a kernel the device judges can hold it.
  kMisjudgingChecker,
  // kHangingBlock: the block of variant 0 (the only one with tagged data)
  // spins forever before it stores: a kernel that hangs on a real GPU, to
  // see the watchdog catch it. Not in the self-test, where it would cost a
  // watchdog period per form.
  kHangingBlock,
};

// PlantedBugName spells a bug for reports and flags: "none", "wrong-lane",
// "off-by-one-row", "register-order", "skipped-store", "transposed",
// "misjudging-checker", "hang".
absl::string_view PlantedBugName(PlantedBug bug);

// ParsePlantedBug reads a PlantedBugName spelling.
absl::StatusOr<PlantedBug> ParsePlantedBug(absl::string_view name);

// AllPlantedBugs is every bug the self-test plants (all but kNone and
// kHangingBlock), in declaration order.
std::vector<PlantedBug> AllPlantedBugs();

// PlantedInTheDeviceJudge says whether `bug` lives in the device judge's
// code, so that only a kernel the device judges can hold it.
inline bool PlantedInTheDeviceJudge(PlantedBug bug) { return bug == PlantedBug::kMisjudgingChecker; }

// PlantedWhereRegistersAreStored says whether `bug` lives in the code that
// stores the registers, after a device judge has judged them: under the
// device judge, it shows only as the judges' contradiction.
inline bool PlantedWhereRegistersAreStored(PlantedBug bug) {
  return bug == PlantedBug::kWrongLane || bug == PlantedBug::kRegisterOrder || bug == PlantedBug::kSkippedStore;
}

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_PLANTED_BUG_H_
