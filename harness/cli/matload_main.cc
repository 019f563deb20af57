// matload: differential fuzzing and conformance for PTX warp-level matrix
// loads (wmma.load, ldmatrix, tcgen05.ld).
//
//   matload check --target T[,T...|all] [--ptx V] [--json] (--file F | 'SNIPPET')
//   matload forms --target T [--ptx V] [--illegal]
//   matload model --target T [--ptx V] [--data iota8|iota16|iota32|random:SEED] [--row-addresses a0,...]
//                 [--base OFFSET] [--stride S] [--json] 'INSTRUCTION'
//   matload devices
//   matload support [--target T,...|all] [--ptx V] [--compiler ptxas|nvjitlink|driver] [--ptxas P[,P...]] [--out DIR]
//   matload conform [--device N] [--variants K] [--seed S] [--forms REGEX]
//                   [--paths driver-jit,ptxas-cubin,nvjitlink-cubin]
//                   [--undefined] [--near_miss=false] [--plant BUG] [--workers W] [--out DIR]
//   matload selftest [--device N] [--out DIR]
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "absl/flags/marshalling.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/cli/check_command.h"
#include "harness/cli/conform_command.h"
#include "harness/cli/fuzz_command.h"
#include "harness/cuda_driver.h"
#include "harness/cli/forms_command.h"
#include "harness/cli/model_command.h"
#include "harness/cli/support_command.h"

ABSL_FLAG(std::string, target, "", "Target(s): sm_90, a comma list, or 'all' (check only).");
ABSL_FLAG(std::string, ptx, "9.0", "PTX ISA version the module declares (.version).");
ABSL_FLAG(bool, json, false, "check: write one JSON object per snippet and target.");
ABSL_FLAG(std::string, file, "", "check: read snippets from this file, one per line ('#' lines skipped).");
ABSL_FLAG(bool, illegal, false, "forms: print the near-miss illegal forms instead of the legal ones.");
ABSL_FLAG(std::string, compiler, "ptxas", "support: the compiler to hold the model against: ptxas, nvjitlink or driver.");
ABSL_FLAG(std::vector<std::string>, ptxas, {},
          "support: ptxas binaries, comma-separated (default $MATLOAD_PTXAS, $CUDA_HOME/bin/ptxas); several are "
          "compared.");
ABSL_FLAG(std::string, out, "",
          "support: report directory (default reports/support/<compiler>-<version>); conform, selftest: run directory "
          "(default runs/<command>-<date>).");
ABSL_FLAG(int, threads, 2, "support: targets swept at once.");
ABSL_FLAG(std::string, data, "iota8", "model: the memory pattern: iota8, iota16, iota32 or random:SEED.");
ABSL_FLAG(std::vector<std::string>, row_addresses, {}, "model: ldmatrix row byte offsets, one per lane (default 16*lane).");
ABSL_FLAG(uint64_t, base, 0, "model: wmma p's byte offset in the window; tcgen05.ld taddr.");
ABSL_FLAG(int64_t, stride, -1, "model: wmma stride in elements (default: the form's default stride).");

ABSL_FLAG(int, device, 0, "conform, selftest: the GPU's ordinal.");
ABSL_FLAG(int, variants, 16, "conform: variants (run-time inputs) per form and compile path.");
ABSL_FLAG(uint64_t, seed, 1, "conform: the seed every variant replays from.");
ABSL_FLAG(std::string, forms, "", "conform: only forms whose label matches this ECMAScript regex.");
ABSL_FLAG(std::vector<std::string>, paths, {"driver-jit"},
          "conform: compile paths: driver-jit, ptxas-cubin and/or nvjitlink-cubin.");
ABSL_FLAG(bool, undefined, false, "conform: also run cases the spec leaves undefined (recorded, never compared).");
ABSL_FLAG(bool, near_miss, true, "conform: check the near-miss illegal forms through the driver JIT.");
ABSL_FLAG(std::string, plant, "none", "conform: plant a bug to see it caught (wrong-lane, transposed, ...).");
ABSL_FLAG(int, workers, 8, "conform: worker processes launching at once, each with a CUDA context of its own.");
ABSL_FLAG(std::vector<std::string>, targets, std::vector<std::string>({"text", "legality", "reference"}),
          "fuzz: the targets, from text, legality, reference and device; all run at once.");
ABSL_FLAG(int, seconds, 60, "fuzz: how long each target runs.");
ABSL_FLAG(int, jobs, 1, "fuzz: libFuzzer -fork jobs per target.");
ABSL_FLAG(std::string, gpus, "", "fuzz: the GPUs the device target may use (CUDA_VISIBLE_DEVICES), e.g. 0 or 0,1.");
ABSL_FLAG(std::vector<std::string>, fuzzers, std::vector<std::string>({"build/fuzz/fuzz", "build/fuzz-device/fuzz"}),
          "fuzz: directories searched, in order, for NAME_fuzzer binaries.");

