// ConformPlan: the planner of a conformance run (conformance_run.h). It
// decides what the run runs before anything runs: every legal form of the
// device's target, and the forms of its arch-specific target that the
// baseline lacks (sm_90a's .s8.s4 on an H100), that the run's --forms regex
// takes, as a test program per address width (wmma.load's .shared forms
// run with 32- and 64-bit addresses) and PTX ISA version; and what this
// device or these compilers cannot run, and why. Each compile path declares
// the newest PTX ISA version its compiler speaks (PathDialect), so a form
// of a later version runs only on the paths that speak it. The variants are
// not planned: workers make them as they run (conform_case_work.h), so that
// a run's memory does not grow with --variants.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/conform/conformance_run.h"
#include "harness/families/test_program.h"
#include "harness/gpu/program_launch.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// PathDialect is one compile path of a run and the PTX ISA version its
// kernels declare: the newest that both its compiler and matload speak.
struct PathDialect {
  CompilePath path;
  PtxVersion ptx;
  std::string compiler;  // "the driver JIT (CUDA 13.0)", "ptxas 13.5.37": for messages
};

// PlannedProgram is one program and the compile paths it runs on.
struct PlannedProgram {
  std::unique_ptr<TestProgram> program;
  // device_judged: the form's kernel that judges on the GPU, when the run
  // asks the GPU to judge (JudgePlace::kGpu) and the form has a plan; it
  // runs the defined variants (CaseWork::device_judged).
  std::unique_ptr<TestProgram> device_judged;
  std::vector<CompilePath> paths;
};

// ConformPlan is what a run will run.
struct ConformPlan {
  std::vector<PlannedProgram> programs;
  std::vector<std::string> not_run;  // what the run cannot run on this target, and why
  // missing_hardware_forms counts, by family ("tcgen05.ld"), the forms this
  // target cannot run for want of hardware (FamilyRuntime::NeededHardware);
  // a family this target runs is absent.
  std::map<std::string, size_t> missing_hardware_forms;
};

// ConformTargets are the targets a GPU of baseline target `device` runs:
// the baseline and, where the table has one, its arch-specific target.
std::vector<Target> ConformTargets(Target device);

// PlanConformance plans a run of `options` on a GPU of baseline target
// `device`, each path at its dialect (in `dialects`' order, one per path).
// A --forms regex that is not one (FormsRegex) or takes no form is
// kInvalidArgument.
absl::StatusOr<ConformPlan> PlanConformance(const ConformanceOptions& options, Target device,
                                            const std::vector<PathDialect>& dialects);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_PLAN_H_
