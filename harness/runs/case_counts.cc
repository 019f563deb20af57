#include "harness/runs/case_counts.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/runs/case_outcome.h"

namespace matload {
namespace {

// Figure is a campaign figure's word and where CampaignFigures keeps it.
struct Figure {
  absl::string_view word;
  std::int64_t CampaignFigures::*value;
};

// kFigures are a campaign's figures, with the words matload has always
// stored them under.
constexpr Figure kFigures[] = {{"runs", &CampaignFigures::runs},
                               {"findings", &CampaignFigures::findings},
                               {"crashes", &CampaignFigures::crashes},
                               {"coverage", &CampaignFigures::coverage},
                               {"corpus", &CampaignFigures::corpus}};

// ReadFigures reads a campaign's figures from `words`.
absl::StatusOr<CampaignFigures> ReadFigures(const std::map<std::string, std::int64_t>& words) {
  CampaignFigures figures;
  size_t read = 0;
  for (const Figure& figure : kFigures) {
    const auto found = words.find(std::string(figure.word));
    if (found == words.end()) continue;
    figures.*figure.value = found->second;
    ++read;
  }
  if (read != words.size()) {
    return absl::DataLossError(absl::StrCat("a fuzz campaign's counts hold a word that is no figure: ",
                                            absl::StrJoin(words, ", ", absl::PairFormatter("="))));
  }
  return figures;
}

}  // namespace

std::map<std::string, std::int64_t> CountWords(const CaseRecord& record) {
  std::map<std::string, std::int64_t> words;
  if (record.campaign.has_value()) {
    for (const Figure& figure : kFigures) words.emplace(figure.word, (*record.campaign).*figure.value);
  }
  for (const auto& [outcome, count] : record.counts) words.emplace(CaseOutcomeWord(outcome), count);
  return words;
}

std::string CountsText(const CaseRecord& record, absl::string_view separator) {
  return absl::StrJoin(CountWords(record), separator, absl::PairFormatter("="));
}

absl::Status ReadCountWords(const std::map<std::string, std::int64_t>& words, CaseRecord& record) {
  if (words.contains("runs")) {
    absl::StatusOr<CampaignFigures> figures = ReadFigures(words);
    if (!figures.ok()) return figures.status();
    record.campaign = *figures;
    return absl::OkStatus();
  }
  OutcomeCounts counts;
  for (const auto& [word, count] : words) {
    absl::StatusOr<CaseOutcome> outcome = ParseCaseOutcome(word);
    if (!outcome.ok()) return outcome.status();
    counts[*outcome] = count;
  }
  record.counts = std::move(counts);
  return absl::OkStatus();
}

}  // namespace matload