namespace matload {
namespace {

constexpr char kUsage[] =
    "matload COMMAND [flags]\n"
    "  check --target T[,T...|all] [--ptx V] [--json] (--file F | 'SNIPPET')\n"
    "        the model's verdict: legal, or illegal with every reason\n"
    "  forms --target T [--ptx V] [--illegal]\n"
    "        every legal (or near-miss illegal) form, one canonical spelling per line\n"
    "  model --target T [--ptx V] [--data iota8|iota16|iota32|random:SEED] [--row-addresses a0,...]\n"
    "        [--base OFFSET] [--stride S] [--json] 'INSTRUCTION'\n"
    "        the reference model's registers for every lane, with each element's provenance\n"
    "  devices\n"
    "        the GPUs the CUDA driver lists, or why there are none (exit 3)\n"
    "  support [--target T,...|all] [--ptx V] [--compiler ptxas|nvjitlink|driver] [--ptxas P,...] [--out DIR]\n"
    "        the per-target support matrix, model against compiler, written under reports/support/\n"
    "  conform [--device N] [--variants K] [--seed S] [--forms REGEX]\n"
    "        [--paths driver-jit,ptxas-cubin,nvjitlink-cubin]\n"
    "        [--undefined] [--near_miss=false] [--plant BUG] [--workers W] [--out DIR]\n"
    "        every legal form on the GPU, every register of every lane against the model (exit 1 on findings)\n"
    "  selftest [--device N] [--out DIR]\n"
    "        plant five bugs and show each is caught and bundled\n"
    "  fuzz [--targets text,legality,reference,device] [--seconds S] [--jobs N] [--gpus 0,1] [--seed S]\n"
    "        [--fuzzers DIR,...] [--out DIR]\n"
    "        a libFuzzer campaign: progress, findings by signature, coverage growth (exit 1 on findings)";

int Fail(absl::string_view message) {
  std::cerr << "matload: " << message << "\n";
  return 2;
}

// FailWith reports a command's failure and returns its exit status
// (exit_status.h): 2 for bad input, 3 without a GPU, 4 when matload could
// not judge.
int FailWith(const absl::Status& status) {
  std::cerr << "matload: " << status.message() << "\n";
  return ExitStatusFor(status);
}

int RunCheck(const std::vector<std::string>& arguments) {
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!targets.ok()) return Fail(absl::StrCat("--target: ", targets.status().message()));
  absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
  if (!ptx.ok()) return Fail(absl::StrCat("--ptx: ", ptx.status().message()));
  std::vector<LabeledSnippet> snippets;
  const std::string file = absl::GetFlag(FLAGS_file);
  if (!file.empty()) {
    if (!arguments.empty()) return Fail("give either --file or a snippet, not both");
    absl::StatusOr<std::vector<LabeledSnippet>> read = ReadSnippetFile(file);
    if (!read.ok()) return Fail(read.status().message());
    snippets = *std::move(read);
  } else if (arguments.size() == 1) {
    snippets.push_back({"argv", arguments[0]});
  } else {
    return Fail("check needs one snippet argument (quote it) or --file F");
  }
  WriteCheck(snippets, *targets, *ptx, absl::GetFlag(FLAGS_json), std::cout);
  return 0;
}

int RunForms(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("forms takes no arguments, got '", arguments[0], "'"));
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!targets.ok()) return Fail(absl::StrCat("--target: ", targets.status().message()));
  if (targets->size() != 1) return Fail("forms takes exactly one --target");
  absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
  if (!ptx.ok()) return Fail(absl::StrCat("--ptx: ", ptx.status().message()));
  if (!TargetExistsIn(targets->front(), *ptx)) {
    return Fail(absl::StrCat(".target ", targets->front().Name(), " does not exist in PTX ISA ", ptx->ToString()));
  }
  WriteForms(*ptx, targets->front(), absl::GetFlag(FLAGS_illegal), std::cout);
  return 0;
}

int RunModel(const std::vector<std::string>& arguments) {
  if (arguments.size() != 1) return Fail("model needs one instruction argument (quote it)");
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!targets.ok()) return Fail(absl::StrCat("--target: ", targets.status().message()));
  if (targets->size() != 1) return Fail("model takes exactly one --target");
  absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
  if (!ptx.ok()) return Fail(absl::StrCat("--ptx: ", ptx.status().message()));
  ModelOptions options{.target = targets->front(), .ptx = *ptx, .data = absl::GetFlag(FLAGS_data),
                       .base = absl::GetFlag(FLAGS_base), .json = absl::GetFlag(FLAGS_json)};
  for (const std::string& address : absl::GetFlag(FLAGS_row_addresses)) {
    std::uint64_t value = 0;
    if (!absl::SimpleAtoi(address, &value)) return Fail(absl::StrCat("--row-addresses: '", address, "' is not a number"));
    options.row_addresses.push_back(value);
  }
  const std::int64_t stride = absl::GetFlag(FLAGS_stride);
  if (stride >= 0) options.stride = static_cast<std::uint32_t>(stride);
  absl::Status status = WriteModel(arguments[0], options, std::cout);
  if (!status.ok()) return FailWith(status);
  return 0;
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
  absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
  if (!ptx.ok()) return Fail(absl::StrCat("--ptx: ", ptx.status().message()));
  options.ptx = *ptx;
  options.compiler = absl::GetFlag(FLAGS_compiler);
  options.ptxas_paths = absl::GetFlag(FLAGS_ptxas);
  options.out = absl::GetFlag(FLAGS_out);
  options.threads = absl::GetFlag(FLAGS_threads);
  if (options.threads < 1) return Fail("--threads must be at least 1");
  options.command = command_line;
  absl::StatusOr<size_t> unexplained = RunSupport(options, std::cout);
  if (!unexplained.ok()) return FailWith(unexplained.status());
  return *unexplained > 0 ? kExitFindings : kExitClean;
}

