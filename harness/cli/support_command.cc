#include "harness/cli/support_command.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/cuda_driver.h"
#include "harness/discrepancy_registry.h"
#include "harness/infrastructure.h"
#include "harness/nvjitlink.h"
#include "harness/ptxas.h"
#include "harness/source_tree.h"
#include "harness/sass_lowering.h"
#include "harness/support_report.h"
#include "harness/support_sweep.h"
#include "harness/toolkit_comparison.h"

namespace matload {
namespace {

// OpenedCompiler is one compiler and how its report names its path.
struct OpenedCompiler {
  std::unique_ptr<CompileOracle> oracle;
  std::string path;
};

// OpenCompilers opens the compiler(s) named by `options`.
absl::StatusOr<std::vector<OpenedCompiler>> OpenCompilers(const SupportOptions& options) {
  std::vector<OpenedCompiler> compilers;
  if (options.compiler == "ptxas") {
    std::vector<std::string> paths = options.ptxas_paths;
    if (paths.empty()) paths.push_back(Ptxas::DefaultPath());
    for (const std::string& path : paths) {
      absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
      if (!ptxas.ok()) return ptxas.status();
      compilers.push_back({std::make_unique<Ptxas>(*std::move(ptxas)), path});
    }
    return compilers;
  }
  if (!options.ptxas_paths.empty()) return absl::InvalidArgumentError("--ptxas goes with --compiler=ptxas");
  if (options.compiler == "nvjitlink") {
    absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
    if (!nvjitlink.ok()) return nvjitlink.status();
    compilers.push_back({*std::move(nvjitlink), "libnvJitLink (in process)"});
    return compilers;
  }
  if (options.compiler == "driver") {
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    if (!driver.ok()) return driver.status();
    absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
    if (!jit.ok()) return jit.status();
    compilers.push_back({*std::move(jit), "the CUDA driver's JIT, device 0"});
    return compilers;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--compiler: unknown compiler '", options.compiler, "': expected ptxas, nvjitlink or driver"));
}

// ReportName names a compiler's report directory: "ptxas-13.0.88" (the
// report itself goes to <name>/ptx<version>).
std::string ReportName(const CompileOracle& compiler) {
  return absl::StrReplaceAll(absl::StrCat(compiler.Tool(), "-", compiler.Version()), {{" ", "-"}, {";", ""}});
}

// PrintSummary prints one line per target of `sweep` to `out` and
// returns its unexplained disagreements.
size_t PrintSummary(const std::string& name, const SupportSweep& sweep, std::ostream& out) {
  size_t unexplained = 0;
  for (const TargetSummary& summary : sweep.summaries) {
    out << name << "\t" << summary.target << "\t" << (summary.compiled ? "" : "model only\t")
        << summary.matrix_rows << " matrix rows, " << summary.legal << " legal, " << summary.near_miss
        << " near-miss: " << summary.agree << " agree, " << summary.explained << " known discrepancies, "
        << summary.unexplained << " unexplained"
        << (summary.unjudged > 0 ? absl::StrCat(", ", summary.unjudged, " unjudged") : "")
        << (summary.compiled ? absl::StrCat(" (", summary.compiler_runs, " compiler runs, ", summary.bisection_runs,
                                            " of them bisecting)")
                             : "")
        << "\n";
    for (const std::string& line : summary.unrecognised_lines) {
      std::cerr << "matload: " << name << " on " << summary.target << " printed a line not in its diagnostic format: "
                << line << "\n";
    }
    unexplained += summary.unexplained;
  }
  return unexplained;
}

// Unjudged is an InfrastructureError when `sweep` left forms without a
// compiler verdict.
absl::Status Unjudged(const std::string& name, const SupportSweep& sweep) {
  size_t unjudged = 0;
  for (const TargetSummary& summary : sweep.summaries) unjudged += summary.unjudged;
  if (unjudged == 0) return absl::OkStatus();
  return InfrastructureError(
      InfrastructureCause::kCompilerOutputNotUnderstood,
      absl::StrCat(name, " left ", unjudged, " forms unjudged: errors on no line kept recurring until the batch ",
                   "checker's bisection bound (harness/batch_checker.h); no report was written"));
}

std::string Today() {
  std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  return date;
}

}  // namespace

absl::StatusOr<size_t> RunSupport(const SupportOptions& options, std::ostream& out) {
  absl::StatusOr<std::vector<OpenedCompiler>> compilers = OpenCompilers(options);
  if (!compilers.ok()) return compilers.status();
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  if (!registry.ok()) return registry.status();
  std::vector<Target> targets = options.targets;
  if (targets.empty()) {
    for (const TargetInfo& info : AllTargets()) {
      if (TargetExistsIn(info.target, options.ptx)) targets.push_back(info.target);
    }
  }
  for (Target target : targets) {
    if (!TargetExistsIn(target, options.ptx)) {
      return absl::InvalidArgumentError(
          absl::StrCat(".target ", target.Name(), " does not exist in PTX ISA ", options.ptx.ToString()));
    }
  }
  const bool terminal = isatty(STDERR_FILENO) != 0;
  utsname system{};
  uname(&system);
  const bool several = compilers->size() > 1;
  const std::string root = options.out.empty() ? SourceTreePath("reports/support") : options.out;
  std::vector<SupportSweep> sweeps;
  size_t total_unexplained = 0;
  for (const OpenedCompiler& compiler : *compilers) {
    const std::string name = ReportName(*compiler.oracle);
    Progress progress = [terminal, name](size_t done, size_t total, const std::string& target) {
      if (!terminal) return;
      const int width = 30;
      const int filled = static_cast<int>(width * done / total);
      std::cerr << "\r" << name << " [" << std::string(filled, '#') << std::string(width - filled, ' ') << "] "
                << done << "/" << total << " targets, last " << target << "   " << std::flush;
      if (done == total) std::cerr << "\n";
    };
    const auto start = std::chrono::steady_clock::now();
    // The SASS column needs a cuobjdump: $MATLOAD_CUOBJDUMP, else the one
    // beside this ptxas, else the one beside the default ptxas.
    std::string cuobjdump = DefaultCuobjdumpPath();
    if (std::getenv("MATLOAD_CUOBJDUMP") == nullptr) {
      const std::string beside = compiler.path.substr(0, compiler.path.rfind('/') + 1) + "cuobjdump";
      if (access(beside.c_str(), X_OK) == 0) cuobjdump = beside;
    }
    if (access(cuobjdump.c_str(), X_OK) != 0) {
      std::cerr << "matload: no cuobjdump (" << cuobjdump
                << "): the report has no SASS column; scripts/fetch-cuda-tools.sh cuobjdump@13.5.37 fetches one\n";
      cuobjdump.clear();
    }
    absl::StatusOr<SupportSweep> sweep = RunSupportSweep(*compiler.oracle, *registry, targets, options.ptx,
                                                         options.threads, progress, cuobjdump);
    if (!sweep.ok()) return sweep.status();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string directory = options.out.empty() || several
                                      ? absl::StrCat(root, "/", name, "/ptx", options.ptx.ToString())
                                      : options.out;
    ReportContext context{.command = options.command,
                          .date = Today(),
                          .machine = absl::StrCat(system.machine, ", ", sysconf(_SC_NPROCESSORS_ONLN), " cores, ",
                                                  options.threads, " threads used"),
                          .compiler_path = compiler.path,
                          .seconds = seconds};
    const size_t unexplained = PrintSummary(name, *sweep, out);
    if (absl::Status judged = Unjudged(name, *sweep); !judged.ok()) return judged;
    absl::Status written = WriteSupportReport(*sweep, *registry, context, directory);
    if (!written.ok()) return written;
    total_unexplained += unexplained;
    out << "wrote " << directory << "/support.{md,json,html} and reproducers/ in " << static_cast<int>(seconds)
        << " s; " << unexplained << " unexplained disagreements\n";
    sweeps.push_back(*std::move(sweep));
  }
  if (several) {
    const std::string path = absl::StrCat(root, "/compare-ptx", options.ptx.ToString(), ".md");
    std::ofstream file(path);
    file << ToolkitComparisonMarkdown(sweeps, options.command, Today());
    if (!file) return absl::DataLossError(absl::StrCat("cannot write ", path));
    out << "wrote " << path << "\n";
  }
  return total_unexplained;
}

}  // namespace matload
