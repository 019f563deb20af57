// ConformPlan: the planner of a conformance run (conformance_run.h). It
// decides what the run runs before anything runs: every legal form of the
// device's target that the run's --forms regex takes, as a test program per
// address width (wmma.load's .shared forms run with 32- and 64-bit
// addresses), and what this device cannot run, and why. The variants are
// not planned: workers make them as they run (conform_case_work.h), so
// that a run's memory does not grow with --variants.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/conform/conformance_run.h"
#include "harness/families/test_program.h"
#include "reference/target.h"

namespace matload {

// ConformPlan is what a run will run.
struct ConformPlan {
  std::vector<std::unique_ptr<TestProgram>> programs;
  std::vector<std::string> not_run;  // what the run cannot run on this target, and why
  // missing_hardware_forms counts, by family ("tcgen05.ld"), the forms this
  // target cannot run for want of hardware (FamilyRuntime::NeededHardware);
  // a family this target runs is absent.
  std::map<std::string, size_t> missing_hardware_forms;
};

// PlanConformance plans a run of `options` on `target`. A --forms regex
// that takes no form is kInvalidArgument.
absl::StatusOr<ConformPlan> PlanConformance(const ConformanceOptions& options, Target target);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_
