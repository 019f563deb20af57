#include "harness/conform_tally.h"

#include <algorithm>
#include <array>

namespace matload {

int Severity(CaseClass kind) {
  static constexpr std::array<CaseClass, 13> kMostSevereFirst = {
      CaseClass::kMismatch,     CaseClass::kUnexpectedFault, CaseClass::kMissingFault,
      CaseClass::kTimeout,      CaseClass::kLegalRejected,   CaseClass::kIllegalAccepted,
      CaseClass::kKnownFault,   CaseClass::kExpectedFault,   CaseClass::kUndefinedFaulted,
      CaseClass::kUndefinedRan, CaseClass::kIllegalRejected, CaseClass::kUnsupported,
      CaseClass::kPass};
  const auto* found = std::find(kMostSevereFirst.begin(), kMostSevereFirst.end(), kind);
  return static_cast<int>(kMostSevereFirst.end() - found);
}

void ConformTally::Expect(const std::string& id, const std::string& family, size_t variants) {
  Gathered& gathered = cases_[id];
  gathered.tallied.record.id = id;
  gathered.tallied.family = family;
  gathered.expected = variants;
}

void ConformTally::Add(const std::string& id, const JudgedVariant& variant) {
  Gathered& gathered = cases_[id];
  TalliedCase& tallied = gathered.tallied;
  CaseRecord& record = tallied.record;
  if (gathered.judged++ == 0 || Severity(variant.kind) > Severity(gathered.worst)) gathered.worst = variant.kind;
  ++record.counts[std::string(CaseClassToken(variant.kind))];
  ++tallied.classes[variant.kind];
  tallied.executions += variant.ran ? 1 : 0;
  tallied.words_compared += variant.words_compared;
  const bool finding = IsFinding(variant.kind);
  tallied.findings += (finding ? 1 : 0) + (variant.registry_miss.empty() ? 0 : 1);
  if (!variant.registry_miss.empty()) tallied.registry_misses.push_back(variant.registry_miss);
  if (!variant.bundle.empty()) ++tallied.bundle_cases[variant.bundle];
  const bool first_failure = finding && record.first_failures.empty();
  if (finding && record.first_failures.size() < kFirstFailuresKept) record.first_failures.push_back(variant.index);
  if (first_failure) {
    record.detail = variant.detail;
    record.bundle = variant.bundle;
  } else if (record.first_failures.empty() && record.detail.empty()) {
    record.detail = variant.detail;
  }
}

std::vector<TalliedCase> ConformTally::TakeComplete() {
  std::vector<TalliedCase> complete;
  for (auto it = cases_.begin(); it != cases_.end();) {
    Gathered& gathered = it->second;
    if (gathered.judged < gathered.expected || gathered.expected == 0) {
      ++it;
      continue;
    }
    gathered.tallied.record.outcome = std::string(CaseClassToken(gathered.worst));
    gathered.tallied.record.finding = IsFinding(gathered.worst) || !gathered.tallied.registry_misses.empty();
    complete.push_back(std::move(gathered.tallied));
    it = cases_.erase(it);
  }
  return complete;
}

}  // namespace matload
