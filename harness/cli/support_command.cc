#include "harness/cli/support_command.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "harness/cli/progress_reporter.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/store_commands.h"
#include "harness/cli/support_reports.h"
#include "harness/cli/sweep_progress.h"
#include "harness/compile/cached_compiler.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/compile/sass_lowering.h"
#include "harness/compile/toolchain_identity.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/nvjitlink.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/environment.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/judged_nothing.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/verdict_cache.h"
#include "harness/support/registry_standing.h"
#include "harness/support/support_sweep.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// OpenedCompiler is one compiler, how its report names its path, and the
// file it runs from (the verdict cache's toolchain identity), if any.
struct OpenedCompiler {
  std::unique_ptr<CompileOracle> oracle;
  std::string path;
  std::string binary;  // empty: none (the driver's JIT)
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
      compilers.push_back({std::make_unique<Ptxas>(*std::move(ptxas)), path, path});
    }
    return compilers;
  }
  if (!options.ptxas_paths.empty()) return absl::InvalidArgumentError("--ptxas goes with --compiler=ptxas");
  if (options.compiler == "nvjitlink") {
    absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
    if (!nvjitlink.ok()) return nvjitlink.status();
    const std::string library = (*nvjitlink)->library_file();
    compilers.push_back({*std::move(nvjitlink), "libnvJitLink (in process)", library});
    return compilers;
  }
  if (options.compiler == "driver") {
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    if (!driver.ok()) return driver.status();
    absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, 0);
    if (!jit.ok()) return jit.status();
    compilers.push_back({*std::move(jit), "the CUDA driver's JIT, device 0", ""});
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
      std::cerr << "matload: " << name << " on " << summary.target
                << " printed a line not in its diagnostic format: " << PrintedText(line) << "\n";
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
                   "checker's bisection bound (harness/compile/batch_checker.h); no report was written"));
}

// OptionsJson is what decides a support run's cases and verdicts: a
// resumed run must be asked for with the same.
std::string OptionsJson(const SupportOptions& options, const std::vector<Target>& targets) {
  std::vector<std::string> names;
  for (Target target : targets) names.push_back(target.Name());
  return nlohmann::json{{"targets", names},
                        {"ptx", options.ptx->ToString()},
                        {"compiler", options.compiler},
                        {"ptxas", options.ptxas_paths},
                        {"filter", options.filter_text}}
      .dump();
}

// SweepTargets are the targets `options` name, every one at its PTX
// version if none; a target that does not exist there is kInvalidArgument.
absl::StatusOr<std::vector<Target>> SweepTargets(const SupportOptions& options) {
  std::vector<Target> targets = options.targets;
  if (targets.empty()) {
    for (const TargetInfo& info : AllTargets()) {
      if (TargetExistsIn(info.target, *options.ptx)) targets.push_back(info.target);
    }
  }
  for (Target target : targets) {
    if (!TargetExistsIn(target, *options.ptx)) {
      return absl::InvalidArgumentError(
          absl::StrCat(".target ", target.Name(), " does not exist in PTX ISA ", options.ptx->ToString()));
    }
  }
  return targets;
}

// CuobjdumpFor is the cuobjdump that gives `compiler`'s report its SASS
// column: $MATLOAD_CUOBJDUMP, else the one beside this ptxas, else the one
// beside the default ptxas; empty, with a note, when there is none.
std::string CuobjdumpFor(const OpenedCompiler& compiler) {
  std::string cuobjdump = DefaultCuobjdumpPath();
  if (!Environment("MATLOAD_CUOBJDUMP").has_value()) {
    const std::string beside = compiler.path.substr(0, compiler.path.rfind('/') + 1) + "cuobjdump";
    if (access(beside.c_str(), X_OK) == 0) cuobjdump = beside;
  }
  if (access(cuobjdump.c_str(), X_OK) != 0) {
    std::cerr << "matload: no cuobjdump (" << cuobjdump
              << "): the report has no SASS column; scripts/fetch-cuda-tools.sh cuobjdump@13.5.37 fetches one\n";
    cuobjdump.clear();
  }
  return cuobjdump;
}

