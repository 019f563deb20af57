// CompileTriage: a support case (the model and a compiler disagree on
// whether a form is legal, or the compiler misdiagnoses or crashes on it)
// taken through every given ptxas release, on any machine: the first and
// last release that accepts it, where its message changed, the registry
// entry it falls under, or a draft entry for a person to finish when none
// does. JAX/XLA keep such a list of ptxas versions per bug; this makes the
// entry's evidence.
//
// Each release sweeps the one case through the support sweep
// (support_sweep.h), at the newest PTX version both it and matload speak,
// so the verdicts are the ones `support` and `history` give, and cached
// verdicts are reused.
#ifndef MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_H_
#define MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/ptxas.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/runs/verdict_cache.h"
#include "harness/triage/case_history.h"
#include "nlohmann/json.hpp"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// ReleaseVerdict is one release's answer on the case.
struct ReleaseVerdict {
  std::string toolchain;   // "ptxas 12.4.99"
  PtxVersion ptx;          // the version it was swept at
  bool present = false;    // the case exists at that version (a form of a later one does not)
  bool model_legal = false;
  bool accepted = false;
  bool crashed = false;
  std::vector<std::string> messages;
  std::string registry_id;  // the entry that explains it on this release, or empty
};

// CompileTriage is the case across releases.
struct CompileTriage {
  std::string case_id;
  Target target;
  std::string instruction;             // as compiled, from the newest release that has it
  std::vector<ReleaseVerdict> releases;  // oldest first
  std::vector<CaseNight> history;        // the case's runs in the results store (case_history.h)
  // Transitions are the sentences that say where the verdict or the
  // message changed: "ptxas 12.8.93 accepts it; ptxas 12.4.99 rejected it".
  std::vector<std::string> Transitions() const;
  // RegistryIds are the entries it falls under, on whichever releases, in
  // release order, each once.
  std::vector<std::string> RegistryIds() const;
  // DraftEntry is a registry entry for a person to finish, from what the
  // releases showed: id, pattern, direction, message, example and the
  // toolchains it was seen on; its judgement says what is left to write.
  nlohmann::json DraftEntry() const;
};

// TriageCompileCase sweeps `case_id` (a support case ID, whose first part
// names its target) with each of `releases` (oldest first). `cache` may be
// null. A case no release has is kNotFound.
absl::StatusOr<CompileTriage> TriageCompileCase(const std::string& case_id, const std::vector<Ptxas>& releases,
                                               const DiscrepancyRegistry& registry, VerdictCache* cache);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_H_
