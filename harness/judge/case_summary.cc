#include "harness/judge/case_summary.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// KeepFirst inserts `index` into the ascending `first`, which keeps at most `keep`.
void KeepFirst(std::vector<std::int64_t>& first, std::int64_t index, size_t keep) {
  if (first.size() >= keep && (keep == 0 || index >= first.back())) return;
  first.insert(std::upper_bound(first.begin(), first.end(), index), index);
  if (first.size() > keep) first.pop_back();
}

// KeepNote makes (index, detail) the note when it comes before the current one.
void KeepNote(CaseSummary& summary, std::int64_t index, absl::string_view detail) {
  if (detail.empty() || (summary.note_index >= 0 && summary.note_index <= index)) return;
  summary.note_index = index;
  summary.note = std::string(detail);
}

// KeepSample counts `sample` under `signature`, and keeps it as the
// signature's sample when it comes first.
void KeepSample(CaseSummary& summary, const std::string& signature, const FailureSample& sample) {
  auto [kept, inserted] = summary.samples.try_emplace(signature, sample);
  if (inserted) return;
  const size_t count = kept->second.count + sample.count;
  if (sample.index < kept->second.index) kept->second = sample;
  kept->second.count = count;
}

}  // namespace

void CaseSummary::Add(std::int64_t index, const CaseVerdict& verdict, bool ran, size_t words,
                      absl::string_view signature, absl::Span<const std::uint8_t> output, int device, size_t keep) {
  ++classes[verdict.kind];
  executions += ran ? 1 : 0;
  words_compared += words;
  if (!IsFinding(verdict.kind)) {
    KeepNote(*this, index, verdict.detail);
    return;
  }
  KeepFirst(first_failures, index, keep);
  auto [kept, inserted] = samples.try_emplace(std::string(signature));
  FailureSample& sample = kept->second;
  ++sample.count;
  if (!inserted && sample.index <= index) return;
  sample.index = index;
  sample.kind = verdict.kind;
  sample.detail = verdict.detail;
  sample.output.assign(output.begin(), output.end());
  sample.device = device;
}

void CaseSummary::AddUnrun(CaseClass kind, size_t count, std::int64_t first, absl::string_view detail) {
  if (count == 0) return;
  classes[kind] += count;
  KeepNote(*this, first, detail);
}

void WorkerSeconds::Add(const WorkerSeconds& other) {
  items += other.items;
  pipeline += other.pipeline;
  launching += other.launching;
  judging += other.judging;
  generating += other.generating;
  starting += other.starting;
  loading += other.loading;
}

nlohmann::json WorkerSeconds::List() const {
  return {items, pipeline, launching, judging, generating, starting, loading};
}

WorkerSeconds WorkerSeconds::FromList(const nlohmann::json& list) {
  return {.items = list.at(0),
          .pipeline = list.at(1),
          .launching = list.at(2),
          .judging = list.at(3),
          .generating = list.at(4),
          .starting = list.size() > 5 ? list.at(5).get<double>() : 0,
          .loading = list.size() > 6 ? list.at(6).get<double>() : 0};
}

void CaseSummary::AddJudgedOnDevice(size_t count, size_t words) {
  if (count == 0) return;
  classes[CaseClass::kPass] += count;
  executions += count;
  judged_on_device += count;
  words_compared += count * words;
}

void CaseSummary::AddSmCounts(int device, absl::Span<const SmCounts> by_sm) {
  for (std::uint32_t sm = 0; sm < by_sm.size(); ++sm) {
    if (by_sm[sm].blocks > 0) per_sm[{device, sm}].Add(by_sm[sm]);
  }
}

void CaseSummary::Merge(const CaseSummary& other, size_t keep) {
  for (const auto& [kind, count] : other.classes) classes[kind] += count;
  executions += other.executions;
  words_compared += other.words_compared;
  judged_on_device += other.judged_on_device;
  AddSmVerdicts(other.per_sm, per_sm);
  for (std::int64_t index : other.first_failures) KeepFirst(first_failures, index, keep);
  for (const auto& [signature, sample] : other.samples) KeepSample(*this, signature, sample);
  if (other.note_index >= 0) KeepNote(*this, other.note_index, other.note);
  undefined += other.undefined;
  for (const auto& [entry, left_out] : other.predicted) predicted[entry].Add(left_out);
  seconds.Add(other.seconds);
}

