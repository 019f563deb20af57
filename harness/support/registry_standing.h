// RegistryStanding: what one compiler's support sweep says of the registry
// entries in force on it (harness/judge/discrepancy_registry.h): those it
// shows though they were measured on earlier releases only ("known, also
// seen on ptxas 13.6.1"), and those it no longer shows ("fixed in ptxas
// 13.6.1"), so that stdout, support.md and support.json say it alike.
#ifndef MATLOAD_HARNESS_SUPPORT_REGISTRY_STANDING_H_
#define MATLOAD_HARNESS_SUPPORT_REGISTRY_STANDING_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/support/support_sweep.h"

namespace matload {

// UnshownEntries lists, by id, the compile-time entries in force on
// `toolchain` that one target's compared `forms` do not show: no form of
// `disagreements` (the target's) falls under one, and some form the model
// and the compiler agree on would, had they disagreed (so the sweep took
// the entry's forms, and the compiler now answers them as the model does).
std::vector<std::string> UnshownEntries(const DiscrepancyRegistry& registry, absl::string_view toolchain,
                                        const ComparedForms& forms, const std::vector<Disagreement>& disagreements);

// RegistryStanding is a sweep's news about the registry, each list in id order.
struct RegistryStanding {
  std::vector<const DiscrepancyEntry*> also_seen;  // explain a disagreement, carried to the compiler
  std::vector<const DiscrepancyEntry*> fixed;      // unshown on some target, shown on none
};

// StandingOf is what `sweep` says of `registry`'s entries.
RegistryStanding StandingOf(const DiscrepancyRegistry& registry, const SupportSweep& sweep);

// StandingLines are the standing as lines for stdout, each starting with
// `name` and a tab; empty where there is no news.
std::string StandingLines(const std::string& name, const RegistryStanding& standing, absl::string_view toolchain);

// MeasuredOn is "measured on ptxas 12.9.86, ptxas 13.0.88", what a report
// says beside "known, also seen on" an entry.
std::string MeasuredOn(const DiscrepancyEntry& entry);

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_REGISTRY_STANDING_H_
