// ConfirmationMemory: the registry predictions a conformance run has seen
// confirmed before, so that it settles them without a launch. A
// confirmation is one variant of a case that a discrepancy-registry entry
// predicts to fault, launched alone. It is remembered in two places:
//   - an earlier round of the soak the run is one of
//     (ConformanceOptions::confirmed_earlier);
//   - the results store's fault memory (ConformanceOptions::fault_memory),
//     keyed by the run's GPU models and driver and by everything the launch
//     runs: the entry, the kernel's PTX and the variant's record.
// Only the driver JIT's launches go into the store: an offline compiler's
// binary is no part of the key. `matload conform --no-cache` runs every
// confirmation again.
#ifndef MATLOAD_HARNESS_CONFORM_CONFIRMATION_MEMORY_H_
#define MATLOAD_HARNESS_CONFORM_CONFIRMATION_MEMORY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/conform/conformance_run.h"
#include "harness/families/test_program.h"
#include "harness/gpu/program_launch.h"

namespace matload {

// Confirmation is one confirming launch: variant `variant` of `program`,
// case `case_id`, compiled on `path`, that registry entry `entry` predicts
// to fault.
struct Confirmation {
  std::string case_id;
  std::string entry;
  const TestProgram* program = nullptr;
  CompilePath path = CompilePath::kDriverJit;
  Variant variant;
};

class ConfirmationMemory {
 public:
  // ConfirmationMemory remembers for a run with `options` on the GPUs that
  // `probes` found (their models and the first one's driver).
  ConfirmationMemory(const ConformanceOptions& options, const std::vector<DeviceProbe>& probes);

  // Recall is the fault `confirmation` met before (its verdict's detail, as
  // it was recorded), or nullopt where it is not known. An answer in the
  // store that does not read back is no memory: the launch runs.
  absl::StatusOr<std::optional<std::string>> Recall(const Confirmation& confirmation) const;

  // Keep keeps the fault `detail` that `confirmation` met in the store's
  // memory, with the run that met it, where the driver JIT ran it.
  absl::Status Keep(const Confirmation& confirmation, const std::string& detail) const;

 private:
  // Kept says whether the store remembers `confirmation`'s launches.
  bool Kept(const Confirmation& confirmation) const;
  // Question is everything the confirming launch runs, in one text.
  static std::string Question(const Confirmation& confirmation);

  const ConformanceOptions& options_;
  std::string identity_;  // the GPU models and the driver
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFIRMATION_MEMORY_H_
