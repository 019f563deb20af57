#include "harness/runs/run_diff.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"

namespace matload {
namespace {

// DiffSection names one list of a RunDiff; kSections are all of them, in the order reports show them.
struct DiffSection {
  absl::string_view name;  // the JSON key; the text title with ' ' for '_'
  std::vector<DiffEntry> RunDiff::*list;
};
constexpr DiffSection kSections[] = {
    {"new_failures", &RunDiff::new_failures}, {"fixed", &RunDiff::fixed}, {"flaky", &RunDiff::flaky},
    {"changed", &RunDiff::changed},           {"added", &RunDiff::added}, {"removed", &RunDiff::removed},
};

// Title is a section's name for people: "new failures".
std::string Title(absl::string_view name) { return absl::StrReplaceAll(name, {{"_", " "}}); }

// Entry is the DiffEntry of a case that is `a` in run A and `b` in run B, either null where the run lacks it.
DiffEntry Entry(const CaseRecord* a, const CaseRecord* b) {
  DiffEntry entry{.id = (b != nullptr ? b : a)->id};
  if (a != nullptr) entry.outcome_a = a->outcome;
  if (b != nullptr) {
    entry.outcome_b = b->outcome;
    entry.detail = b->detail;
    entry.bundle = b->bundle;
  }
  return entry;
}

// Place puts one case into the lists of `diff` it belongs to (the rules are in run_diff.h).
void Place(const CaseRecord* a, const CaseRecord* b, RunDiff& diff) {
  const DiffEntry entry = Entry(a, b);
  if (entry.outcome_a == CaseOutcome::kFlake || entry.outcome_b == CaseOutcome::kFlake) diff.flaky.push_back(entry);
  if (a == nullptr) {
    diff.added.push_back(entry);
    if (b->finding) diff.new_failures.push_back(entry);
  } else if (b == nullptr) {
    diff.removed.push_back(entry);
  } else if (a->finding != b->finding) {
    (b->finding ? diff.new_failures : diff.fixed).push_back(entry);
  } else if (a->outcome != b->outcome) {
    diff.changed.push_back(entry);
  } else {
    ++diff.unchanged;
  }
}

// RunLine names a run and what it ran on, for DiffText.
std::string RunLine(absl::string_view label, const RunRecord& run) {
  std::vector<std::string> facts = {run.id};
  for (const std::string& fact : {run.gpu_name, run.driver, run.toolkits}) {
    if (!fact.empty()) facts.push_back(fact);
  }
  if (!run.git_commit.empty()) facts.push_back(absl::StrCat("matload ", run.git_commit));
  return absl::StrCat(label, ": ", absl::StrJoin(facts, "; "), "\n");
}

// EntryLine is one case of a DiffText section; `directory` is B's run directory.
std::string EntryLine(const DiffEntry& entry, const std::string& directory) {
  std::string line =
      absl::StrCat("  ", entry.id, ": ", OutcomeOrAbsent(entry.outcome_a), " -> ", OutcomeOrAbsent(entry.outcome_b));
  if (!entry.detail.empty()) absl::StrAppend(&line, "; ", entry.detail);
  if (!entry.bundle.empty()) {
    absl::StrAppend(&line, "; bundle ", (std::filesystem::path(directory) / entry.bundle).string());
  }
  return absl::StrCat(line, "\n");
}

// SectionText is one non-empty DiffText section, listing at most kDiffTextSectionLimit cases.
std::string SectionText(absl::string_view name, const std::vector<DiffEntry>& entries, const std::string& directory) {
  std::string text = absl::StrCat("\n", Title(name), " (", entries.size(), "):\n");
  const std::size_t shown = std::min<std::size_t>(entries.size(), kDiffTextSectionLimit);
  for (std::size_t i = 0; i < shown; ++i) absl::StrAppend(&text, EntryLine(entries[i], directory));
  if (shown < entries.size()) absl::StrAppend(&text, "  ... and ", entries.size() - shown, " more\n");
  return text;
}

// EntryJson is one entry of a DiffJson list; an outcome the run lacks is null.
nlohmann::json EntryJson(const DiffEntry& entry) {
  const auto outcome = [](const std::optional<CaseOutcome>& in_run) {
    return in_run.has_value() ? nlohmann::json(std::string(CaseOutcomeWord(*in_run))) : nlohmann::json();
  };
  return {{"id", entry.id},
          {"outcome_a", outcome(entry.outcome_a)},
          {"outcome_b", outcome(entry.outcome_b)},
          {"detail", entry.detail},
          {"bundle", entry.bundle}};
}

// RunJson names a run and what it ran on, for DiffJson.
nlohmann::json RunJson(const RunRecord& run) {
  return {
      {"id", run.id},         {"directory", run.directory}, {"git_commit", run.git_commit}, {"toolkits", run.toolkits},
      {"driver", run.driver}, {"gpu_name", run.gpu_name}};
}

}  // namespace

RunDiff Diff(absl::Span<const CaseRecord> a, absl::Span<const CaseRecord> b) {
  std::map<absl::string_view, std::pair<const CaseRecord*, const CaseRecord*>> pairs;  // by case ID
  for (const CaseRecord& record : a) pairs[record.id].first = &record;
  for (const CaseRecord& record : b) pairs[record.id].second = &record;
  RunDiff diff;
  for (const auto& [id, pair] : pairs) Place(pair.first, pair.second, diff);
  return diff;
}

std::string OutcomeOrAbsent(const std::optional<CaseOutcome>& outcome) {
  return outcome.has_value() ? std::string(CaseOutcomeWord(*outcome)) : "absent";
}

bool Regressed(const RunDiff& diff) { return !diff.new_failures.empty(); }

std::string DiffText(const RunRecord& a, const RunRecord& b, const RunDiff& diff) {
  std::vector<std::string> counts;
  for (const DiffSection& section : kSections) {
    counts.push_back(absl::StrCat(Title(section.name), ": ", (diff.*section.list).size()));
  }
  counts.push_back(absl::StrCat("unchanged: ", diff.unchanged));
  std::string text = absl::StrCat(RunLine("A", a), RunLine("B", b), absl::StrJoin(counts, ", "), "\n");
  for (const DiffSection& section : kSections) {
    if (!(diff.*section.list).empty()) {
      absl::StrAppend(&text, SectionText(section.name, diff.*section.list, b.directory));
    }
  }
  return text;
}

nlohmann::json DiffJson(const RunRecord& a, const RunRecord& b, const RunDiff& diff) {
  nlohmann::json json = {{"a", RunJson(a)}, {"b", RunJson(b)}, {"regressed", Regressed(diff)}};
  json["counts"]["unchanged"] = diff.unchanged;
  for (const DiffSection& section : kSections) {
    json["counts"][std::string(section.name)] = (diff.*section.list).size();
    nlohmann::json& list = json[std::string(section.name)] = nlohmann::json::array();
    for (const DiffEntry& entry : diff.*section.list) list.push_back(EntryJson(entry));
  }
  return json;
}

}  // namespace matload
