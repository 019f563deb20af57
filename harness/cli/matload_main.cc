// matload: differential fuzzing and conformance for PTX warp-level matrix
// loads (wmma.load, ldmatrix, tcgen05.ld). The commands, their flags and
// their synopses are in harness/cli/flags.cc, the environment variables in
// harness/platform/environment.cc; `matload --help` prints them.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/hash/hash.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/cli/case_history_command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/conform_command.h"
#include "harness/cli/flags.h"
#include "harness/cli/fuzz_command.h"
#include "harness/cli/history_command.h"
#include "harness/cli/merge_command.h"
#include "harness/cli/pure_commands.h"
#include "harness/cli/resumed_run_flags.h"
#include "harness/cli/run_reports.h"
#include "harness/cli/soak_command.h"
#include "harness/cli/store_commands.h"
#include "harness/cli/support_command.h"
#include "harness/cli/triage_command.h"
#include "harness/cli/version_command.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/environment.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/interrupt.h"
#include "harness/platform/outside_text.h"
#include "harness/platform/split_mix64.h"
#include "harness/runs/forms_regex.h"
#include "harness/runs/registry_in_force.h"
#include "harness/runs/results_store.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/shard.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// Fail reports a usage error on stderr and returns exit status 2.
int Fail(absl::string_view message) {
  std::cerr << "matload: " << PrintedText(message) << "\n";
  return 2;
}

// FailWith reports a command's failure and returns its exit status
// (exit_status.h): 2 for bad input, 3 without a GPU, 4 when matload could
// not judge.
int FailWith(const absl::Status& status) {
  std::cerr << "matload: " << PrintedText(status.message()) << "\n";
  return ExitStatusFor(status);
}

int RunDevices(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("devices takes no arguments, got '", arguments[0], "'"));
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) {
    std::cout << driver.status().message() << "\n";
    return kExitCompileOnly;
  }
  std::cout << "CUDA driver " << (*driver)->version() << "; " << (*driver)->release() << "\n";
  for (const DeviceInfo& device : (*driver)->devices()) {
    std::cout << "device " << device.ordinal << ": " << device.name << ", sm_" << device.compute_major
              << device.compute_minor << ", " << device.uuid << "\n";
  }
  return 0;
}

int RunSupportCommand(const std::vector<std::string>& arguments, const std::string& command_line) {
  if (!arguments.empty()) return Fail(absl::StrCat("support takes no arguments, got '", arguments[0], "'"));
  SupportOptions options;
  const std::string targets = absl::GetFlag(FLAGS_target);
  if (!targets.empty() && targets != "all") {
    absl::StatusOr<std::vector<Target>> parsed = ParseTargetList(targets);
    if (!parsed.ok()) return Fail(absl::StrCat("--target: ", parsed.status().message()));
    options.targets = *parsed;
  }
  if (!absl::GetFlag(FLAGS_ptx).empty()) {
    absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
    if (!ptx.ok()) return Fail(absl::StrCat("--ptx: ", ptx.status().message()));
    options.ptx = *ptx;
  }
  options.compiler = absl::GetFlag(FLAGS_compiler);
  options.ptxas_paths = absl::GetFlag(FLAGS_ptxas);
  options.out = absl::GetFlag(FLAGS_out);
  options.threads = absl::GetFlag(FLAGS_threads);
  if (options.threads < 1) return Fail("--threads must be at least 1");
  options.command = command_line;
  absl::StatusOr<CaseFilter> filter = FilterFromFlags(options.filter_text);
  if (!filter.ok()) return FailWith(filter.status());
  options.filter = *std::move(filter);
  options.db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db));
  options.resume = absl::GetFlag(FLAGS_resume);
  absl::StatusOr<std::optional<Baseline>> baseline = LoadBaseline(absl::GetFlag(FLAGS_baseline));
  if (!baseline.ok()) return FailWith(baseline.status());
  options.baseline = *std::move(baseline);
  options.strict_baseline = absl::GetFlag(FLAGS_strict_baseline);
  absl::StatusOr<std::string> parent = ParentName();
  if (!parent.ok()) return FailWith(parent.status());
  options.shard = absl::GetFlag(FLAGS_shard);
  options.parent = *std::move(parent);
  options.no_cache = absl::GetFlag(FLAGS_no_cache);
  options.progress_seconds = absl::GetFlag(FLAGS_progress_seconds);
  return RunSupport(options, std::cout, std::cerr);
}

