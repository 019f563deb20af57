#include "harness/cli/conform_command.h"

#include <unistd.h>

#include <fstream>
#include <iostream>

#include "harness/interrupt.h"
#include "harness/self_test.h"

namespace matload {
namespace {

// TerminalProgress draws a progress bar on stderr when it is a terminal.
ConformanceProgress TerminalProgress(std::ostream& err) {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  return [terminal, &err](size_t done, size_t total, const std::string& what) {
    if (!terminal) return;
    const int width = 30;
    const int filled = static_cast<int>(width * done / std::max<size_t>(total, 1));
    err << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << done << "/" << total << " "
        << what << "   " << std::flush;
    if (done == total) err << "\n";
  };
}

int FailureStatus(const absl::Status& status, std::ostream& err) {
  err << "matload: " << status.message() << "\n";
  return ExitStatusFor(status);
}

}  // namespace

int RunConform(const ConformanceOptions& options, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  absl::StatusOr<ConformanceResult> result = RunConformance(options, TerminalProgress(err));
  if (!result.ok()) return FailureStatus(result.status(), err);
  out << ConformanceSummaryMarkdown(options, *result) << "\nresults: " << options.run_directory << "/results.tsv\n";
  return result->findings == 0 ? 0 : 1;
}

int RunSelfTestCommand(int device, const std::string& directory, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  absl::StatusOr<std::vector<SelfTestRow>> rows = RunSelfTest(device, directory, TerminalProgress(err));
  if (!rows.ok()) return FailureStatus(rows.status(), err);
  const std::string table = SelfTestMarkdown(*rows);
  std::ofstream(directory + "/selftest.md") << "# matload selftest\n\n" << (*rows)[0].result.identity << "\n\n" << table;
  out << table;
  for (const SelfTestRow& row : *rows) {
    if (!row.detected) return 1;
  }
  return 0;
}

}  // namespace matload