// SassIdentity is the identity of ptxas, `cuobjdump` and the nvdisasm beside
// it together, which lower the SASS column; empty (the column is compiled
// each time) when the compiler is not ptxas, there is no such nvdisasm or a
// file has no identity.
std::string SassIdentity(const OpenedCompiler& compiler, const std::string& cuobjdump) {
  if (cuobjdump.empty() || dynamic_cast<const Ptxas*>(compiler.oracle.get()) == nullptr) return "";
  const std::string nvdisasm = cuobjdump.substr(0, cuobjdump.rfind('/') + 1) + "nvdisasm";
  if (access(nvdisasm.c_str(), X_OK) != 0) return "";
  absl::StatusOr<std::string> identity = ToolchainIdentity(absl::StrCat(compiler.oracle->Toolchain(), " + cuobjdump"),
                                                           {compiler.binary, cuobjdump, nvdisasm});
  return identity.ok() ? *identity : "";
}

// OpenVerdictCache opens the verdict cache in the run's results store, or
// gives null with --no-cache.
absl::StatusOr<std::unique_ptr<VerdictCache>> OpenVerdictCache(const SupportOptions& options) {
  if (options.no_cache) return std::unique_ptr<VerdictCache>();
  return VerdictCache::Open(options.db);
}

// CompilerIdentity is the verdict cache's name for `compiler`'s answers
// (toolchain_identity.h), or why it has none.
absl::StatusOr<std::string> CompilerIdentity(const OpenedCompiler& compiler) {
  if (compiler.binary.empty()) return absl::FailedPreconditionError("it is not one file matload can hash");
  return ToolchainIdentity(compiler.oracle->Toolchain(), {compiler.binary});
}

// CacheFor is how `compiler`'s sweep uses `verdicts` (null with --no-cache):
// not at all when the compiler has no identity, which it says on stderr.
SweepCache CacheFor(const OpenedCompiler& compiler, const std::string& cuobjdump, VerdictCache* verdicts) {
  if (verdicts == nullptr) return {};
  absl::StatusOr<std::string> identity = CompilerIdentity(compiler);
  if (!identity.ok()) {
    std::cerr << "matload: " << compiler.oracle->Toolchain()
              << "'s answers are not cached: " << PrintedText(identity.status().message()) << "\n";
    return {};
  }
  return {.verdicts = verdicts, .compiler = *identity, .sass = SassIdentity(compiler, cuobjdump)};
}

// AskDialect asks `compiler` which PTX ISA version it speaks
// (ProbePtxDialect), through the verdict cache where the sweep keeps one,
// so that a warm sweep compiles nothing. A compiler that crashes on the
// question through the cache is asked itself, which hears a ptxas that
// names its version before it dies (ptxas 12.0.140; PtxDialect::crashed).
absl::StatusOr<PtxDialect> AskDialect(const SupportOptions& options, const OpenedCompiler& compiler) {
  absl::StatusOr<std::unique_ptr<VerdictCache>> verdicts = OpenVerdictCache(options);
  if (!verdicts.ok()) return verdicts.status();
  absl::StatusOr<std::string> identity = CompilerIdentity(compiler);
  if (*verdicts == nullptr || !identity.ok()) return ProbePtxDialect(*compiler.oracle);
  CachedCompiler cached(*compiler.oracle, **verdicts, *identity);
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(cached);
  if (InfrastructureCauseOf(dialect.status()) == InfrastructureCause::kCompilerCrashed) {
    return ProbePtxDialect(*compiler.oracle);
  }
  if (dialect.ok() && dialect->from_message) {
    if (absl::Status kept = cached.KeepAnswers(); !kept.ok()) return kept;
  }
  return dialect;
}