int RunTriageCli(const std::vector<std::string>& arguments) {
  if (arguments.size() != 1) return Fail("triage takes one bundle directory or RUN:CASE_ID");
  TriageOptions options{.subject = arguments[0],
                        .out = absl::GetFlag(FLAGS_out),
                        .ptxas = Ptxas::DefaultPath(),
                        .releases = absl::GetFlag(FLAGS_ptxas),
                        .repeats = absl::GetFlag(FLAGS_repeats),
                        .db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db))};
  if (options.releases.empty()) options.releases = CachedPtxasPaths();
  if (options.releases == std::vector<std::string>{"none"}) options.releases.clear();
  if (options.repeats < 1) return Fail("--repeats must be at least 1");
  return RunTriageCommand(options, std::cout, std::cerr);
}

int RunHistoryCommand(const std::vector<std::string>& arguments, const std::string& command_line) {
  if (arguments.size() == 1)
    return RunCaseHistoryCommand(arguments[0], absl::GetFlag(FLAGS_json), std::cout, std::cerr);
  if (!arguments.empty()) return Fail(absl::StrCat("history takes at most one CASE_ID, got ", arguments.size()));
  if (absl::GetFlag(FLAGS_json)) return Fail("--json is for history CASE_ID; the support history writes history.json");
  HistoryOptions options;
  const std::string targets = absl::GetFlag(FLAGS_target);
  if (!targets.empty() && targets != "all") {
    absl::StatusOr<std::vector<Target>> parsed = ParseTargetList(targets);
    if (!parsed.ok()) return Fail(absl::StrCat("--target: ", parsed.status().message()));
    options.targets = *parsed;
  }
  absl::StatusOr<PtxVersion> common = ParsePtxVersion(absl::GetFlag(FLAGS_common_ptx));
  if (!common.ok()) return Fail(absl::StrCat("--common_ptx: ", common.status().message()));
  options.common = *common;
  options.ptxas_paths = absl::GetFlag(FLAGS_ptxas);
  if (options.ptxas_paths.empty()) options.ptxas_paths = CachedPtxasPaths();
  absl::StatusOr<CaseFilter> filter = FilterFromFlags(options.filter_text);
  if (!filter.ok()) return FailWith(filter.status());
  options.filter = *std::move(filter);
  options.db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db));
  options.out = absl::GetFlag(FLAGS_out);
  options.threads = absl::GetFlag(FLAGS_threads);
  options.no_cache = absl::GetFlag(FLAGS_no_cache);
  options.progress_seconds = absl::GetFlag(FLAGS_progress_seconds);
  options.command = command_line;
  return RunHistory(options, std::cout, std::cerr);
}

// WithShard makes `start` a run of the shard --shard names, if any, with
// its parent (ParentName, ShardParent); `start.options` must be set.
absl::Status WithShard(RunStart& start) {
  absl::StatusOr<std::string> name = ParentName();
  if (!name.ok()) return name.status();
  return AsShard(absl::GetFlag(FLAGS_shard), *name, start);
}

// RunDirectory is --out, else runs/<command>-<UTC time> under the current directory.
std::string RunDirectory(absl::string_view command) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (!out.empty()) return out;
  return absl::StrCat("runs/", command, "-", absl::FormatTime("%Y%m%dT%H%M%SZ", absl::Now(), absl::UTCTimeZone()));
}

