#include "harness/cli/flags.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <limits>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/platform/environment.h"
#include "harness/platform/input_files.h"
#include "harness/runs/stable_hash.h"

namespace matload {
namespace {

// FlagTable is the flag table's rows as they are defined, in order.
std::vector<FlagRow>& FlagTable() {
  static auto* const kRows = new std::vector<FlagRow>();
  return *kRows;
}

// AddFlagRow appends `row` to the table (for MATLOAD_FLAG).
bool AddFlagRow(const FlagRow& row) {
  FlagTable().push_back(row);
  return true;
}

}  // namespace
}  // namespace matload

// MATLOAD_FLAG defines one flag and its row of the flag table: the Abseil
// flag `name` of `Type` with `default_value`, the commands that take it
// (space-separated), the value's name in a synopsis ("" for a boolean) and
// what it means, which is also the flag's Abseil help. The help, the
// synopses and which command takes which flag all come from these rows.
#define MATLOAD_FLAG(Type, name, default_value, commands, value, meaning) \
  ABSL_FLAG(Type, name, default_value, meaning);                          \
  [[maybe_unused]] static const bool matload_flag_row_##name = ::matload::AddFlagRow({#name, commands, value, meaning})

MATLOAD_FLAG(std::string, target, "", "check forms model support history", "T[,T...]|all",
             "the target: sm_90; check, support and history take a comma list or 'all' too (support's and "
             "history's default: all).");
MATLOAD_FLAG(std::string, ptx, "", "check forms model support", "V",
             "the PTX ISA version the module declares (.version); default: the newest matload knows (9.5), and for "
             "support the newest both matload and every compiler speak.");
MATLOAD_FLAG(bool, json, false, "check model runs diff history", "", "write JSON.");
MATLOAD_FLAG(std::string, file, "", "check", "FILE", "read snippets from this file, one per line ('#' lines skipped).");
MATLOAD_FLAG(bool, illegal, false, "forms", "", "print the near-miss illegal forms instead of the legal ones.");
MATLOAD_FLAG(bool, ids, false, "forms", "", "print each form's case ID (as support names it) before its spelling.");
MATLOAD_FLAG(bool, families, false, "forms", "", "print the families' mnemonics, one per line, instead of forms.");
MATLOAD_FLAG(std::string, compiler, "ptxas", "support", "ptxas|nvjitlink|driver",
             "the compiler to hold the model against.");
MATLOAD_FLAG(std::vector<std::string>, ptxas, {}, "support history triage", "P,...",
             "ptxas binaries, comma-separated; support: default $MATLOAD_PTXAS, $CUDA_HOME/bin/ptxas, several are "
             "compared; history, triage: the toolkits, in any order (default: every one scripts/fetch-cuda-tools.sh "
             "keeps in $MATLOAD_CACHE or ~/.cache/matload); triage bisects over them, 'none' for no range.");
MATLOAD_FLAG(int, repeats, 5, "triage", "N", "runs of each build on each GPU and of each toolkit release.");
MATLOAD_FLAG(std::string, common_ptx, "7.8", "history", "V",
             "the PTX ISA version every toolkit that speaks it is swept at besides its newest (7.8: the newest "
             "that CUDA 11.8, the oldest toolkit on PyPI, speaks).");
MATLOAD_FLAG(int, threads, 2, "support history", "N", "targets swept at once.");
MATLOAD_FLAG(std::string, data, "iota8", "model", "iota8|iota16|iota32|random:SEED", "the memory pattern.");
MATLOAD_FLAG(std::vector<std::string>, row_addresses, {}, "model", "A0,...",
             "ldmatrix row byte offsets, one per lane (default 16*lane); --row-addresses works too.");
MATLOAD_FLAG(std::uint64_t, base, 0, "model", "OFFSET", "wmma p's byte offset in the window; tcgen05.ld taddr.");
MATLOAD_FLAG(std::optional<std::int64_t>, stride, std::nullopt, "model", "S",
             "wmma stride in elements (not given: the form's default stride).");
