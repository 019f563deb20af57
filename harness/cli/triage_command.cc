#include "harness/cli/triage_command.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/store_commands.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/sass_lowering.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/judge/toolchain_release.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/case_id.h"
#include "harness/runs/results_store.h"
#include "harness/runs/verdict_cache.h"
#include "harness/triage/case_history.h"
#include "harness/triage/compile_triage.h"
#include "harness/triage/compile_triage_report.h"
#include "harness/triage/triage.h"
#include "harness/triage/triage_report.h"

namespace matload {
namespace {

// kTriageCommand names matload triage in its failure messages (ReportFailure).
constexpr absl::string_view kTriageCommand = "matload triage";

// OpenPtxas opens the ptxas at `path`, which `named_by` names. A path
// that is not a ptxas is bad input; one that crashed or hung answering is
// the infrastructure failure it was, and an interrupt stays one.
absl::StatusOr<Ptxas> OpenPtxas(const std::string& path, absl::string_view named_by) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
  if (ptxas.ok() || InfrastructureCauseOf(ptxas.status()).has_value() || InterruptSignalOf(ptxas.status()) != 0) {
    return ptxas;
  }
  return absl::InvalidArgumentError(absl::StrCat(named_by, ": ", OutsideText(path), ": ", ptxas.status().message()));
}

// OpenReleases opens each release's ptxas (OpenPtxas), oldest release first.
absl::StatusOr<std::vector<Ptxas>> OpenReleases(const std::vector<std::string>& paths) {
  std::vector<Ptxas> releases;
  for (const std::string& path : paths) {
    absl::StatusOr<Ptxas> ptxas = OpenPtxas(path, "--ptxas");
    if (!ptxas.ok()) return ptxas.status();
    releases.push_back(*std::move(ptxas));
  }
  std::sort(releases.begin(), releases.end(),
            [](const Ptxas& a, const Ptxas& b) { return ReleaseNumbers(a.Version()) < ReleaseNumbers(b.Version()); });
  return releases;
}

// HistoryOf is `case_id`'s runs in the store at `db`, or none where there
// is no store there; a store that cannot be read is said, and the triage
// goes on without its history.
std::vector<CaseNight> HistoryOf(const std::string& db, const std::string& case_id, std::ostream& err) {
  std::error_code error;
  if (!std::filesystem::exists(db, error)) return {};
  absl::StatusOr<ResultsStore> store = ResultsStore::OpenReadOnly(db);
  absl::StatusOr<std::vector<CaseNight>> nights =
      store.ok() ? ReadCaseHistory(*store, case_id) : absl::StatusOr<std::vector<CaseNight>>(store.status());
  if (!nights.ok()) {
    err << "matload triage: the case's history is not in the report: " << PrintedText(nights.status().message())
        << "\n";
    return {};
  }
  return *std::move(nights);
}

// TriageBundle triages a conform finding's bundle on the GPU.
int TriageBundle(const TriageOptions& options, const std::filesystem::path& bundle, std::ostream& out,
                 std::ostream& err) {
  absl::StatusOr<TriageCase> triage_case = ReadTriageCase(bundle);
  if (!triage_case.ok()) return ReportFailure(err, triage_case.status(), kTriageCommand);
  absl::StatusOr<Ptxas> ptxas =
      OpenPtxas(options.ptxas, "the toolkit's ptxas ($MATLOAD_PTXAS, else $CUDA_HOME/bin/ptxas)");
  if (!ptxas.ok()) return ReportFailure(err, ptxas.status(), kTriageCommand);
  absl::StatusOr<std::vector<Ptxas>> releases = OpenReleases(options.releases);
  if (!releases.ok()) return ReportFailure(err, releases.status(), kTriageCommand);
  TriageRequest request{
      .triage_case = &*triage_case, .ptxas = &*ptxas, .cuobjdump = DefaultCuobjdumpPath(), .repeats = options.repeats};
  for (const Ptxas& release : *releases) request.history.push_back(&release);
  absl::StatusOr<TriageResult> result = RunTriage(request);
  if (!result.ok()) return ReportFailure(err, result.status(), kTriageCommand);
  const TestProgram& program = *triage_case->program;
  result->history = HistoryOf(
      options.db,
      ConformCaseId(program.instruction().form(), program.options().shared_address_bits,
                    triage_case->recorded_compile_path,
                    triage_case->undefined && std::holds_alternative<Undefined>(program.Expect(triage_case->variant))),
      err);
  if (absl::Status written = WriteTriage(options.out, *triage_case, *result); !written.ok()) {
    return ReportFailure(err, written, kTriageCommand);
  }
  out << DescribeTriage(*triage_case, *result).summary << "\n"
      << "wrote " << PrintedText(options.out) << "/triage.md, triage.html and triage.json\n";
  return result->no_gpu.empty() ? kExitClean : kExitCompileOnly;
}

// TriageSupportCase takes a support case through every release.
int TriageSupportCase(const TriageOptions& options, const std::string& case_id, std::ostream& out, std::ostream& err) {
  if (options.releases.empty()) {
    return ReportFailure(
        err,
        absl::InvalidArgumentError(
            "no ptxas releases: give --ptxas P,..., or fetch them with scripts/fetch-cuda-tools.sh all"),
        kTriageCommand);
  }
  absl::StatusOr<std::vector<Ptxas>> releases = OpenReleases(options.releases);
  if (!releases.ok()) return ReportFailure(err, releases.status(), kTriageCommand);
  absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  if (!registry.ok()) return ReportFailure(err, registry.status(), kTriageCommand);
  absl::StatusOr<std::unique_ptr<VerdictCache>> cache = VerdictCache::Open(options.db);
  absl::StatusOr<CompileTriage> triage =
      TriageCompileCase(case_id, *releases, *registry, cache.ok() ? cache->get() : nullptr);
  if (!triage.ok()) return ReportFailure(err, triage.status(), kTriageCommand);
  triage->history = HistoryOf(options.db, case_id, err);
  if (absl::Status written = WriteCompileTriage(options.out, *triage); !written.ok()) {
    return ReportFailure(err, written, kTriageCommand);
  }
  out << DescribeCompileTriage(*triage).summary << "\n"
      << "wrote " << PrintedText(options.out) << "/triage.md, triage.html and triage.json\n";
  return kExitClean;
}

// TriageStoredCase finds RUN's case CASE_ID in the store: a support case
// is triaged across releases, a conform case through its bundle.
int TriageStoredCase(const TriageOptions& options, std::ostream& out, std::ostream& err) {
  const size_t colon = options.subject.find(':');
  const std::string run_name = options.subject.substr(0, colon);
  const std::string case_id = options.subject.substr(colon + 1);
  absl::StatusOr<ResultsStore> store = OpenStoreToRead();
  if (!store.ok()) return ReportFailure(err, store.status(), kTriageCommand);
  absl::StatusOr<RunRecord> run = FindRun(*store, run_name);
  if (!run.ok()) return ReportFailure(err, absl::InvalidArgumentError(run.status().message()), kTriageCommand);
  absl::StatusOr<std::vector<CaseRecord>> cases = store->Cases(run->id);
  if (!cases.ok()) return ReportFailure(err, cases.status(), kTriageCommand);
  const auto found = std::find_if(cases->begin(), cases->end(), [&](const CaseRecord& c) { return c.id == case_id; });
  if (found == cases->end()) {
    return ReportFailure(err, absl::InvalidArgumentError(absl::StrCat("run ", run->id, " has no case '", case_id, "'")),
                         kTriageCommand);
  }
  if (run->command == "support" || run->command == "history") return TriageSupportCase(options, case_id, out, err);
  if ((run->command == "conform" || run->command == "soak") && !found->bundle.empty()) {
    return TriageBundle(options, std::filesystem::path(run->directory) / found->bundle, out, err);
  }
  return ReportFailure(err,
                       absl::InvalidArgumentError(
                           absl::StrCat("case '", case_id, "' of ", run->id, " (", CaseOutcomeWord(found->outcome),
                                        ") has no bundle to triage: only conform findings have one")),
                       kTriageCommand);
}

}  // namespace

int RunTriageCommand(const TriageOptions& options, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();
  if (options.out.empty()) {
    return ReportFailure(err, absl::InvalidArgumentError("give --out DIR, a new or empty directory"), kTriageCommand);
  }
  if (absl::Status free = CheckTriageDirectory(options.out); !free.ok()) {
    return ReportFailure(err, free, kTriageCommand);
  }
  std::error_code error;
  if (std::filesystem::is_directory(options.subject, error)) return TriageBundle(options, options.subject, out, err);
  if (options.subject.find(':') != std::string::npos) return TriageStoredCase(options, out, err);
  return ReportFailure(
      err,
      absl::InvalidArgumentError(absl::StrCat("'", options.subject, "' is neither a bundle directory nor RUN:CASE_ID")),
      kTriageCommand);
}

}  // namespace matload
