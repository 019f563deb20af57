#include "harness/support/registry_standing.h"

#include <algorithm>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

// AgreedFormFalls says whether a form of `forms` that the model and the
// compiler agree on falls under `entry` as a disagreement would.
bool AgreedFormFalls(const DiscrepancyEntry& entry, const ComparedForms& forms) {
  const bool model_legal = entry.direction == Direction::kToolchainRejects;
  for (size_t i = 0; i < forms.texts.size(); ++i) {
    const CompilerVerdict& verdict = forms.verdicts[i];
    if (!verdict.judged || forms.model_legal[i] != model_legal || verdict.accepted != model_legal) continue;
    if (DiscrepancyRegistry::Falls(entry, forms.texts[i], forms.target, entry.direction)) return true;
  }
  return false;
}

// Ids is "a, b, c": the entries' ids.
std::string Ids(const std::vector<const DiscrepancyEntry*>& entries) {
  return absl::StrJoin(entries, ", ", [](std::string* out, const DiscrepancyEntry* entry) { out->append(entry->id); });
}

// ById orders entries by id.
bool ById(const DiscrepancyEntry* a, const DiscrepancyEntry* b) { return a->id < b->id; }

}  // namespace

std::vector<std::string> UnshownEntries(const DiscrepancyRegistry& registry, absl::string_view toolchain,
                                        const ComparedForms& forms, const std::vector<Disagreement>& disagreements) {
  absl::flat_hash_set<absl::string_view> shown;
  for (const Disagreement& disagreement : disagreements) shown.insert(disagreement.registry_id);
  std::vector<std::string> unshown;
  for (const DiscrepancyEntry& entry : registry.entries()) {
    const bool compile_time =
        entry.direction == Direction::kToolchainAccepts || entry.direction == Direction::kToolchainRejects;
    if (!compile_time || shown.contains(entry.id) || !DiscrepancyRegistry::AppliesTo(entry, toolchain)) continue;
    if (AgreedFormFalls(entry, forms)) unshown.push_back(entry.id);
  }
  return unshown;
}

RegistryStanding StandingOf(const DiscrepancyRegistry& registry, const SupportSweep& sweep) {
  std::set<std::string> shown;
  for (const Disagreement& disagreement : sweep.disagreements) {
    if (!disagreement.registry_id.empty()) shown.insert(disagreement.registry_id);
  }
  RegistryStanding standing;
  for (const std::string& id : shown) {
    const DiscrepancyEntry* entry = registry.ById(id);
    if (entry != nullptr && DiscrepancyRegistry::CoverageOf(*entry, sweep.compiler) == Coverage::kCarried) {
      standing.also_seen.push_back(entry);
    }
  }
  for (const std::string& id : sweep.unshown) {
    const DiscrepancyEntry* entry = registry.ById(id);
    if (entry != nullptr && !shown.contains(id)) standing.fixed.push_back(entry);
  }
  std::sort(standing.fixed.begin(), standing.fixed.end(), ById);
  return standing;
}

std::string StandingLines(const std::string& name, const RegistryStanding& standing, absl::string_view toolchain) {
  std::string lines;
  if (!standing.also_seen.empty()) {
    absl::StrAppend(&lines, name, "\tknown, also seen on ", toolchain, ": ", Ids(standing.also_seen),
                    " (measured on earlier releases only; in force until a release no longer shows them)\n");
  }
  if (!standing.fixed.empty()) {
    absl::StrAppend(&lines, name, "\tfixed in ", toolchain, ": ", Ids(standing.fixed),
                    " (no form disagrees under them now; record ", toolchain, " in their fixed_in)\n");
  }
  return lines;
}

std::string MeasuredOn(const DiscrepancyEntry& entry) {
  return absl::StrCat("measured on ", absl::StrJoin(entry.toolchains, ", "));
}

}  // namespace matload
