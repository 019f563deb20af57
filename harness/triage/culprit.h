// Culprit: which stage the evidence of a triage blames, and why, as a
// record a bug tracker can hold (after KernelCI's KCIDB, which records a
// culprit as code, tool or harness). The rules read only what the triage
// measured: which builds of the kernel fail, how, and what their SASS
// loads are, and the toolkit range.
#ifndef MATLOAD_HARNESS_TRIAGE_CULPRIT_H_
#define MATLOAD_HARNESS_TRIAGE_CULPRIT_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace matload {

// BuildEvidence is one build's outcome, as the culprit rules read it.
struct BuildEvidence {
  std::string name;  // "driver JIT", "ptxas -O3", "ptxas -O0", "nvJitLink"
  bool built = false;
  bool fails = false;   // every run failed with the case's signature
  bool passes = false;  // every run passed
  std::string loads;    // its SASS load sequence, where known ("LDSM.16.M88.2")
};

// SiblingEvidence is a sibling form (sibling_forms.h) run on the same
// variant, as the rules read it.
struct SiblingEvidence {
  std::string change;            // "without .shared"
  bool generic_address = false;  // the sibling is the form without its state space
  bool passes = false;           // every run passed
  std::string loads;             // its SASS loads
};

// CulpritEvidence is everything the rules read.
struct CulpritEvidence {
  bool kernel_is_matloads = true;  // the bundle's kernel is the one matload builds for the form
  std::vector<BuildEvidence> builds;
  // range_last_good: an older ptxas whose cubin passes on this GPU, where
  // the regression range found one; first_bad the release after it.
  std::optional<std::string> range_last_good;
  std::optional<std::string> range_first_bad;
  std::vector<SiblingEvidence> siblings;
};

// Culprit is the verdict.
struct Culprit {
  // stage: "harness", "driver JIT", "ptxas", "ptxas optimizer", "nvJitLink",
  // "code generation of the form", "GPU or code generation",
  // "none (does not reproduce)".
  std::string stage;
  std::string because;                // one sentence
  std::vector<std::string> evidence;  // the facts it rests on
  nlohmann::json Json() const;
};

// BlameStage applies the rules to `evidence`.
Culprit BlameStage(const CulpritEvidence& evidence);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_CULPRIT_H_