size_t CaseSummary::judged() const {
  size_t judged = 0;
  for (const auto& [kind, count] : classes) judged += count;
  return judged;
}

CaseClass CaseSummary::Worst() const {
  CaseClass worst = CaseClass::kPass;
  for (const auto& [kind, count] : classes) {
    if (count > 0 && Severity(kind) > Severity(worst)) worst = kind;
  }
  return worst;
}

std::string CaseSummary::Encode() const {
  nlohmann::json json = {
      {"executions", executions},         {"words", words_compared},  {"judged_on_device", judged_on_device},
      {"first_failures", first_failures}, {"note_index", note_index}, {"note", note},
      {"undefined", undefined},           {"seconds", seconds.List()}};
  json["classes"] = nlohmann::json::array();
  for (const auto& [kind, count] : classes) json["classes"].push_back({static_cast<int>(kind), count});
  json["samples"] = nlohmann::json::array();
  for (const auto& [signature, sample] : samples) {
    json["samples"].push_back(
        {{"signature", signature},
         {"index", sample.index},
         {"kind", static_cast<int>(sample.kind)},
         {"detail", sample.detail},
         {"output", absl::Base64Escape(
                        absl::string_view(reinterpret_cast<const char*>(sample.output.data()), sample.output.size()))},
         {"device", sample.device},
         {"count", sample.count}});
  }
  json["per_sm"] = SmVerdictsJson(per_sm);
  json["predicted"] = nlohmann::json::object();
  for (const auto& [entry, left_out] : predicted) json["predicted"][entry] = {left_out.count, left_out.first};
  return json.dump();
}

absl::StatusOr<CaseSummary> CaseSummary::Decode(absl::string_view text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return absl::DataLossError("a worker's case summary is not JSON");
  try {
    CaseSummary summary;
    summary.executions = json.at("executions").get<size_t>();
    summary.words_compared = json.at("words").get<size_t>();
    summary.judged_on_device = json.at("judged_on_device").get<size_t>();
    absl::StatusOr<SmVerdicts> per_sm = ParseSmVerdicts(json.at("per_sm"));
    if (!per_sm.ok()) return per_sm.status();
    summary.per_sm = *std::move(per_sm);
    summary.first_failures = json.at("first_failures").get<std::vector<std::int64_t>>();
    summary.note_index = json.at("note_index").get<std::int64_t>();
    summary.note = json.at("note").get<std::string>();
    summary.undefined = json.at("undefined").get<size_t>();
    summary.seconds = WorkerSeconds::FromList(json.at("seconds"));
    for (const nlohmann::json& pair : json.at("classes")) {
      summary.classes[static_cast<CaseClass>(pair.at(0).get<int>())] = pair.at(1).get<size_t>();
    }
    for (const nlohmann::json& item : json.at("samples")) {
      FailureSample sample{.index = item.at("index").get<std::int64_t>(),
                           .kind = static_cast<CaseClass>(item.at("kind").get<int>()),
                           .detail = item.at("detail").get<std::string>(),
                           .device = item.at("device").get<int>(),
                           .count = item.at("count").get<size_t>()};
      std::string bytes;
      if (!absl::Base64Unescape(item.at("output").get<std::string>(), &bytes)) {
        return absl::DataLossError("a worker's case summary has a sample output that is not base64");
      }
      sample.output.assign(bytes.begin(), bytes.end());
      summary.samples.emplace(item.at("signature").get<std::string>(), std::move(sample));
    }
    for (const auto& [entry, pair] : json.at("predicted").items()) {
      summary.predicted[entry] = {pair.at(0).get<size_t>(), pair.at(1).get<std::int64_t>()};
    }
    return summary;
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("a worker's case summary does not read back: ", error.what()));
  }
}

}  // namespace matload