MATLOAD_FLAG(int, device, 0, "conform selftest soak", "N", "the GPU's ordinal.");
MATLOAD_FLAG(std::string, devices, "", "conform soak", "N,...|all",
             "the GPUs to spread the run over, as ordinals (0,1) or all; one run, as on one GPU (default: --device).");
MATLOAD_FLAG(int, variants, 16, "conform", "K", "variants (run-time inputs) per form and compile path.");
MATLOAD_FLAG(std::uint64_t, seed, 1, "conform fuzz soak", "S",
             "the seed every variant replays from; libFuzzer's seed; soak: each round's is drawn from it (default: "
             "drawn afresh from the time, the host and the process, so that each soak runs fresh variants).");
MATLOAD_FLAG(std::string, forms, "", "conform soak", "REGEX",
             "only forms whose label matches this regex (RE2 syntax).");
MATLOAD_FLAG(std::vector<std::string>, paths, {"driver-jit"}, "conform soak", "P,...",
             "compile paths: driver-jit, ptxas-cubin and/or nvjitlink-cubin.");
MATLOAD_FLAG(bool, undefined, false, "conform", "",
             "also run cases the spec leaves undefined (recorded, never compared).");
MATLOAD_FLAG(bool, near_miss, true, "conform", "", "check the near-miss illegal forms through the driver JIT.");
MATLOAD_FLAG(std::string, plant, "none", "conform soak", "BUG",
             "plant a bug to see it caught: wrong-lane, off-by-one-row, register-order, skipped-store, transposed, "
             "misjudging-checker (in the GPU's judge: --judge gpu), hang.");
MATLOAD_FLAG(std::string, judge, "gpu", "conform soak", "gpu|host",
             "who compares the registers with the model: gpu (a form with a plan runs a kernel that compares every "
             "register with the model's plan; the host re-judges each block it calls wrong and a sample, and a "
             "contradiction is an infrastructure failure, exit 4) or host (the model judges every block). "
             "docs/gpu-judge.md.");
MATLOAD_FLAG(int, workers, 8, "conform soak", "W",
             "worker processes at once on the host, dealt over --devices (at least one a GPU), each with a "
             "CUDA context of its own.");
MATLOAD_FLAG(int, retries, 2, "conform soak", "N",
             "re-runs of a failing case's first failing variants, each in fresh workers; attempts that disagree make "
             "it a flake.");
MATLOAD_FLAG(int, first_failures, 16, "conform soak", "K",
             "failing variants a case names, and faults per case pinned to their variants one by one.");
MATLOAD_FLAG(bool, confirm_all_faults, false, "conform", "",
             "run every variant a registry entry predicts to fault, each alone, instead of confirming one per entry "
             "and case.");
MATLOAD_FLAG(int, minutes, 60, "soak", "M",
             "how long the soak runs: no round starts after M minutes, and the round in flight finishes.");
MATLOAD_FLAG(int, rounds, 0, "soak", "N", "at most N rounds, however many minutes are left (0: no bound).");
MATLOAD_FLAG(int, round_variants, 1000000, "soak", "K",
             "variants per form and compile path in the first round, and the least in any round; each round draws "
             "them from a seed of its own.");
MATLOAD_FLAG(int, round_seconds, 60, "soak", "S",
             "size each round after the first to take about S seconds, from the last round's time, so that the "
             "costs every round pays once (worker starts, module loads) stay small beside its GPU work (0: every "
             "round runs --round_variants).");
MATLOAD_FLAG(std::vector<std::string>, targets, std::vector<std::string>({"text", "legality", "reference"}), "fuzz",
             "T,...", "the fuzz targets, from text, legality, reference, cli and device; all run at once.");
MATLOAD_FLAG(int, seconds, 60, "fuzz", "S", "how long each target runs.");
MATLOAD_FLAG(int, jobs, 1, "fuzz", "N", "libFuzzer -fork jobs per target.");
MATLOAD_FLAG(std::string, gpus, "", "fuzz", "0,1", "the GPUs the device target may use (CUDA_VISIBLE_DEVICES).");
MATLOAD_FLAG(std::vector<std::string>, fuzzers, std::vector<std::string>({"build/fuzz/fuzz", "build/fuzz-device/fuzz"}),
             "fuzz", "DIR,...", "directories searched, in order, for NAME_fuzzer binaries.");