// RunDirectory is --out, else runs/<command>-<UTC time> under the current directory.
std::string RunDirectory(absl::string_view command) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (!out.empty()) return out;
  return absl::StrCat("runs/", command, "-", absl::FormatTime("%Y%m%dT%H%M%SZ", absl::Now(), absl::UTCTimeZone()));
}

int RunConformCommand(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("conform takes no arguments, got '", arguments[0], "'"));
  ConformanceOptions options{.device = absl::GetFlag(FLAGS_device),
                             .variants = absl::GetFlag(FLAGS_variants),
                             .seed = absl::GetFlag(FLAGS_seed),
                             .forms = absl::GetFlag(FLAGS_forms),
                             .paths = {},
                             .undefined = absl::GetFlag(FLAGS_undefined),
                             .illegal = absl::GetFlag(FLAGS_near_miss),
                             .run_directory = RunDirectory("conform"),
                             .workers = absl::GetFlag(FLAGS_workers)};
  if (options.workers < 1) return Fail("--workers: at least 1");
  for (const std::string& name : absl::GetFlag(FLAGS_paths)) {
    absl::StatusOr<CompilePath> path = ParseCompilePath(name);
    if (!path.ok()) return Fail(absl::StrCat("--paths: ", path.status().message()));
    options.paths.push_back(*path);
  }
  absl::StatusOr<PlantedBug> bug = ParsePlantedBug(absl::GetFlag(FLAGS_plant));
  if (!bug.ok()) return Fail(absl::StrCat("--plant: ", bug.status().message()));
  options.bug = *bug;
  if (!options.forms.empty()) {
    try {
      std::regex check(options.forms);
    } catch (const std::regex_error& error) {
      return Fail(absl::StrCat("--forms: not a regex: ", error.what()));
    }
  }
  return RunConform(options, std::cout, std::cerr);
}

int RunSelfTestCli(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("selftest takes no arguments, got '", arguments[0], "'"));
  return RunSelfTestCommand(absl::GetFlag(FLAGS_device), RunDirectory("selftest"), std::cout, std::cerr);
}

int RunFuzzCli(const std::vector<std::string>& arguments) {
  if (!arguments.empty()) return Fail(absl::StrCat("fuzz takes no arguments, got '", arguments[0], "'"));
  const char* source = std::getenv("MATLOAD_SOURCE_DIR");
  return RunFuzzCampaign({.targets = absl::GetFlag(FLAGS_targets),
                          .seconds = absl::GetFlag(FLAGS_seconds),
                          .jobs = absl::GetFlag(FLAGS_jobs),
                          .gpus = absl::GetFlag(FLAGS_gpus),
                          .seed = absl::GetFlag(FLAGS_seed),
                          .out = RunDirectory("fuzz"),
                          .fuzzer_dirs = absl::GetFlag(FLAGS_fuzzers),
                          .source_dir = std::filesystem::absolute(source != nullptr ? source : ".").string()},
                         std::cout, std::cerr);
}

}  // namespace
}  // namespace matload

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(matload::kUsage);
  std::vector<std::string> words(argv, argv + argc);
  words[0] = "matload";
  const std::string command_line = absl::StrJoin(words, " ");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) return matload::Fail(absl::StrCat("no command\n", matload::kUsage));
  const std::string command = positional[1];
  const std::vector<std::string> arguments(positional.begin() + 2, positional.end());
  if (command == "check") return matload::RunCheck(arguments);
  if (command == "forms") return matload::RunForms(arguments);
  if (command == "model") return matload::RunModel(arguments);
  if (command == "devices") return matload::RunDevices(arguments);
  if (command == "support") return matload::RunSupportCommand(arguments, command_line);
  if (command == "conform") return matload::RunConformCommand(arguments);
  if (command == "selftest") return matload::RunSelfTestCli(arguments);
  if (command == "fuzz") return matload::RunFuzzCli(arguments);
  return matload::Fail(absl::StrCat("unknown command '", command, "'\n", matload::kUsage));
}
