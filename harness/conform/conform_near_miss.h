// ConformNearMiss: the compile half of `matload conform` (conformance_run.h).
// The device's own driver JIT sweeps the device's target in a worker: every
// near-miss illegal form must be rejected, and every legal form in every
// operand style accepted. Disagreements the discrepancy registry explains
// are counted apart; the rest are findings. Its cases are recorded as
// `<support case>.jit_compile` (harness/runs/case_id.h).
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_

#include "absl/status/status.h"
#include "harness/conform/conform_recorder.h"
#include "harness/conform/conformance_run.h"
#include "harness/judge/discrepancy_registry.h"

namespace matload {

// CheckNearMisses runs the sweep on device `ordinal`, counts it into
// `result` and records its cases with `recorder`. An attempt that an
// infrastructure failure spoils is made again in a fresh worker, up to
// three attempts in all; an interruption stops it.
absl::Status CheckNearMisses(int ordinal, const ConformanceOptions& options, const DiscrepancyRegistry& registry,
                             ConformanceResult& result, ConformRecorder& recorder);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_NEAR_MISS_H_