// SweepPtx is the PTX ISA version a sweep of `compilers` declares: --ptx,
// which every compiler must speak (kInvalidArgument otherwise), or the
// newest that matload and every compiler speak. Each compiler is asked
// (ProbePtxDialect); one ahead of matload's tables is noted on `out` and
// in `toolkits`, its entry in the run's list of toolkits.
absl::StatusOr<PtxVersion> SweepPtx(const SupportOptions& options, const std::vector<OpenedCompiler>& compilers,
                                    std::vector<std::string>& toolkits, std::ostream& out) {
  PtxVersion ptx = options.ptx.value_or(NewestPtxVersion());
  for (const OpenedCompiler& compiler : compilers) {
    absl::StatusOr<PtxDialect> dialect = AskDialect(options, compiler);
    if (!dialect.ok()) return dialect.status();
    std::string toolkit = compiler.oracle->Toolchain();
    if (const std::string note = DialectNote(toolkit, *dialect); !note.empty()) {
      out << "note: " << note << "\n";
      absl::StrAppend(&toolkit, " (speaks PTX ", dialect->spoken.ToString(), ")");
    }
    toolkits.push_back(std::move(toolkit));
    if (options.ptx.has_value() && dialect->spoken < *options.ptx) {
      return absl::InvalidArgumentError(absl::StrCat("--ptx ", options.ptx->ToString(), ": ",
                                                     compiler.oracle->Toolchain(), " speaks PTX ISA ",
                                                     dialect->spoken.ToString(), " at most; name an older --ptx, or ",
                                                     "leave it out to sweep at the newest every compiler speaks"));
    }
    if (!options.ptx.has_value() && dialect->Judged() < ptx) ptx = dialect->Judged();
  }
  return ptx;
}

// PrintCacheUse says on `out` how many of `name`'s answers came from the
// verdict cache and how many were compiled and kept.
void PrintCacheUse(const std::string& name, const SweepCache& cache, std::ostream& out) {
  if (cache.verdicts == nullptr) return;
  out << name << "\tverdict cache (" << cache.compiler << "): " << cache.verdicts->found() << " answers found, "
      << cache.verdicts->kept() << " compiled and kept\n";
}

// JournalHooks tie one compiler's sweep to the run: the run's case filter,
// the targets an earlier attempt recorded, and each target's cases and
// share recorded as it finishes. `prefix` starts this compiler's case IDs
// and artifact keys when a run sweeps several.
SweepHooks JournalHooks(const SupportOptions& options, RunJournal& journal, const std::string& prefix) {
  const std::string key = prefix.empty() ? "support/" : absl::StrCat("support/", prefix);
  return {
      .select = [&options, prefix](const std::string& id) { return options.filter.Selects(prefix + id); },
      .recorded = [&journal, key](Target target) -> std::optional<TargetSweep> {
        absl::StatusOr<std::optional<std::string>> text = journal.Artifact(key + target.Name());
        if (!text.ok() || !text->has_value()) return std::nullopt;
        absl::StatusOr<TargetSweep> sweep = TargetSweepFromJson(nlohmann::json::parse(**text, nullptr, false));
        if (!sweep.ok()) return std::nullopt;
        return *std::move(sweep);
      },
      .record =
          [&journal, key, prefix](Target target, const TargetSweep& sweep) {
            const std::map<std::string, std::string> artifacts = {{key + target.Name(), TargetSweepJson(sweep).dump()}};
            if (prefix.empty()) return journal.Record(sweep.cases, artifacts);
            std::vector<CaseRecord> cases = sweep.cases;
            for (CaseRecord& record : cases) record.id = prefix + record.id;
            return journal.Record(cases, artifacts);
          },
  };
}

// NamedCompilers are `compilers` as the run's reports name them.
std::vector<SupportCompiler> NamedCompilers(const std::vector<OpenedCompiler>& compilers) {
  std::vector<SupportCompiler> named;
  for (const OpenedCompiler& compiler : compilers) {
    named.push_back({ReportName(*compiler.oracle), compiler.oracle->Toolchain(), compiler.path});
  }
  return named;
}

// TakesNoCase is JudgedNothing when the run recorded no case. A shard may
// take none; its merged run is held to it (matload merge).
absl::Status TakesNoCase(const SupportOptions& options, RunJournal& journal) {
  if (options.shard.has_value()) return absl::OkStatus();
  absl::StatusOr<std::vector<CaseRecord>> cases = journal.Cases();
  if (!cases.ok()) return cases.status();
  if (!cases->empty()) return absl::OkStatus();
  return JudgedNothing("support", !options.filter.SelectsAll());
}

