#include "harness/cli/support_reports.h"

#include <ctime>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/support/support_report.h"
#include "harness/support/toolkit_comparison.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// kCompilersKey is the artifact a support run stores its compilers under.
constexpr char kCompilersKey[] = "support/compilers";

// CaseIdToken writes a toolkit's report name as one case ID token:
// "ptxas-12.9.86" -> "ptxas_12_9_86".
std::string CaseIdToken(absl::string_view name) {
  std::string token(name);
  for (char& c : token) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return token;
}

// CompilersFromJson reads the compilers CompilersArtifact stored.
absl::StatusOr<std::vector<SupportCompiler>> CompilersFromJson(const std::string& text) {
  std::vector<SupportCompiler> compilers;
  try {
    for (const nlohmann::json& compiler : nlohmann::json::parse(text)) {
      compilers.push_back({compiler.at(0), compiler.at(1), compiler.at(2)});
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("the run's recorded compilers do not read back: ", error.what()));
  }
  return compilers;
}

// Unexplained counts the sweep's unexplained disagreements: its findings.
size_t Unexplained(const SupportSweep& sweep) {
  size_t unexplained = 0;
  for (const TargetSummary& summary : sweep.summaries) unexplained += summary.unexplained;
  return unexplained;
}

// ReadRecordedSweep reads the target's share that the run recorded under
// `key`; a share it lacks is kFailedPrecondition.
absl::StatusOr<TargetSweep> ReadRecordedSweep(RunJournal& journal, const std::string& key) {
  absl::StatusOr<std::optional<std::string>> text = journal.Artifact(key);
  if (!text.ok()) return text.status();
  if (!text->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", journal.run().id, " has no ", key, ": its reports cannot be rendered from the store"));
  }
  return TargetSweepFromJson(nlohmann::json::parse(**text, nullptr, false));
}

// SweptScope is what a support run swept: its targets at one PTX version.
struct SweptScope {
  std::vector<Target> targets;
  PtxVersion ptx;
};

// RecordedScope is what a support run's stored options say it swept.
absl::StatusOr<SweptScope> RecordedScope(const RunRecord& run) {
  const nlohmann::json options = nlohmann::json::parse(run.options, nullptr, false);
  std::vector<std::string> names;
  std::string ptx;
  try {
    options.at("targets").get_to(names);
    options.at("ptx").get_to(ptx);
  } catch (const nlohmann::json::exception& error) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id, " is not a support run that can be rendered: ", error.what()));
  }
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::StrJoin(names, ","));
  absl::StatusOr<PtxVersion> version = ParsePtxVersion(ptx);
  if (!targets.ok()) return targets.status();
  if (!version.ok()) return version.status();
  return SweptScope{*std::move(targets), *version};
}

// RecordedSweeps are the sweeps of the run's compilers over `scope`, as
// the run recorded them, each taking `seconds`.
absl::StatusOr<std::vector<CompilerSweep>> RecordedSweeps(RunJournal& journal, const SweptScope& scope,
                                                          double seconds) {
  absl::StatusOr<std::optional<std::string>> text = journal.Artifact(kCompilersKey);
  if (!text.ok()) return text.status();
  if (!text->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat("run ", journal.run().id, " has no ", kCompilersKey,
                                                      " (its shards ran their compilers from different paths?): its "
                                                      "reports cannot be rendered from the store"));
  }
  absl::StatusOr<std::vector<SupportCompiler>> compilers = CompilersFromJson(**text);
  if (!compilers.ok()) return compilers.status();
  std::vector<CompilerSweep> sweeps;
  for (const SupportCompiler& compiler : *compilers) {
    const std::string prefix = absl::StrCat("support/", CasePrefix(compiler, compilers->size() > 1));
    std::vector<absl::StatusOr<TargetSweep>> shares;
    for (Target target : scope.targets) shares.push_back(ReadRecordedSweep(journal, prefix + target.Name()));
    absl::StatusOr<SupportSweep> sweep =
        JoinTargetSweeps(compiler.toolchain, scope.ptx, scope.targets, std::move(shares));
    if (!sweep.ok()) return sweep.status();
    sweeps.push_back({compiler, *std::move(sweep), seconds});
  }
  return sweeps;
}

}  // namespace

std::string TodayUtc() {
  std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  return date;
}

std::pair<std::string, std::string> CompilersArtifact(const std::vector<SupportCompiler>& compilers) {
  nlohmann::json json = nlohmann::json::array();
  for (const SupportCompiler& compiler : compilers) json.push_back({compiler.name, compiler.toolchain, compiler.path});
  return {kCompilersKey, json.dump()};
}

std::string CasePrefix(const SupportCompiler& compiler, bool several) {
  return several ? CaseIdToken(compiler.name) + "." : "";
}

absl::Status WriteSupportReports(const std::vector<CompilerSweep>& sweeps, const DiscrepancyRegistry& registry,
                                 const std::string& command, const std::string& machine, const std::string& directory,
                                 std::ostream& out) {
  const bool several = sweeps.size() > 1;
  std::vector<SupportSweep> compared;
  for (const CompilerSweep& sweep : sweeps) {
    const std::string ptx = sweep.sweep.ptx.ToString();
    const std::string report = several ? absl::StrCat(directory, "/", sweep.compiler.name, "/ptx", ptx) : directory;
    const ReportContext context{.command = command,
                                .date = TodayUtc(),
                                .machine = machine,
                                .compiler_path = sweep.compiler.path,
                                .seconds = sweep.seconds};
    if (absl::Status written = WriteSupportReport(sweep.sweep, registry, context, report); !written.ok()) {
      return written;
    }
    out << "wrote " << PrintedText(report) << "/support.{md,json,html} and reproducers/ in "
        << static_cast<int>(sweep.seconds) << " s; " << Unexplained(sweep.sweep) << " unexplained disagreements\n";
    if (several) compared.push_back(sweep.sweep);  // a sweep holds every case: copied only to be compared
  }
  if (!several) return absl::OkStatus();
  const std::string path = absl::StrCat(directory, "/compare-ptx", compared.front().ptx.ToString(), ".md");
  if (absl::Status written = WriteFile(path, ToolkitComparisonMarkdown(compared, command, TodayUtc())); !written.ok()) {
    return written;
  }
  out << "wrote " << PrintedText(path) << "\n";
  return absl::OkStatus();
}

absl::Status RenderSupportRun(RunJournal& journal, const std::string& machine, double seconds, std::ostream& out) {
  absl::StatusOr<SweptScope> scope = RecordedScope(journal.run());
  absl::StatusOr<std::vector<CompilerSweep>> sweeps =
      scope.ok() ? RecordedSweeps(journal, *scope, seconds) : scope.status();
  absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  if (!sweeps.ok()) return sweeps.status();
  if (!registry.ok()) return registry.status();
  return WriteSupportReports(*sweeps, *registry, journal.run().command_line, machine, journal.directory(), out);
}

}  // namespace matload
