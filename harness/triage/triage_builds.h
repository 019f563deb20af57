// TriageBuilds: the case's kernel through every way it can reach the GPU,
// so that a triage can tell which stage a failure follows: the driver's
// JIT, ptxas at -O3 (its default) and at -O0, and nvJitLink. A build a
// compiler refuses, or whose compiler is missing, is kept with the reason:
// the report says what was not built, and the culprit is judged from what
// was.
#ifndef MATLOAD_HARNESS_TRIAGE_TRIAGE_BUILDS_H_
#define MATLOAD_HARNESS_TRIAGE_TRIAGE_BUILDS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/ptxas.h"
#include "harness/triage/triage_case.h"

namespace matload {

// TriageBuild is one way the kernel reaches the GPU.
struct TriageBuild {
  std::string name;       // "driver JIT", "ptxas -O3", "ptxas -O0", "nvJitLink"
  std::string toolchain;  // "driver JIT", "ptxas 13.0.88", "nvJitLink 13.0"
  bool cubin = false;     // the image is a cubin (else PTX text for the JIT)
  // image is what the driver loads, or why there is none: a compiler's
  // rejection (kFailedPrecondition, with its messages) or a missing one.
  absl::StatusOr<std::string> image;
};

// MakeTriageBuilds builds the case's kernel every way: the JIT's is the
// PTX text itself; `ptxas` may be null where the toolkit lacks it, and
// libnvJitLink is the toolkit's ($CUDA_HOME/lib64), linked in a worker
// process; a build that cannot be made says why.
std::vector<TriageBuild> MakeTriageBuilds(const TriageCase& triage_case, const Ptxas* ptxas);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_TRIAGE_BUILDS_H_
