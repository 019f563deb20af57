#include "harness/cli/support_command.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>

#include <ctime>
#include <iostream>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/cuda_driver.h"
#include "harness/discrepancy_registry.h"
#include "harness/nvjitlink.h"
#include "harness/ptxas.h"
#include "harness/source_tree.h"
#include "harness/support_report.h"
#include "harness/support_sweep.h"

namespace matload {
namespace {

// OpenCompiler opens the compiler named by `options`; `keep_alive` holds
// what the compiler depends on.
absl::StatusOr<std::unique_ptr<CompileOracle>> OpenCompiler(const SupportOptions& options, std::string& path) {
  if (options.compiler == "ptxas") {
    path = options.ptxas_path.empty() ? Ptxas::DefaultPath() : options.ptxas_path;
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
    if (!ptxas.ok()) return ptxas.status();
    return std::make_unique<Ptxas>(*std::move(ptxas));
  }
  if (options.compiler == "nvjitlink") {
    path = "libnvJitLink (in process)";
    absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
    if (!nvjitlink.ok()) return nvjitlink.status();
    return std::unique_ptr<CompileOracle>(*std::move(nvjitlink));
  }
  if (options.compiler == "driver") {
    path = "the CUDA driver's JIT, device 0";
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    if (!driver.ok()) return driver.status();
    absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
    if (!jit.ok()) return jit.status();
    return std::unique_ptr<CompileOracle>(*std::move(jit));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--compiler: unknown compiler '", options.compiler, "': expected ptxas, nvjitlink or driver"));
}

std::string Today() {
  std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  return date;
}

}  // namespace

absl::Status RunSupport(const SupportOptions& options, std::ostream& out) {
  std::string path;
  absl::StatusOr<std::unique_ptr<CompileOracle>> compiler = OpenCompiler(options, path);
  if (!compiler.ok()) return compiler.status();
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
  Progress progress = [terminal](size_t done, size_t total, const std::string& target) {
    if (!terminal) return;
    const int width = 30;
    const int filled = static_cast<int>(width * done / total);
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << done << "/" << total
              << " targets, last " << target << "   " << std::flush;
    if (done == total) std::cerr << "\n";
  };
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<SupportSweep> sweep =
      RunSupportSweep(**compiler, *registry, targets, options.ptx, options.threads, progress);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!sweep.ok()) return sweep.status();
  const std::string directory =
      options.out.empty()
          ? SourceTreePath(absl::StrCat("reports/support/",
                                        absl::StrReplaceAll(absl::StrCat((*compiler)->Tool(), "-",
                                                                         (*compiler)->Version()),
                                                            {{" ", "-"}, {";", ""}})))
          : options.out;
  utsname system{};
  uname(&system);
  ReportContext context{.command = options.command,
                        .date = Today(),
                        .machine = absl::StrCat(system.machine, ", ", sysconf(_SC_NPROCESSORS_ONLN), " cores, ",
                                                options.threads, " threads used"),
                        .compiler_path = path,
                        .seconds = seconds};
  absl::Status written = WriteSupportReport(*sweep, *registry, context, directory);
  if (!written.ok()) return written;
  size_t unexplained = 0;
  for (const TargetSummary& summary : sweep->summaries) {
    out << summary.target << "\t" << (summary.compiled ? "" : "model only\t") << summary.matrix_rows
        << " matrix rows, " << summary.legal << " legal, " << summary.near_miss << " near-miss: " << summary.agree
        << " agree, " << summary.explained << " known discrepancies, " << summary.unexplained << " unexplained\n";
    unexplained += summary.unexplained;
  }
  out << "wrote " << directory << "/support.{md,json,html} and reproducers/; " << unexplained
      << " unexplained disagreements\n";
  return absl::OkStatus();
}

}  // namespace matload
