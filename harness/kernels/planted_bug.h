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
  // kHangingBlock: the block of variant 0 (the only one with tagged data)
  // spins forever before it stores: a kernel that hangs on a real GPU, to
  // see the watchdog catch it. Not in the self-test, where it would cost a
  // watchdog period per form.
  kHangingBlock,
};

// PlantedBugName spells a bug for reports and flags: "none", "wrong-lane",
// "off-by-one-row", "register-order", "skipped-store", "transposed", "hang".
absl::string_view PlantedBugName(PlantedBug bug);

// ParsePlantedBug reads a PlantedBugName spelling.
absl::StatusOr<PlantedBug> ParsePlantedBug(absl::string_view name);

// AllPlantedBugs is every bug the self-test plants (all but kNone and
// kHangingBlock), in declaration order.
std::vector<PlantedBug> AllPlantedBugs();

}  // namespace matload

#endif  // MATLOAD_HARNESS_KERNELS_PLANTED_BUG_H_
