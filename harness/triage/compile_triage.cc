#include "harness/triage/compile_triage.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/toolchain_identity.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/output_files.h"
#include "harness/support/support_sweep.h"

namespace matload {
namespace {

// LiteralPattern is a regular expression that matches `text` alone: every
// character the registry's patterns treat as special is escaped.
std::string LiteralPattern(absl::string_view text) {
  std::string pattern = "^";
  for (const char c : text) {
    if (absl::string_view(".^$|()[]{}*+?\\").find(c) != absl::string_view::npos) pattern.push_back('\\');
    pattern.push_back(c);
  }
  return pattern + "$";
}

// ReleaseAnswer words one release's answer: "accepts", "rejects", "crashes".
std::string ReleaseAnswer(const ReleaseVerdict& release) {
  return release.crashed ? "crashes on it" : release.accepted ? "accepts it" : "rejects it";
}

// SweepOne sweeps the case with one release.
absl::StatusOr<ReleaseVerdict> SweepOne(const std::string& case_id, Target target, const Ptxas& ptxas,
                                        const DiscrepancyRegistry& registry, VerdictCache* cache,
                                        std::string& instruction) {
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(ptxas);
  if (!dialect.ok()) return dialect.status();
  ReleaseVerdict release{.toolchain = ptxas.Toolchain(), .ptx = dialect->Judged()};
  if (!ptxas.Supports(target)) return release;
  bool unjudged = false;  // the compiler left the form without a verdict: no answer, not a rejection
  const SweepHooks hooks = {
      .select = [&case_id](const std::string& id) { return id == case_id; },
      .compared =
          [&](const ComparedForms& forms) {
            for (size_t i = 0; i < forms.texts.size() && !release.present; ++i) {
              unjudged = !forms.verdicts[i].judged;
              release.present = true;
              release.model_legal = forms.model_legal[i];
              release.accepted = forms.verdicts[i].accepted;
              release.crashed = forms.verdicts[i].crashed;
              release.messages = forms.verdicts[i].messages;
              instruction = forms.texts[i];
            }
          }};
  SweepCache sweep_cache;
  absl::StatusOr<std::string> identity = ToolchainIdentity(ptxas.Toolchain(), {ptxas.path()});
  if (cache != nullptr && identity.ok()) sweep_cache = {.verdicts = cache, .compiler = *identity};
  absl::StatusOr<SupportSweep> sweep =
      RunSupportSweep(ptxas, registry, {target}, release.ptx, 1, [](const SweepProgress&) {}, "", hooks, sweep_cache);
  if (!sweep.ok()) return sweep.status();
  if (unjudged) {
    return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                               absl::StrCat(ptxas.Toolchain(), " gave no verdict on ", case_id, " at PTX ",
                                            release.ptx.ToString(), ": its messages could not be traced to the form"));
  }
  for (const Disagreement& disagreement : sweep->disagreements) release.registry_id = disagreement.registry_id;
  if (release.present && !release.model_legal && !release.accepted && !release.messages.empty()) {
    if (const DiscrepancyEntry* entry = registry.FindMisdiagnosis(instruction, release.messages.front())) {
      release.registry_id = entry->id;
    }
  }
  return release;
}

}  // namespace

std::vector<std::string> CompileTriage::Transitions() const {
  std::vector<std::string> transitions;
  const ReleaseVerdict* before = nullptr;
  for (const ReleaseVerdict& release : releases) {
    if (!release.present) continue;
    if (before == nullptr) {
      transitions.push_back(absl::StrCat(release.toolchain, " (the oldest that has it) ", ReleaseAnswer(release)));
    } else if (ReleaseAnswer(*before) != ReleaseAnswer(release)) {
      transitions.push_back(absl::StrCat(release.toolchain, " ", ReleaseAnswer(release), "; ", before->toolchain, " ",
                                         ReleaseAnswer(*before)));
    } else if (before->messages != release.messages && !release.accepted) {
      transitions.push_back(absl::StrCat(release.toolchain, " words its rejection otherwise: '",
                                         absl::StrJoin(release.messages, "' '"), "'"));
    }
    before = &release;
  }
  return transitions;
}

std::vector<std::string> CompileTriage::RegistryIds() const {
  std::vector<std::string> ids;
  for (const ReleaseVerdict& release : releases) {
    if (!release.registry_id.empty() && std::find(ids.begin(), ids.end(), release.registry_id) == ids.end()) {
      ids.push_back(release.registry_id);
    }
  }
  return ids;
}

nlohmann::json CompileTriage::DraftEntry() const {
  const ReleaseVerdict* newest = nullptr;
  std::vector<std::string> seen_on;
  for (const ReleaseVerdict& release : releases) {
    const bool disagrees = release.crashed || release.accepted != release.model_legal;
    if (!release.present || !disagrees) continue;
    newest = &release;
    seen_on.push_back(release.toolchain);
  }
  if (newest == nullptr) return nullptr;
  const bool accepts = newest->accepted;
  const std::string direction = newest->crashed ? "toolchain-crashes" : accepts ? "toolchain-accepts"
                                                                                : "toolchain-rejects";
  return nlohmann::json{
      {"id", absl::StrCat("ptxas-", newest->crashed ? "crashes-on-" : accepts ? "accepts-" : "rejects-",
                          Slug(case_id.substr(case_id.find('.') + 1)))},
      {"pattern", LiteralPattern(instruction)},
      {"direction", direction},
      {"toolchain_message", newest->messages.empty() ? "" : newest->messages.front()},
      {"judgement", "TO WRITE: why the model and ptxas differ, and which one the PTX text supports (cite its section)"},
      {"example", instruction},
      {"toolchains", seen_on}};
}

absl::StatusOr<CompileTriage> TriageCompileCase(const std::string& case_id, const std::vector<Ptxas>& releases,
                                               const DiscrepancyRegistry& registry, VerdictCache* cache) {
  absl::StatusOr<Target> target = ParseTarget(std::vector<std::string>(absl::StrSplit(case_id, '.')).front());
  if (!target.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("'", case_id, "' is no support case ID: ", target.status().message()));
  }
  CompileTriage triage{.case_id = case_id, .target = *target};
  for (const Ptxas& ptxas : releases) {
    absl::StatusOr<ReleaseVerdict> release = SweepOne(case_id, *target, ptxas, registry, cache, triage.instruction);
    if (!release.ok()) return release.status();
    triage.releases.push_back(*std::move(release));
  }
  for (const ReleaseVerdict& release : triage.releases) {
    if (release.present) return triage;
  }
  return absl::NotFoundError(absl::StrCat("no release given has the case '", case_id,
                                          "' (matload forms --ids --target ", target->Name(), " lists the IDs)"));
}

}  // namespace matload
