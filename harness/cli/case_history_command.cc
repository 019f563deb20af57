#include "harness/cli/case_history_command.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "harness/cli/store_commands.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/outside_text.h"
#include "harness/triage/case_history.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// Started is a run's start, as the table gives it.
std::string Started(const RunRecord& run) {
  return absl::FormatTime("%Y-%m-%d %H:%M", run.started, absl::UTCTimeZone());
}

// Json is the history as `matload history CASE_ID --json` writes it.
nlohmann::json Json(const std::string& case_id, const std::vector<CaseNight>& nights) {
  nlohmann::json runs = nlohmann::json::array();
  for (const CaseNight& night : nights) {
    runs.push_back({{"run", night.run.id},
                    {"command", night.run.command},
                    {"started", Started(night.run)},
                    {"gpu", night.run.gpu_name},
                    {"gpu_uuid", night.run.gpu_uuid},
                    {"driver", night.run.driver},
                    {"toolkits", night.run.toolkits},
                    {"outcome", std::string(CaseOutcomeWord(night.outcome))},
                    {"finding", night.finding}});
  }
  return {{"case", OutsideText(case_id)}, {"summary", CaseHistorySummary(nights)}, {"runs", runs}};
}

}  // namespace

int RunCaseHistoryCommand(const std::string& case_id, bool json, std::ostream& out, std::ostream& err) {
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  absl::StatusOr<std::vector<CaseNight>> nights =
      store.ok() ? ReadCaseHistory(*store, case_id) : absl::StatusOr<std::vector<CaseNight>>(store.status());
  if (nights.ok() && nights->empty()) {
    nights = absl::InvalidArgumentError(absl::StrCat("no run in ", store->path(), " has the case '", case_id,
                                                     "' (matload runs lists the runs; results.tsv their cases)"));
  }
  if (!nights.ok()) {
    err << "matload: " << PrintedText(nights.status().message()) << "\n";
    return ExitStatusFor(nights.status());
  }
  if (json) {
    out << Json(case_id, *nights).dump(2) << "\n";
    return kExitClean;
  }
  out << PrintedText(case_id) << ": " << CaseHistorySummary(*nights) << "\n"
      << "# run\tstarted\tGPU\tdriver\ttoolkits\toutcome\n";
  for (const CaseNight& night : *nights) {
    out << night.run.id << "\t" << Started(night.run) << "\t" << PrintedText(night.run.gpu_name) << "\t"
        << night.run.driver << "\t" << night.run.toolkits << "\t" << CaseOutcomeWord(night.outcome) << "\n";
  }
  return kExitClean;
}

}  // namespace matload