// ConformDevices reads --devices (ordinals, or all) or, without it, --device.
absl::StatusOr<std::vector<int>> ConformDevices() {
  const std::string devices = absl::GetFlag(FLAGS_devices);
  if (devices.empty()) return std::vector<int>{absl::GetFlag(FLAGS_device)};
  if (devices == "all") {
    absl::StatusOr<int> count = CountDevices(std::chrono::seconds(60));
    if (!count.ok()) return count.status();
    std::vector<int> ordinals(*count);
    std::iota(ordinals.begin(), ordinals.end(), 0);
    return ordinals;
  }
  std::vector<int> ordinals;
  for (absl::string_view word : absl::StrSplit(devices, ',')) {
    int ordinal = -1;
    if (!absl::SimpleAtoi(word, &ordinal) || ordinal < 0 || ordinal > kMaxDeviceOrdinal) {
      return absl::InvalidArgumentError(absl::StrCat("--devices: '", word, "' is not a GPU ordinal (0 to ",
                                                     kMaxDeviceOrdinal, "); give ordinals, as 0,1, or all"));
    }
    if (std::find(ordinals.begin(), ordinals.end(), ordinal) != ordinals.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--devices: GPU ", ordinal, " is named twice"));
    }
    ordinals.push_back(ordinal);
  }
  return ordinals;
}

// GpuRunOptions reads the flags conform and soak share into the options of
// a conformance run, and the case filter's text into `filter_text`. A bad
// flag is kInvalidArgument.
absl::StatusOr<ConformanceOptions> GpuRunOptions(std::string& filter_text) {
  absl::StatusOr<std::vector<int>> devices = ConformDevices();
  if (!devices.ok()) return devices.status();
  ConformanceOptions options{.devices = *std::move(devices),
                             .variants = absl::GetFlag(FLAGS_variants),
                             .seed = absl::GetFlag(FLAGS_seed),
                             .forms = absl::GetFlag(FLAGS_forms),
                             .paths = {},
                             .undefined = absl::GetFlag(FLAGS_undefined),
                             .illegal = absl::GetFlag(FLAGS_near_miss),
                             .workers = absl::GetFlag(FLAGS_workers),
                             .retries = absl::GetFlag(FLAGS_retries),
                             .first_failures = static_cast<size_t>(absl::GetFlag(FLAGS_first_failures)),
                             .confirm_all_faults = absl::GetFlag(FLAGS_confirm_all_faults)};
  if (options.workers < 1) return absl::InvalidArgumentError("--workers: at least 1");
  for (const std::string& name : absl::GetFlag(FLAGS_paths)) {
    absl::StatusOr<CompilePath> path = ParseCompilePath(name);
    if (!path.ok()) return absl::InvalidArgumentError(absl::StrCat("--paths: ", path.status().message()));
    if (std::find(options.paths.begin(), options.paths.end(), *path) != options.paths.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--paths: ", name, " is named twice"));
    }
    options.paths.push_back(*path);
  }
  absl::StatusOr<PlantedBug> bug = ParsePlantedBug(absl::GetFlag(FLAGS_plant));
  if (!bug.ok()) return absl::InvalidArgumentError(absl::StrCat("--plant: ", bug.status().message()));
  options.bug = *bug;
  absl::StatusOr<JudgePlace> judge = ParseJudgePlace(absl::GetFlag(FLAGS_judge));
  if (!judge.ok()) return absl::InvalidArgumentError(absl::StrCat("--judge: ", judge.status().message()));
  options.judge = *judge;
  if (!options.forms.empty()) {
    if (absl::StatusOr<FormsRegex> parsed = FormsRegex::Parse(options.forms); !parsed.ok()) return parsed.status();
  }
  absl::StatusOr<CaseFilter> filter = FilterFromFlags(filter_text);
  if (!filter.ok()) return filter.status();
  options.filter = *std::move(filter);
  return options;
}

