#include "harness/conform/conform_tally.h"

#include <algorithm>

namespace matload {
namespace {

// FirstLine is `text` up to its first newline.
std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

void ConformTally::Expect(const std::string& id, const std::string& family) {
  Gathered& gathered = cases_[id];
  gathered.tallied.record.id = id;
  gathered.tallied.family = family;
}

void ConformTally::NoteFailure(Gathered& gathered, std::int64_t index, const std::string& detail,
                               const std::string& bundle) {
  if (gathered.first_failure >= 0 && gathered.first_failure <= index) return;
  gathered.first_failure = index;
  gathered.tallied.record.detail = detail;
  gathered.tallied.record.bundle = bundle;
}

void ConformTally::Add(const std::string& id, const JudgedVariant& variant) {
  Gathered& gathered = cases_[id];
  CaseSummary one;
  one.Add(variant.index, {.kind = variant.kind, .detail = variant.detail}, variant.ran, variant.words_compared, "", {},
          0, keep_);
  one.samples.clear();
  gathered.summary.Merge(one, keep_);
  if (!variant.bundle.empty()) ++gathered.tallied.bundle_cases[variant.bundle];
  if (IsFinding(variant.kind)) NoteFailure(gathered, variant.index, variant.detail, variant.bundle);
  if (!variant.registry_miss.empty()) gathered.tallied.registry_misses.push_back(variant.registry_miss);
}

void ConformTally::AddSummary(const std::string& id, const CaseSummary& summary,
                              const std::map<std::string, std::string>& bundles) {
  Gathered& gathered = cases_[id];
  gathered.summary.Merge(summary, keep_);
  gathered.summary.samples.clear();
  for (const auto& [signature, sample] : summary.samples) {
    const std::string& bundle = bundles.at(signature);
    gathered.tallied.bundle_cases[bundle] += sample.count;
    NoteFailure(gathered, sample.index, FirstLine(sample.detail), bundle);
  }
}

TalliedCase ConformTally::Complete(Gathered gathered) {
  const CaseSummary& summary = gathered.summary;
  TalliedCase& tallied = gathered.tallied;
  CaseRecord& record = tallied.record;
  for (const auto& [kind, count] : summary.classes) {
    record.counts[OutcomeOf(kind)] += static_cast<std::int64_t>(count);
    if (IsFinding(kind)) tallied.failing_variants += count;
  }
  tallied.failing_variants += tallied.registry_misses.size();
  tallied.classes = summary.classes;
  tallied.executions = summary.executions;
  tallied.judged_on_device = summary.judged_on_device;
  tallied.per_sm = summary.per_sm;
  tallied.words_compared = summary.words_compared;
  const CaseClass worst = summary.Worst();
  record.outcome = OutcomeOf(worst);
  record.finding = IsFinding(worst) || !tallied.registry_misses.empty();
  record.first_failures = summary.first_failures;
  record.seconds = summary.seconds.items;
  if (gathered.first_failure < 0) record.detail = FirstLine(summary.note);
  if (!gathered.unreproduced.empty()) {
    const auto& [first_kind, what] = gathered.unreproduced.front();
    record.attempts = {OutcomeOf(first_kind), record.outcome};
    record.outcome = CaseOutcome::kFlake;
    record.finding = true;
    record.detail = what;
    tallied.failing_variants += gathered.unreproduced.size();
  }
  return std::move(tallied);
}

std::vector<TalliedCase> ConformTally::Take(const std::vector<std::string>& ids) {
  std::vector<std::string> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  std::vector<TalliedCase> complete;
  for (const std::string& id : sorted) {
    const auto gathered = cases_.find(id);
    if (gathered == cases_.end()) continue;
    if (gathered->second.summary.judged() > 0) complete.push_back(Complete(std::move(gathered->second)));
    cases_.erase(gathered);
  }
  return complete;
}

}  // namespace matload
