#include "harness/cli/triage_command.h"

#include <algorithm>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/sass_lowering.h"
#include "harness/judge/toolchain_release.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/outside_text.h"
#include "harness/triage/triage.h"
#include "harness/triage/triage_report.h"

namespace matload {
namespace {

// Fail prints `status` and gives its exit status.
int Fail(const absl::Status& status, std::ostream& err) {
  err << "matload triage: " << OutsideText(status.message()) << "\n";
  return ExitStatusFor(status);
}

// OpenReleases opens each release's ptxas, oldest release first. A path
// that is not a ptxas is bad input.
absl::StatusOr<std::vector<Ptxas>> OpenReleases(const std::vector<std::string>& paths) {
  std::vector<Ptxas> releases;
  for (const std::string& path : paths) {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
    if (!ptxas.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--ptxas: ", path, ": ", ptxas.status().message()));
    }
    releases.push_back(*std::move(ptxas));
  }
  std::sort(releases.begin(), releases.end(),
            [](const Ptxas& a, const Ptxas& b) { return ReleaseNumbers(a.Version()) < ReleaseNumbers(b.Version()); });
  return releases;
}

}  // namespace

int RunTriageCommand(const TriageOptions& options, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  if (options.out.empty()) return Fail(absl::InvalidArgumentError("give --out DIR, a new or empty directory"), err);
  if (absl::Status free = CheckTriageDirectory(options.out); !free.ok()) return Fail(free, err);
  absl::StatusOr<TriageCase> triage_case = ReadTriageCase(options.bundle);
  if (!triage_case.ok()) return Fail(triage_case.status(), err);
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(options.ptxas);
  if (!ptxas.ok()) return Fail(absl::InvalidArgumentError(absl::StrCat("--ptxas: ", ptxas.status().message())), err);
  absl::StatusOr<std::vector<Ptxas>> releases = OpenReleases(options.releases);
  if (!releases.ok()) return Fail(releases.status(), err);
  TriageRequest request{
      .triage_case = &*triage_case, .ptxas = &*ptxas, .cuobjdump = DefaultCuobjdumpPath(), .repeats = options.repeats};
  for (const Ptxas& release : *releases) request.history.push_back(&release);
  absl::StatusOr<TriageResult> result = RunTriage(request);
  if (!result.ok()) return Fail(result.status(), err);
  if (absl::Status written = WriteTriage(options.out, *triage_case, *result); !written.ok()) {
    return Fail(written, err);
  }
  out << DescribeTriage(*triage_case, *result).summary << "\n"
      << "wrote " << OutsideText(options.out) << "/triage.md, triage.html and triage.json\n";
  return kExitClean;
}

}  // namespace matload