int RunConformCommand(const std::vector<std::string>& arguments, const std::string& command_line) {
  if (!arguments.empty()) return Fail(absl::StrCat("conform takes no arguments, got '", arguments[0], "'"));
  std::string filter_text;
  absl::StatusOr<ConformanceOptions> options = GpuRunOptions(filter_text);
  if (!options.ok()) return FailWith(options.status());
  absl::StatusOr<std::optional<Baseline>> baseline = LoadBaseline(absl::GetFlag(FLAGS_baseline));
  if (!baseline.ok()) return FailWith(baseline.status());
  RunStart start{.command = "conform",
                 .command_line = command_line,
                 .options = ConformOptionsJson(*options, filter_text),
                 .out = absl::GetFlag(FLAGS_out),
                 .resume = absl::GetFlag(FLAGS_resume),
                 .db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db))};
  if (absl::Status sharded = WithShard(start); !sharded.ok()) return FailWith(sharded);
  // A conform shard takes its cases by case ID, through the case filter.
  if (start.shard.has_value()) options->filter.KeepShard(*start.shard);
  return RunConform({.options = *std::move(options),
                     .start = std::move(start),
                     .baseline = *std::move(baseline),
                     .strict_baseline = absl::GetFlag(FLAGS_strict_baseline),
                     .progress_seconds = absl::GetFlag(FLAGS_progress_seconds),
                     .no_cache = absl::GetFlag(FLAGS_no_cache)},
                    std::cout, std::cerr);
}

// FreshSeed seeds a soak started without --seed: from the time in
// nanoseconds, the host's name and the process, so that soaks a fleet's
// timers start in the same second on every host draw different variants.
std::uint64_t FreshSeed() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::uint64_t mixed = static_cast<std::uint64_t>(absl::ToUnixNanos(absl::Now())) ^
                              (absl::HashOf(std::string(host)) * kSplitMix64Gamma) ^
                              (static_cast<std::uint64_t>(getpid()) << 40);
  return SplitMix64Output(mixed);
}

// RunSoakCommand runs `matload soak`. Without --seed, the soak is seeded
// afresh (FreshSeed), so that every soak draws fresh variants; each
// round's seed is printed and stored all the same.
int RunSoakCommand(const std::vector<std::string>& arguments, const std::string& command_line, bool seed_given) {
  if (!arguments.empty()) return Fail(absl::StrCat("soak takes no arguments, got '", arguments[0], "'"));
  std::string filter_text;
  absl::StatusOr<ConformanceOptions> options = GpuRunOptions(filter_text);
  if (!options.ok()) return FailWith(options.status());
  options->variants = absl::GetFlag(FLAGS_round_variants);
  options->illegal = false;  // a compile check gives the same answer every round: conform makes it
  if (!seed_given) options->seed = FreshSeed();
  SoakRequest request{.options = *std::move(options),
                      .round_target = absl::Seconds(absl::GetFlag(FLAGS_round_seconds)),
                      .duration = absl::Minutes(absl::GetFlag(FLAGS_minutes)),
                      .max_rounds = absl::GetFlag(FLAGS_rounds),
                      .progress_seconds = absl::GetFlag(FLAGS_progress_seconds),
                      .no_cache = absl::GetFlag(FLAGS_no_cache)};
  request.start = {.command = "soak",
                   .command_line = command_line,
                   .options = SoakOptionsJson(request, filter_text),
                   .out = absl::GetFlag(FLAGS_out),
                   .db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db))};
  return RunSoak(std::move(request), std::cout, std::cerr);
}

int RunSelfTestCli(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("selftest takes no arguments, got '", arguments[0], "'"));
  return RunSelfTestCommand(absl::GetFlag(FLAGS_device), RunDirectory("selftest"),
                            absl::GetFlag(FLAGS_progress_seconds), std::cout, std::cerr);
}

