#include "harness/cli/run_reports.h"

#include <filesystem>
#include <system_error>

#include "absl/status/statusor.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/output_files.h"
#include "harness/report/diff_report.h"
#include "harness/report/run_report.h"

namespace matload {
namespace {

namespace fs = std::filesystem;

// PlaceOf places a page at `path` for the run whose directory is
// `run_directory` (as the file system names it, RunDirectory).
ReportPlace PlaceOf(const std::string& path, const std::string& run_directory) {
  std::error_code error;
  const fs::path page_directory = fs::absolute(fs::path(path), error).parent_path();
  const fs::path run = run_directory.empty() ? fs::path() : fs::absolute(fs::path(run_directory), error);
  const bool here = !run.empty() && fs::is_directory(run, error);
  return ReportPlace{.page_directory = page_directory, .run_directory = here ? run : page_directory};
}

// WritePage writes `html`, or its error, to `path`.
absl::Status WritePage(const absl::StatusOr<std::string>& html, const std::string& path) {
  if (!html.ok()) return html.status();
  return WriteFile(path, *html);
}

}  // namespace

absl::Status WriteRunPage(const RunRecord& run, const std::vector<CaseRecord>& cases, const RunExtras& extras,
                          const std::string& path) {
  return WritePage(RunReportHtml(run, cases, PlaceOf(path, RunDirectory(run)), extras), path);
}

absl::StatusOr<RunExtras> RunExtrasOf(ArtifactReader read) {
  RunExtras extras;
  for (const std::string key : {kSmVerdictsArtifact, kSoakRoundsArtifact}) {
    absl::StatusOr<std::optional<std::string>> artifact = read(key);
    if (!artifact.ok()) return artifact.status();
    if (!artifact->has_value()) continue;
    const nlohmann::json json = nlohmann::json::parse(**artifact, nullptr, false);
    if (json.is_discarded()) return absl::DataLossError(absl::StrCat("the run's stored ", key, " are not JSON"));
    absl::Status parsed = absl::OkStatus();
    if (key == kSmVerdictsArtifact) {
      absl::StatusOr<SmVerdicts> sm_verdicts = ParseSmVerdicts(json);
      parsed = sm_verdicts.status();
      if (sm_verdicts.ok()) extras.sm_verdicts = *std::move(sm_verdicts);
    } else {
      absl::StatusOr<std::vector<SoakRound>> rounds = ParseSoakRounds(json);
      parsed = rounds.status();
      if (rounds.ok()) extras.soak_rounds = *std::move(rounds);
    }
    if (!parsed.ok()) return parsed;
  }
  return extras;
}

absl::Status WriteDiffPage(const RunRecord& a, const RunRecord& b, const RunDiff& diff,
                           const std::vector<CaseRecord>& b_cases, const std::string& path) {
  return WritePage(DiffReportHtml(a, b, diff, b_cases, PlaceOf(path, RunDirectory(b))), path);
}

absl::Status WriteRunsIndex(const std::vector<RunSeries>& series, const std::string& store_path,
                            const std::string& path) {
  return WritePage(RunsIndexHtml(series, store_path), path);
}

absl::Status FinishWithReport(RunJournal& journal, int exit_status) {
  const absl::Time now = absl::Now();
  absl::StatusOr<std::vector<CaseRecord>> cases = journal.Cases();
  if (!cases.ok()) return cases.status();
  absl::StatusOr<RunExtras> extras = RunExtrasOf([&journal](const std::string& key) { return journal.Artifact(key); });
  if (!extras.ok()) return extras.status();
  // A page that cannot be written (a full disk under --out) still ends the
  // run, as the infrastructure failure it is, so that it is never left
  // "running" in a store that had room.
  if (absl::Status written = WriteRunPage(journal.Ended(exit_status, now), *cases, *extras,
                                          (fs::path(journal.directory()) / "report.html").string());
      !written.ok()) {
    if (absl::Status finished = journal.Finish(kExitInfrastructure, now); !finished.ok()) return finished;
    return written;
  }
  return journal.Finish(exit_status, now);
}

}  // namespace matload
