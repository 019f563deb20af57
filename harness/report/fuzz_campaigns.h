// FuzzCampaigns: a fuzz run's campaigns as its page shows them, one per
// target: what the results store keeps of each (executions, their rate,
// coverage, corpus, findings and crashes; harness/cli/fuzz_command.cc's
// CampaignCases) and, where the run directory is at hand, the coverage
// over time that coverage.tsv beside it holds, drawn as inline SVG.
#ifndef MATLOAD_HARNESS_REPORT_FUZZ_CAMPAIGNS_H_
#define MATLOAD_HARNESS_REPORT_FUZZ_CAMPAIGNS_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// CoveragePoint is one coverage.tsv row of one target: its figures after
// `seconds` of the campaign.
struct CoveragePoint {
  std::int64_t seconds = 0;
  std::int64_t runs = 0;
  std::int64_t coverage = 0;
  std::int64_t corpus = 0;
  friend bool operator==(const CoveragePoint&, const CoveragePoint&) = default;
};

// FuzzCampaign is one target's campaign as the store keeps it, with its
// coverage over time where the run's coverage.tsv gives it, or else why not.
struct FuzzCampaign {
  std::string target;   // "text", "cli", ...
  CaseOutcome outcome = CaseOutcome::kPass;  // the campaign case's outcome: a pass, a finding, or unsupported
  std::int64_t runs = 0;
  double seconds = 0;
  std::int64_t coverage = 0;
  std::int64_t corpus = 0;
  std::int64_t findings = 0;
  std::int64_t crashes = 0;
  std::vector<CoveragePoint> over_time;
  // no_curve says, where over_time is empty, why: no coverage.tsv, one
  // that cannot be read, no row for the target, or another run's rows.
  std::string no_curve;
};

// ReadCoverageTsv reads coverage.tsv's rows by target, in file order. A
// line that is not a row of eight tab-separated fields with numbers where
// numbers belong is skipped: the file is the fuzz command's own, and a
// campaign killed mid-line leaves half a row.
std::map<std::string, std::vector<CoveragePoint>> ReadCoverageTsv(absl::string_view text);

// FuzzCampaigns are the campaigns among `cases` (IDs "fuzz.TARGET"), in
// case order, each with the rows of `run_directory`/coverage.tsv for its
// target. The file is read only where `cases` hold a campaign (a fuzz run),
// and whatever lies there is never trusted: a file that cannot be read (a
// directory, a FIFO, a device) leaves every curve out and says why, and a
// target's rows are drawn only where their last row holds the figures the
// store keeps of the campaign (the fuzz command writes that row from the
// figures it stores), so that another run's coverage.tsv (in a run
// directory a later run reused, or beside a page written elsewhere) is
// never drawn as this run's.
std::vector<FuzzCampaign> FuzzCampaigns(absl::Span<const CaseRecord> cases, const std::filesystem::path& run_directory);

// CoverageChartSvg draws a campaign's coverage over time as a line on
// axes of seconds and coverage (inline SVG, no script), each point titled
// with its figures. The coverage axis spans round numbers around the
// curve, not from 0, so that a campaign's late growth of a few edges shows.
// Rows before the first execution are left out; a campaign without other
// rows gets a sentence instead, with its no_curve (escaped).
std::string CoverageChartSvg(const FuzzCampaign& campaign);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_FUZZ_CAMPAIGNS_H_