// SweepAndReport sweeps `targets` with every compiler and writes the
// reports into the run directory; it returns the unexplained
// disagreements.
absl::StatusOr<size_t> SweepAndReport(const SupportOptions& options, const std::vector<OpenedCompiler>& compilers,
                                      const DiscrepancyRegistry& registry, const std::vector<Target>& targets,
                                      RunJournal& journal, std::ostream& out) {
  const std::vector<SupportCompiler> named = NamedCompilers(compilers);
  if (absl::Status recorded = journal.Record({}, {CompilersArtifact(named)}); !recorded.ok()) {
    return recorded;
  }
  std::vector<CompilerSweep> sweeps;
  size_t total_unexplained = 0;
  ProgressReporter reporter(std::cerr, "cases", ProgressReporter::ForStderr(options.progress_seconds, true));
  for (size_t i = 0; i < compilers.size(); ++i) {
    reporter.StartPhase(absl::StrCat("support ", named[i].name), 0);
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::unique_ptr<VerdictCache>> verdicts = OpenVerdictCache(options);
    if (!verdicts.ok()) return verdicts.status();
    const std::string cuobjdump = CuobjdumpFor(compilers[i]);
    const SweepCache cache = CacheFor(compilers[i], cuobjdump, verdicts->get());
    absl::StatusOr<SupportSweep> sweep = RunSupportSweep(
        *compilers[i].oracle, registry, targets, *options.ptx, options.threads, SweepProgressTo(reporter), cuobjdump,
        JournalHooks(options, journal, CasePrefix(named[i], compilers.size() > 1)), cache);
    reporter.Finish();
    if (!sweep.ok()) return sweep.status();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_unexplained += PrintSummary(named[i].name, *sweep, out);
    out << StandingLines(named[i].name, StandingOf(registry, *sweep), sweep->compiler);
    PrintCacheUse(named[i].name, cache, out);
    if (absl::Status judged = Unjudged(named[i].name, *sweep); !judged.ok()) return judged;
    sweeps.push_back({named[i], *std::move(sweep), seconds});
  }
  if (absl::Status taken = TakesNoCase(options, journal); !taken.ok()) return taken;
  utsname system{};
  uname(&system);
  const std::string machine =
      absl::StrCat(system.machine, ", ", sysconf(_SC_NPROCESSORS_ONLN), " cores, ", options.threads, " threads used");
  if (absl::Status written =
          WriteSupportReports(sweeps, registry, journal.run().command_line, machine, journal.directory(), out);
      !written.ok()) {
    return written;
  }
  return total_unexplained;
}

// ShardTargets are the targets of `targets` that `shard` takes: a support
// run's shard key is the target, so that a target's forms, its artifact
// and its report column stay in one shard.
std::vector<Target> ShardTargets(const std::vector<Target>& targets, const std::optional<Shard>& shard) {
  std::vector<Target> taken;
  for (Target target : targets) {
    if (!shard.has_value() || shard->Takes(target.Name())) taken.push_back(target);
  }
  return taken;
}

// SupportRunStart is the run `options` ask for over `targets`: its options
// are the whole run's, whatever its shard, so that the shards can be merged.
absl::StatusOr<RunStart> SupportRunStart(const SupportOptions& options, const std::vector<Target>& targets) {
  RunStart start{.command = "support",
                 .command_line = options.command,
                 .options = OptionsJson(options, targets),
                 .out = options.out,
                 .resume = options.resume,
                 .db = options.db};
  if (absl::Status sharded = AsShard(options.shard, options.parent, start); !sharded.ok()) return sharded;
  return start;
}