MATLOAD_FLAG(std::string, cases, "", "forms support history conform soak", "FILE",
             "a case list file, one case ID or glob per line ('#' lines skipped).");
MATLOAD_FLAG(std::vector<std::string>, include, {}, "forms support history conform soak", "GLOB,...",
             "take only cases whose ID matches one of these globs ('*' matches dots too).");
MATLOAD_FLAG(std::vector<std::string>, exclude, {}, "forms support history conform soak", "GLOB,...",
             "leave out cases whose ID matches one of these globs.");
MATLOAD_FLAG(std::string, db, "", "support history conform fuzz runs diff baseline export merge prune triage soak",
             "DB", "the results store (default $MATLOAD_DB, else matload-results.sqlite).");
MATLOAD_FLAG(std::string, out, "", "support history conform fuzz merge selftest baseline triage soak", "PATH",
             "support, history, conform, fuzz, merge: the run directory, which must not exist or be empty (default "
             "runs/<run ID>); triage: the report's directory, new or empty; selftest: the run directory (default "
             "runs/selftest-<date>); baseline: the file to "
             "write.");
MATLOAD_FLAG(std::string, resume, "", "support conform fuzz", "RUN_ID",
             "take back an interrupted run by its ID, with the options it was started with, read from the store "
             "(a flag given with another value is refused; a shard needs its --shard and --parent) (instead of "
             "--out).");
MATLOAD_FLAG(std::string, baseline, "", "support conform export", "FILE.csv",
             "a baseline of expected failures (matload baseline): a finding it lists is expected, one it does not "
             "is a regression (exit 1); export --junit writes an expected one as skipped.");
MATLOAD_FLAG(bool, strict_baseline, false, "support conform", "",
             "a baseline line that now passes (fixed) is an error too.");
MATLOAD_FLAG(
    bool, no_cache, false, "support history conform soak", "",
    "support, history: compile every form anew; conform: confirm every registry-predicted fault on the GPU again. "
    "The verdict cache in the results store is neither read nor written.");
MATLOAD_FLAG(std::optional<matload::Shard>, shard, std::nullopt, "support conform fuzz", "I/N",
             "run only shard I of N (I from 0, as $SLURM_ARRAY_TASK_ID), as a shard of one parent run that matload "
             "merge joins; support shards by target, conform by case, fuzz by fuzz target.");
MATLOAD_FLAG(std::string, parent, "", "support conform fuzz", "NAME",
             "with --shard: name the parent run, the same for every shard (default: the Slurm job array's "
             "$SLURM_ARRAY_JOB_ID, else a hash of the command and its options).");
MATLOAD_FLAG(std::string, registry, "", "support history conform selftest merge export soak", "FILE",
             "judge by the discrepancy registry in FILE instead of the one built into matload (corpora/"
             "known_discrepancies.json as the build found it); every run records the registry's SHA-256, and merge "
             "joins only shards judged by the registry it is given.");
MATLOAD_FLAG(int, progress_seconds, 10, "support history conform fuzz selftest soak", "S",
             "off a terminal, a progress line every S seconds, for logs (on a terminal one line redrawn in place).");
MATLOAD_FLAG(std::string, junit, "", "export", "FILE.xml", "write the run as JUnit XML to this file.");
MATLOAD_FLAG(std::string, csv, "", "export", "FILE.csv",
             "write the run's results as CSV (case,outcome,duration_s) to this file.");
MATLOAD_FLAG(std::string, html, "", "export diff runs", "FILE.html",
             "write the run (as its report.html), the diff, or for runs the index of every run with its trends, as a "
             "self-contained HTML page to this file.");
MATLOAD_FLAG(int, keep, 0, "prune", "N",
             "the finished runs of each command to keep, newest first (what COMMAND@latest-finished to "
             "@latest-finished~N-1 name), "
             "with every newer run and their shards.");
