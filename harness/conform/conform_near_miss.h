// ConformNearMiss: the compile half of `matload conform` (conformance_run.h).
// The device's own driver JIT sweeps the device's target in a worker: every
// near-miss illegal form must be rejected, and every legal form in every
// operand style accepted. Disagreements the discrepancy registry explains
// are counted apart; the rest are findings. Its cases are recorded as
// `<support case>.jit_compile` (harness/runs/case_id.h).
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/conform/conform_recorder.h"
#include "harness/conform/conformance_run.h"
#include "harness/judge/discrepancy_registry.h"
#include "reference/target.h"

namespace matload {

// NearMissSweep is what SweepNearMisses brings back: the report its worker
// wrote, or why there is none, and how many attempts were made again
// because an infrastructure failure spoiled the one before.
struct NearMissSweep {
  absl::StatusOr<std::string> report = absl::UnknownError("the near-miss sweep did not run");
  size_t retries = 0;
};

// SweepNearMisses runs the sweep of `target` at `ptx` (the newest version
// the JIT speaks) on device `ordinal`, in a
// worker. An attempt that an infrastructure failure spoils is made again
// in a fresh worker, up to three attempts in all; an interruption stops
// it. It changes nothing of the run's, so it may run on a thread of its
// own while the run's other workers launch (conformance_run.cc).
NearMissSweep SweepNearMisses(int ordinal, const ConformanceOptions& options, const DiscrepancyRegistry& registry,
                              Target target, PtxVersion ptx);

// RecordNearMisses counts `sweep` into `result` and records its cases with
// `recorder`, or returns why the sweep has no report.
absl::Status RecordNearMisses(NearMissSweep sweep, ConformanceResult& result, ConformRecorder& recorder);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_