int RunFuzzCli(const std::vector<std::string>& arguments, const std::string& command_line) {
  if (!arguments.empty()) return Fail(absl::StrCat("fuzz takes no arguments, got '", arguments[0], "'"));
  std::error_code error;
  const std::filesystem::path source_dir = std::filesystem::absolute(EnvironmentOr("MATLOAD_SOURCE_DIR", "."), error);
  if (error) return Fail(absl::StrCat("MATLOAD_SOURCE_DIR: ", error.message()));
  InstallInterruptHandlers();
  FuzzCampaignOptions options{.targets = absl::GetFlag(FLAGS_targets),
                              .seconds = absl::GetFlag(FLAGS_seconds),
                              .jobs = absl::GetFlag(FLAGS_jobs),
                              .gpus = absl::GetFlag(FLAGS_gpus),
                              .seed = absl::GetFlag(FLAGS_seed),
                              .fuzzer_dirs = absl::GetFlag(FLAGS_fuzzers),
                              .source_dir = source_dir.string()};
  options.progress_seconds = absl::GetFlag(FLAGS_progress_seconds);
  const nlohmann::json run_options = {
      {"targets", options.targets}, {"seconds", options.seconds}, {"jobs", options.jobs}, {"seed", options.seed}};
  RunStart start{.command = "fuzz",
                 .command_line = command_line,
                 .options = run_options.dump(),
                 .out = absl::GetFlag(FLAGS_out),
                 .resume = absl::GetFlag(FLAGS_resume),
                 .db = ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db))};
  if (absl::Status sharded = WithShard(start); !sharded.ok()) return FailWith(sharded);
  options.shard = start.shard.value_or(Shard{});
  absl::StatusOr<std::unique_ptr<RunJournal>> journal = RunJournal::Start(start);
  if (!journal.ok()) return FailWith(journal.status());
  options.out = (*journal)->directory();
  options.journal = journal->get();
  std::cerr << "run " << (*journal)->run().id << ((*journal)->resumed() ? " (resumed)" : "") << " in "
            << PrintedText(options.out) << "\n";
  int status = RunFuzzCampaign(options, std::cout, std::cerr);
  if (status == kExitClean || status == kExitFindings) {
    // A resumed run's findings include those of the campaigns it recorded before.
    absl::StatusOr<std::vector<CaseRecord>> cases = (*journal)->Cases();
    if (!cases.ok()) return FailWith(cases.status());
    status = std::any_of(cases->begin(), cases->end(), [](const CaseRecord& c) { return c.finding; }) ? kExitFindings
                                                                                                      : kExitClean;
  }
  if (absl::Status finished = FinishWithReport(**journal, status); !finished.ok()) return FailWith(finished);
  return status;
}

// Dispatch runs the command `line` names.
int Dispatch(const CommandLine& line, const std::string& command_line) {
  const std::string command(line.command->name);
  const std::vector<std::string>& arguments = line.arguments;
  if (PureCommand pure = FindPureCommand(command)) return pure(arguments, std::cout, std::cerr);
  if (StoreCommand store = FindStoreCommand(command)) return store(arguments, std::cout, std::cerr);
  if (absl::Status resumed = SetFlagsOfResumedRun(command, line.given); !resumed.ok()) return FailWith(resumed);
  if (command == "devices") return RunDevices(arguments);
  if (command == "support") return RunSupportCommand(arguments, command_line);
  if (command == "history") return RunHistoryCommand(arguments, command_line);
  if (command == "conform") return RunConformCommand(arguments, command_line);
  if (command == "soak") return RunSoakCommand(arguments, command_line, line.given.contains("seed"));
  if (command == "selftest") return RunSelfTestCli(arguments);
  if (command == "triage") return RunTriageCli(arguments);
  if (command == "merge") return RunMergeCommand(arguments, command_line, std::cout, std::cerr);
  return RunFuzzCli(arguments, command_line);
}

}  // namespace
}  // namespace matload

int main(int argc, char** argv) {
  std::vector<std::string> words(argv, argv + argc);
  words[0] = "matload";
  const std::string command_line = matload::OutsideText(absl::StrJoin(words, " "));  // stored and printed
  const std::vector<matload::CommandSpec>& commands = matload::MatloadCommands();
  absl::StatusOr<matload::CommandLine> line = matload::ParseCommandLine(
      std::vector<std::string>(words.begin() + 1, words.end()), commands, matload::MatloadFlagRanges());
  if (!line.ok()) return matload::FailWith(line.status());
  if (line->version) return matload::PrintVersion(std::cout);
  if (line->help) {
    std::cout << matload::MatloadHelp(*line);
    return matload::kExitClean;
  }
  if (const std::string registry = absl::GetFlag(FLAGS_registry); !registry.empty()) {
    if (absl::Status used = matload::UseRegistryFile(registry); !used.ok()) return matload::FailWith(used);
    // A malformed one is bad input before any run begins.
    if (const auto parsed = matload::LoadRegistryInForce(); !parsed.ok()) return matload::FailWith(parsed.status());
  }
  return matload::Dispatch(*line, command_line);
}