MATLOAD_FLAG(bool, dry_run, false, "prune", "", "say which runs would be deleted, and delete none.");
MATLOAD_FLAG(bool, remove_dirs, false, "prune", "",
             "also remove each deleted run's directory (its --out), only where the directory's .matload-run "
             "marker names that run; any other directory is left, and said so.");
MATLOAD_FLAG(std::vector<std::string>, from, {}, "merge", "DB,...",
             "the results stores that hold the shard runs, comma-separated (default: --db).");

namespace matload {

namespace {

// CommandText is what the table says of a command besides its flags: its
// positional arguments, what it does and one example, which the README
// test and flags_test parse.
struct CommandText {
  absl::string_view name;
  absl::string_view arguments;  // "'INSTRUCTION'", "RUN_A RUN_B", or ""
  absl::string_view description;
  absl::string_view example;
};

const CommandText kCommandTexts[] = {
    {"check", "['SNIPPET'...]", "the model's verdict: legal, or illegal with every reason",
     "matload check --target sm_90 'ldmatrix.sync.aligned.m8n8.x4.trans.b16 {a,b,c,d}, [p];'"},
    {"forms", "",
     "every legal (or near-miss illegal) form, one canonical spelling per line, with --ids its case ID first",
     "matload forms --target sm_90 --ids --include 'sm_90.ldmatrix.*.x4.*'"},
    {"model", "'INSTRUCTION'", "the reference model's registers for every lane, with each element's provenance",
     "matload model --target sm_100a --data iota32 'tcgen05.ld.sync.aligned.32x32b.x2.b32 {a, b}, [t];'"},
    {"devices", "", "the GPUs the CUDA driver lists, or why there are none (exit 3)", "matload devices"},
    {"support", "", "the per-target support matrix, model against compiler, as a run in the results store",
     "matload support --target sm_90,sm_100a --compiler ptxas --out runs/support-tonight"},
    {"history", "[CASE_ID]",
     "the support history across toolkits: each ptxas swept at its newest PTX version and at --common_ptx; for "
     "each form class the first and last toolkit that accepts it, each disagreement's range, what each release "
     "changed and every misdiagnosis, as a run in the results store (exit 1 when no registry entry explains one). "
     "With CASE_ID: that case's outcome in every run of the store, when it last passed and first failed",
     "matload history --ptxas ~/.cache/matload/cuda-12.9.86/ptxas,~/.cache/matload/cuda-13.5.37/ptxas"},
    {"conform", "",
     "every legal form on the GPU, every register of every lane against the model, as a run in the results store "
     "(exit 1 on findings)",
     "matload conform --device 0 --variants 16 --forms '^ldmatrix'"},
    {"triage", "BUNDLE_DIR|RUN:CASE_ID",
     "from a finding to a bug report. A conform finding (its bundle, or RUN:CASE_ID): replay it on every GPU, "
     "through the driver JIT, ptxas at -O3 and -O0 and nvJitLink with each cubin's SASS, bisect the toolkit "
     "releases, reduce it, blame a stage. A support case (RUN:CASE_ID): its verdict and message on every ptxas "
     "release, and its registry entry or a draft of one. Writes triage.md, triage.html and triage.json",
     "matload triage runs/conform-tonight/bundles/001-wmma-load-unexpected-fault --out triage-001"},
    {"soak", "",
     "a fleet's screen: for --minutes, every GPU named runs fresh variants of every legal form of its target, round "
     "after round (each a conform run with a seed of its own, judged on the GPU), as one run in the results store "
     "with the GPU judge's counts per GPU and SM (exit 1 on findings, 4 on infrastructure trouble)",
     "matload soak --minutes 60 --devices all"},
    {"selftest", "", "plant six bugs under each judge and show each is caught", "matload selftest --device 0"},
    {"fuzz", "", "a libFuzzer campaign: progress, findings by signature, coverage growth (exit 1 on findings)",
     "matload fuzz --targets text,legality,reference --seconds 3600 --jobs 2"},
    {"runs", "",
     "every run in the results store, oldest first; --html writes an index of them across nights: a trend per command, "
     "GPU, driver and toolkits, and each failing case's first failing run",
     "matload runs --html runs.html"},
    {"diff", "RUN_A RUN_B",
     "per case ID, what B broke, fixed, changed, added and removed against A (exit 1 when B regressed); a run is its "
     "ID, COMMAND@latest[~N] (the newest, whatever its status) or COMMAND@latest-finished[~N]; a run that did not "
     "finish is exit 2",
     "matload diff conform@latest-finished~1 conform@latest"},
    {"baseline", "RUN",
     "the run's expected failures (case-id,outcome), for --baseline; a run that did not finish is exit 2",
     "matload baseline conform@latest --out baseline.csv"},
    {"export", "RUN",
     "the run as JUnit XML (one testcase per case ID, a support sweep's per qualifier set), as CSV and as its HTML "
     "report; a run that did not finish is exported, then exit 2",
     "matload export conform@latest --junit junit.xml --csv results.csv"},
    {"prune", "",
     "delete the runs a nightly store no longer needs, with their cases: all but the --keep newest finished runs of "
     "each command, the runs since and their shards (the file shrinks; --remove_dirs removes their run directories)",
     "matload prune --keep 30 --dry_run"},
    {"merge", "RUN|PARENT...",
     "join every shard of a sharded run (--shard), from one store or several, into one run in --db, with the reports "
     "the unsharded command writes; exits as that command would",
     "matload merge support-nightly --from shards/0.sqlite,shards/1.sqlite --out runs/support-nightly"},
};

// Takes says whether `row`'s flag is one of `command`'s.
bool Takes(const FlagRow& row, absl::string_view command) {
  const std::vector<absl::string_view> commands = absl::StrSplit(row.commands, ' ');
  return std::find(commands.begin(), commands.end(), command) != commands.end();
}

// SynopsisWord is how a synopsis writes `row`'s flag: "[--seed S]", "[--json]"
// or, for a boolean that is on by default, "[--nonear_miss]".
std::string SynopsisWord(const FlagRow& row) {
  if (!row.value.empty()) return absl::StrCat("[--", row.name, " ", row.value, "]");
  const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(row.name);
  return absl::StrCat("[--", flag != nullptr && flag->DefaultValue() == "true" ? "no" : "", row.name, "]");
}

// Synopsis is `text`'s command, its flags and its arguments, wrapped at
// kHelpColumns with continuation lines indented under the first flag.
std::string Synopsis(const CommandText& text, const std::vector<const FlagRow*>& rows) {
  std::vector<std::string> words;
  for (const FlagRow* row : rows) words.push_back(SynopsisWord(*row));
  if (!text.arguments.empty()) words.push_back(std::string(text.arguments));
  std::string synopsis(text.name);
  const std::string indent(text.name.size() + 1, ' ');
  size_t line_start = 0;
  for (const std::string& word : words) {
    if (synopsis.size() - line_start + 1 + word.size() > kHelpColumns - 10) {
      line_start = synopsis.size() + 1;
      absl::StrAppend(&synopsis, "\n", indent, word);
    } else {
      absl::StrAppend(&synopsis, " ", word);
    }
  }
  return synopsis;
}

}  // namespace

const std::vector<FlagRow>& MatloadFlags() { return FlagTable(); }

const std::vector<CommandSpec>& MatloadCommands() {
  static const auto* const kCommands = [] {
    auto* commands = new std::vector<CommandSpec>();
    // The synopses outlive every CommandSpec, which views them.
    static auto* const synopses = new std::vector<std::string>();
    synopses->reserve(std::size(kCommandTexts));
    for (const CommandText& text : kCommandTexts) {
      std::vector<const FlagRow*> rows;
      std::vector<absl::string_view> flags;
      for (const FlagRow& row : MatloadFlags()) {
        if (!Takes(row, text.name)) continue;
        rows.push_back(&row);
        flags.push_back(row.name);
      }
      synopses->push_back(Synopsis(text, rows));
      commands->push_back({text.name, synopses->back(), text.description, std::move(flags), text.example});
    }
    return commands;
  }();
  return *kCommands;
}

std::string EnvironmentHelp(absl::string_view command) {
  std::string help;
  for (const EnvironmentVariable& variable : EnvironmentVariables()) {
    if (!command.empty() && !ReadBy(variable, command)) continue;
    absl::StrAppend(&help, "  $", variable.name, "\n",
                    Wrap(absl::StrCat(variable.meaning, " (unset: ", variable.unset, ")",
                                      command.empty() ? absl::StrCat("; read by ", variable.readers) : ""),
                         6),
                    "\n");
  }
  return help.empty() ? "" : absl::StrCat("\nenvironment:\n", help);
}

std::string MatloadHelp(const CommandLine& line) {
  if (line.command == nullptr) return absl::StrCat(Usage(MatloadCommands()), EnvironmentHelp(""));
  return absl::StrCat(CommandHelp(*line.command), EnvironmentHelp(line.command->name));
}

absl::StatusOr<CaseFilter> FilterFromFlags(std::string& text) {
  const std::string cases = absl::GetFlag(FLAGS_cases);
  const std::vector<std::string> include = absl::GetFlag(FLAGS_include);
  const std::vector<std::string> exclude = absl::GetFlag(FLAGS_exclude);
  absl::StatusOr<CaseFilter> filter = CaseFilter::Make(cases, include, exclude);
  if (!filter.ok()) return filter.status();
  // The case list's contents, not only its name, decide the run's cases.
  const absl::StatusOr<std::string> contents = cases.empty() ? std::string() : ReadFileBytes(cases);
  if (!contents.ok()) return absl::FailedPreconditionError(absl::StrCat("--cases: ", contents.status().message()));
  text = absl::StrCat("cases=", cases, cases.empty() ? "" : absl::StrFormat("#%08x", StableHash(*contents)),
                      " include=", absl::StrJoin(include, ","), " exclude=", absl::StrJoin(exclude, ","));
  return filter;
}

absl::StatusOr<std::string> ParentName() {
  const std::string parent = absl::GetFlag(FLAGS_parent);
  if (!absl::GetFlag(FLAGS_shard).has_value()) {
    if (parent.empty()) return "";
    return absl::InvalidArgumentError("--parent names the run whose shards --shard makes; give --shard I/N too");
  }
  if (!parent.empty()) return parent;
  const std::optional<std::string> array_job = Environment("SLURM_ARRAY_JOB_ID");
  return array_job.has_value() ? absl::StrCat("slurm", *array_job) : "";
}

const std::vector<FlagRange>& MatloadFlagRanges() {
  constexpr std::int64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
  static const auto* const kRanges = new std::vector<FlagRange>{
      {"threads", 1, 64, "one thread per target swept; there are fewer targets"},
      {"variants", 1, kMaxConformVariants, "a variant's index, half of its replay key, is a 32-bit int"},
      {"first_failures", 1, 4096, "each is pinned by splitting launches, at a worker's start-up apiece"},
      {"jobs", 1, 256, "libFuzzer processes per target"},
      {"seconds", 1, 31'536'000, "at most a year"},
      {"minutes", 1, 525'600, "at most a year"},
      {"rounds", 0, 1'000'000, "0 for no bound"},
      {"round_variants", 1, kMaxConformVariants, "a variant's index, half of its replay key, is a 32-bit int"},
      {"round_seconds", 0, 86'400, "at most a day a round"},
      {"workers", 1, 256, "worker processes, each with a CUDA context of its own"},
      {"keep", 1, 1'000'000, "at least the newest finished run of each command stays"},
      {"retries", 0, 10, "re-runs of a failing case"},
      {"device", 0, kMaxDeviceOrdinal, "a CUDA device ordinal"},
      {"stride", 0, kMax32, "wmma's stride operand is a 32-bit register"},
      {"base", 0, kMax32, "a .shared window offset and tcgen05.ld's taddr are 32 bits"},
      {"row_addresses", 0, kMax32, "each is a byte offset in the 32-bit .shared window"},
  };
  return *kRanges;
}

}  // namespace matload
