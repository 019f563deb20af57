#include "harness/conform/conform_recorder.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "harness/conform/conform_report.h"
#include "harness/conform/suspect_retries.h"
#include "harness/platform/output_files.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// ReadArtifact is the artifact `key` of the run, if an earlier attempt stored it.
absl::StatusOr<std::optional<std::string>> ReadArtifact(RunJournal& journal, absl::string_view key) {
  return journal.Artifact(std::string(key));
}

}  // namespace

ConformRecorder::ConformRecorder(const ConformanceOptions& options, ConformanceResult& result)
    : options_(options),
      result_(result),
      bundles_((std::filesystem::path(options.run_directory) / "bundles").string()),
      tally_(options.first_failures) {}

absl::Status ConformRecorder::TakeBack() {
  RunJournal* journal = options_.journal;
  if (journal == nullptr || !journal->resumed()) return absl::OkStatus();
  absl::StatusOr<std::vector<CaseRecord>> cases = journal->Cases();
  if (!cases.ok()) return cases.status();
  cases_ = *std::move(cases);
  absl::StatusOr<std::optional<std::string>> near_miss = ReadArtifact(*journal, kNearMissKey);
  absl::StatusOr<std::optional<std::string>> totals = ReadArtifact(*journal, kTotalsKey);
  absl::StatusOr<std::optional<std::string>> bundles = ReadArtifact(*journal, kBundlesKey);
  for (const absl::Status& status : {near_miss.status(), totals.status(), bundles.status()}) {
    if (!status.ok()) return status;
  }
  if (near_miss->has_value()) markers_.insert(std::string(kNearMissKey));
  if (!totals->has_value() || !bundles->has_value()) return absl::OkStatus();
  if (absl::Status restored = AddTotals(nlohmann::json::parse(**totals, nullptr, false), result_); !restored.ok()) {
    return restored;
  }
  return bundles_.Restore(nlohmann::json::parse(**bundles, nullptr, false));
}

absl::Status ConformRecorder::Add(const std::string& id, const BundleCase& bundle_case, JudgedVariant judged) {
  const CaseVerdict& verdict = bundle_case.verdict;
  judged.kind = verdict.kind;
  judged.detail = verdict.detail.substr(0, verdict.detail.find('\n'));
  if (IsFinding(verdict.kind)) {
    absl::StatusOr<std::string> filed = bundles_.Add(bundle_case);
    if (!filed.ok()) return filed.status();
    judged.bundle = *filed;
  }
  tally_.Add(id, judged);
  return absl::OkStatus();
}

absl::Status ConformRecorder::AddSummary(const std::string& id, const CaseSummary& summary,
                                         const std::function<BundleCase(const FailureSample&)>& bundle_case) {
  std::vector<std::pair<std::int64_t, const std::string*>> by_index;
  for (const auto& [signature, sample] : summary.samples) by_index.emplace_back(sample.index, &signature);
  std::sort(by_index.begin(), by_index.end());
  std::map<std::string, std::string> filed;
  for (const auto& [index, signature] : by_index) {
    absl::StatusOr<std::string> directory = bundles_.Add(bundle_case(summary.samples.at(*signature)));
    if (!directory.ok()) return directory.status();
    filed[*signature] = *directory;
  }
  tally_.AddSummary(id, summary, filed);
  return absl::OkStatus();
}

absl::Status ConformRecorder::CommitFinal(const std::vector<std::string>& done) {
  std::vector<CaseRecord> records;
  for (TalliedCase& tallied : tally_.Take(done)) {
    if (options_.retries > 0 && Retryable(tallied.record.outcome)) {
      const std::string id = tallied.record.id;
      suspects_.emplace(id, std::move(tallied));
      continue;
    }
    AddToTotals(tallied);
    records.push_back(std::move(tallied.record));
  }
  for (auto suspect = suspects_.begin(); suspect != suspects_.end();) {
    if (suspect->second.record.attempts.size() < static_cast<size_t>(options_.retries)) {
      ++suspect;
      continue;
    }
    TalliedCase settled = Settled(std::move(suspect->second));
    AddToTotals(settled);
    records.push_back(std::move(settled.record));
    suspect = suspects_.erase(suspect);
  }
  if (records.empty()) return absl::OkStatus();
  return Commit(std::move(records), {});
}

void ConformRecorder::AddToTotals(TalliedCase& tallied) {
  for (const auto& [kind, count] : tallied.classes) result_.counts[tallied.family][kind] += count;
  result_.executions += tallied.executions;
  result_.judged_on_device += tallied.judged_on_device;
  AddSmVerdicts(tallied.per_sm, result_.per_sm);
  result_.words_compared += tallied.words_compared;
  result_.failing_variants += tallied.failing_variants;
  result_.findings += tallied.record.finding ? 1 : 0;
  // Kept in order, so that the totals do not depend on which cases were
  // recorded together, which a resumed run does not repeat.
  for (std::string& miss : tallied.registry_misses) {
    std::vector<std::string>& misses = result_.registry_misses;
    misses.insert(std::upper_bound(misses.begin(), misses.end(), miss), std::move(miss));
  }
  for (const auto& [directory, cases] : tallied.bundle_cases) bundles_.Count(directory, cases);
  CaseRecord& record = tallied.record;
  if (!record.bundle.empty()) {
    record.bundle = std::filesystem::path(record.bundle).lexically_relative(options_.run_directory).string();
  }
  if (record.outcome == CaseOutcome::kFlake) ++result_.flakes;
}

absl::Status ConformRecorder::Commit(std::vector<CaseRecord> records, std::map<std::string, std::string> artifacts) {
  if (options_.journal != nullptr) {
    artifacts[std::string(kTotalsKey)] = TotalsJson(result_).dump();
    artifacts[std::string(kBundlesKey)] = bundles_.State().dump();
    artifacts[kSmVerdictsArtifact] = SmVerdictsJson(result_.per_sm).dump();
    if (absl::Status recorded = options_.journal->Record(records, artifacts); !recorded.ok()) return recorded;
  }
  for (CaseRecord& record : records) cases_.push_back(std::move(record));
  return absl::OkStatus();
}

absl::Status ConformRecorder::WriteResults(const std::string& identity) {
  result_.bundles = bundles_.distinct();
  std::sort(cases_.begin(), cases_.end(), [](const CaseRecord& a, const CaseRecord& b) { return a.id < b.id; });
  const std::filesystem::path table = std::filesystem::path(options_.run_directory) / "results.tsv";
  if (absl::Status written = WriteFile(table, CaseTable(identity, cases_)); !written.ok()) return written;
  result_.cases = cases_;
  return bundles_.WriteIndex();
}

}  // namespace matload