// ExpectedInSupport says which case IDs a support run of `options` over
// `targets` should have: those its filter takes on those targets (with
// several compilers, after the toolkit's name).
ExpectedHere ExpectedInSupport(const SupportOptions& options, const std::vector<Target>& targets) {
  std::set<std::string> names;
  for (Target target : targets) names.insert(target.Name());
  return [&options, names](const std::string& id) {
    if (!options.filter.Selects(id)) return false;
    for (absl::string_view token : absl::StrSplit(id, absl::MaxSplits('.', 2))) {
      if (names.contains(std::string(token))) return true;
    }
    return false;
  };
}

// ExitStatusOf is the exit status of a sweep that ended with `unexplained`,
// held against the run's baseline when it has one.
int ExitStatusOf(const SupportOptions& options, const std::vector<Target>& targets,
                 const absl::StatusOr<size_t>& unexplained, RunJournal& journal, std::ostream& out, std::ostream& err) {
  if (!unexplained.ok()) {
    err << "matload: " << PrintedText(unexplained.status().message()) << "\n";
    return ExitStatusFor(unexplained.status());
  }
  if (!options.baseline.has_value()) return *unexplained > 0 ? kExitFindings : kExitClean;
  absl::StatusOr<std::vector<CaseRecord>> cases = journal.Cases();
  if (!cases.ok()) {
    err << "matload: " << PrintedText(cases.status().message()) << "\n";
    return ExitStatusFor(cases.status());
  }
  return BaselineExitStatus(*options.baseline, *cases, ExpectedInSupport(options, targets), options.strict_baseline,
                            out);
}

}  // namespace

int RunSupport(const SupportOptions& given, std::ostream& out, std::ostream& err) {
  InstallInterruptHandlers();  // SIGINT, SIGTERM and SIGHUP end the sweep in order, as "interrupted"
  absl::StatusOr<std::vector<OpenedCompiler>> compilers = OpenCompilers(given);
  // --shard and --parent are checked before the version probe opens the
  // store, so that a usage error leaves no store behind.
  RunStart shard_check{.command = "support"};
  if (absl::Status sharded = AsShard(given.shard, given.parent, shard_check); !sharded.ok()) {
    err << "matload: " << PrintedText(sharded.message()) << "\n";
    return ExitStatusFor(sharded);
  }
  std::vector<std::string> toolkits;
  absl::StatusOr<PtxVersion> ptx = compilers.ok() ? SweepPtx(given, *compilers, toolkits, out) : compilers.status();
  if (!ptx.ok()) {
    err << "matload: " << PrintedText(ptx.status().message()) << "\n";
    return ExitStatusFor(ptx.status());
  }
  SupportOptions options = given;
  options.ptx = *ptx;
  absl::StatusOr<std::vector<Target>> targets = SweepTargets(options);
  absl::StatusOr<DiscrepancyRegistry> registry = LoadRegistryInForce();
  absl::StatusOr<RunStart> start = targets.ok() ? SupportRunStart(options, *targets) : targets.status();
  for (const absl::Status& status : {compilers.status(), targets.status(), registry.status(), start.status()}) {
    if (!status.ok()) {
      return ReportFailure(err, status);
    }
  }
  const std::vector<Target> swept = ShardTargets(*targets, options.shard);
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(*start);
  if (!journal.ok()) {
    err << "matload: " << PrintedText(journal.status().message()) << "\n";
    return ExitStatusFor(journal.status());
  }
  absl::StatusOr<size_t> unexplained = absl::UnknownError("not swept");
  if (absl::Status described = (*journal)->Describe(absl::StrJoin(toolkits, "; "), "", "", ""); !described.ok()) {
    unexplained = described;
  } else {
    out << "run " << (*journal)->run().id << ((*journal)->resumed() ? " (resumed)" : "") << " in "
        << PrintedText((*journal)->directory()) << "\n";
    unexplained = SweepAndReport(options, *compilers, *registry, swept, **journal, out);
  }
  const int exit_status = ExitStatusOf(options, swept, unexplained, **journal, out, err);
  if (absl::Status finished = FinishWithReport(**journal, exit_status); !finished.ok()) {
    err << "matload: " << PrintedText(finished.message()) << "\n";
    return ExitStatusFor(finished);
  }
  return exit_status;
}

}  // namespace matload
