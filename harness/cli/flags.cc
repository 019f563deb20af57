#include "harness/cli/flags.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/runs/stable_hash.h"

ABSL_FLAG(std::string, target, "", "Target(s): sm_90, a comma list, or 'all' (check only).");
ABSL_FLAG(std::string, ptx, "9.0", "PTX ISA version the module declares (.version).");
ABSL_FLAG(bool, json, false, "check, model, runs, diff: write JSON.");
ABSL_FLAG(std::string, file, "", "check: read snippets from this file, one per line ('#' lines skipped).");
ABSL_FLAG(bool, illegal, false, "forms: print the near-miss illegal forms instead of the legal ones.");
ABSL_FLAG(std::string, compiler, "ptxas", "support: the compiler to hold the model against: ptxas, nvjitlink or driver.");
ABSL_FLAG(std::vector<std::string>, ptxas, {},
          "support: ptxas binaries, comma-separated (default $MATLOAD_PTXAS, $CUDA_HOME/bin/ptxas); several are "
          "compared.");
ABSL_FLAG(std::string, out, "",
          "support, conform, fuzz, merge: the run directory, which must not exist or be empty (default runs/<run ID>); "
          "selftest: the run directory (default runs/selftest-<date>); baseline: the file to write.");
ABSL_FLAG(int, threads, 2, "support: targets swept at once.");
ABSL_FLAG(std::string, data, "iota8", "model: the memory pattern: iota8, iota16, iota32 or random:SEED.");
ABSL_FLAG(std::vector<std::string>, row_addresses, {},
          "model: ldmatrix row byte offsets, one per lane (default 16*lane); --row-addresses works too.");
ABSL_FLAG(std::uint64_t, base, 0, "model: wmma p's byte offset in the window; tcgen05.ld taddr.");
ABSL_FLAG(std::optional<std::int64_t>, stride, std::nullopt,
          "model: wmma stride in elements (not given: the form's default stride).");
ABSL_FLAG(int, device, 0, "conform, selftest: the GPU's ordinal.");
ABSL_FLAG(std::string, devices, "",
          "conform: the GPUs to spread the run over, as ordinals (0,1) or all; one run, as on one GPU (default: "
          "--device).");
ABSL_FLAG(int, first_failures, 16,
          "conform: failing variants a case names, and faults per case pinned to their variants one by one.");
ABSL_FLAG(bool, confirm_all_faults, false,
          "conform: run every variant a registry entry predicts to fault, each alone, instead of confirming one per "
          "entry and case.");
ABSL_FLAG(int, variants, 16, "conform: variants (run-time inputs) per form and compile path.");
ABSL_FLAG(std::uint64_t, seed, 1, "conform, fuzz: the seed every variant replays from; libFuzzer's seed.");
ABSL_FLAG(std::string, forms, "", "conform: only forms whose label matches this ECMAScript regex.");
ABSL_FLAG(std::vector<std::string>, paths, {"driver-jit"},
          "conform: compile paths: driver-jit, ptxas-cubin and/or nvjitlink-cubin.");
ABSL_FLAG(bool, undefined, false, "conform: also run cases the spec leaves undefined (recorded, never compared).");
ABSL_FLAG(bool, near_miss, true, "conform: check the near-miss illegal forms through the driver JIT.");
ABSL_FLAG(std::string, plant, "none", "conform: plant a bug to see it caught (wrong-lane, transposed, ...).");
ABSL_FLAG(int, workers, 8, "conform: worker processes launching at once, each with a CUDA context of its own.");
ABSL_FLAG(std::vector<std::string>, targets, std::vector<std::string>({"text", "legality", "reference"}),
          "fuzz: the targets, from text, legality, reference, cli and device; all run at once.");
ABSL_FLAG(int, seconds, 60, "fuzz: how long each target runs.");
ABSL_FLAG(int, jobs, 1, "fuzz: libFuzzer -fork jobs per target.");
ABSL_FLAG(std::string, gpus, "", "fuzz: the GPUs the device target may use (CUDA_VISIBLE_DEVICES), e.g. 0 or 0,1.");
ABSL_FLAG(bool, ids, false, "forms: print each form's case ID (as support names it) before its spelling.");
ABSL_FLAG(std::string, cases, "",
          "forms, support, conform: a case list file, one case ID or glob per line ('#' lines skipped).");
ABSL_FLAG(std::vector<std::string>, include, {},
          "forms, support, conform: take only cases whose ID matches one of these globs ('*' matches dots too).");
ABSL_FLAG(std::vector<std::string>, exclude, {}, "forms, support, conform: leave out cases whose ID matches one of these globs.");
ABSL_FLAG(std::string, db, "",
          "support, conform, fuzz, runs, diff, baseline, export, merge: the results store (default $MATLOAD_DB, else "
          "matload-results.sqlite).");
ABSL_FLAG(std::string, resume, "",
          "support, conform, fuzz: take back an interrupted run by its ID, with the options it was started with.");
ABSL_FLAG(std::string, baseline, "",
          "support, conform: a baseline of expected failures (matload baseline): a finding it lists is expected, one "
          "it does not is a regression (exit 1).");
ABSL_FLAG(bool, strict_baseline, false, "support, conform: a baseline line that now passes (fixed) is an error too.");
ABSL_FLAG(bool, no_cache, false,
          "support: compile every form anew: the verdict cache in the results store is neither read nor written.");
ABSL_FLAG(int, retries, 2,
          "conform: re-runs of a failing case's first failing variants, each in fresh workers; attempts that disagree "
          "make it a flake.");
ABSL_FLAG(std::string, junit, "", "export: write the run as JUnit XML to this file.");
ABSL_FLAG(std::string, csv, "", "export: write the run's results as CSV (case,outcome,duration_s) to this file.");
ABSL_FLAG(std::string, html, "",
          "export, diff: write the run (as its report.html) or the diff as a self-contained HTML page to this file.");
ABSL_FLAG(std::optional<matload::Shard>, shard, std::nullopt,
          "support, conform, fuzz: run only shard I of N (I from 0, as $SLURM_ARRAY_TASK_ID), as a shard of one "
          "parent run that matload merge joins; support shards by target, conform by case, fuzz by fuzz target.");
ABSL_FLAG(std::string, parent, "",
          "support, conform, fuzz with --shard: name the parent run, the same for every shard (default: the Slurm job "
          "array's $SLURM_ARRAY_JOB_ID, else a hash of the command and its options).");
ABSL_FLAG(std::vector<std::string>, from, {},
          "merge: the results stores that hold the shard runs, comma-separated (default: --db).");
ABSL_FLAG(std::vector<std::string>, fuzzers, std::vector<std::string>({"build/fuzz/fuzz", "build/fuzz-device/fuzz"}),
          "fuzz: directories searched, in order, for NAME_fuzzer binaries.");

namespace matload {

const std::vector<CommandSpec>& MatloadCommands() {
  static const auto* const kCommands = new std::vector<CommandSpec>{
      {"check", "check --target T[,T...|all] [--ptx V] [--json] (--file F | 'SNIPPET')",
       "the model's verdict: legal, or illegal with every reason", {"target", "ptx", "json", "file"}},
      {"forms", "forms --target T [--ptx V] [--illegal] [--ids] [--cases FILE] [--include GLOB,...] [--exclude GLOB,...]",
       "every legal (or near-miss illegal) form, one canonical spelling per line, with --ids its case ID first",
       {"target", "ptx", "illegal", "ids", "cases", "include", "exclude"}},
      {"model",
       "model --target T [--ptx V] [--data iota8|iota16|iota32|random:SEED] [--row-addresses a0,...]\n"
       "      [--base OFFSET] [--stride S] [--json] 'INSTRUCTION'",
       "the reference model's registers for every lane, with each element's provenance",
       {"target", "ptx", "data", "row_addresses", "base", "stride", "json"}},
      {"devices", "devices", "the GPUs the CUDA driver lists, or why there are none (exit 3)", {}},
      {"support",
       "support [--target T,...|all] [--ptx V] [--compiler ptxas|nvjitlink|driver] [--ptxas P,...] [--threads N]\n"
       "        [--cases FILE] [--include GLOB,...] [--exclude GLOB,...] [--db DB] [--out DIR | --resume RUN_ID]\n"
       "        [--baseline FILE.csv [--strict-baseline]] [--shard I/N [--parent NAME]] [--no-cache]",
       "the per-target support matrix, model against compiler, as a run in the results store",
       {"target", "ptx", "compiler", "ptxas", "out", "threads", "cases", "include", "exclude", "db", "resume",
        "baseline", "strict_baseline", "shard", "parent", "no_cache"}},
      {"conform",
       "conform [--device N | --devices N,...|all] [--variants K] [--seed S] [--forms REGEX]\n"
       "        [--paths driver-jit,ptxas-cubin,nvjitlink-cubin]\n"
       "        [--undefined] [--near_miss=false] [--plant BUG] [--workers W] [--retries N]\n"
       "        [--first_failures K] [--confirm_all_faults]\n"
       "        [--cases FILE] [--include GLOB,...] [--exclude GLOB,...] [--db DB] [--out DIR | --resume RUN_ID]\n"
       "        [--baseline FILE.csv [--strict-baseline]] [--shard I/N [--parent NAME]]",
       "every legal form on the GPU, every register of every lane against the model, as a run in the results "
       "store (exit 1 on findings)",
       {"device", "devices", "variants", "seed", "forms", "paths", "undefined", "near_miss", "plant", "workers", "out",
        "cases", "include", "exclude", "db", "resume", "baseline", "strict_baseline", "retries", "first_failures",
        "confirm_all_faults", "shard", "parent"}},
      {"selftest", "selftest [--device N] [--out DIR]", "plant five bugs and show each is caught and bundled",
       {"device", "out"}},
      {"fuzz",
       "fuzz [--targets text,legality,reference,cli,device] [--seconds S] [--jobs N] [--gpus 0,1] [--seed S]\n"
       "     [--fuzzers DIR,...] [--db DB] [--out DIR | --resume RUN_ID] [--shard I/N [--parent NAME]]",
       "a libFuzzer campaign: progress, findings by signature, coverage growth (exit 1 on findings)",
       {"targets", "seconds", "jobs", "gpus", "seed", "fuzzers", "out", "db", "resume", "shard", "parent"}},
      {"runs", "runs [--db DB] [--json]", "every run in the results store, oldest first", {"db", "json"}},
      {"diff", "diff RUN_A RUN_B [--db DB] [--json] [--html FILE.html]",
       "per case ID, what B broke, fixed, changed, added and removed against A (exit 1 when B regressed); a run is "
       "its ID or COMMAND@latest[~N]",
       {"db", "json", "html"}},
      {"baseline", "baseline RUN --out FILE.csv [--db DB]",
       "the run's expected failures (case-id,outcome), for --baseline", {"db", "out"}},
      {"export", "export RUN [--junit FILE.xml] [--csv FILE.csv] [--html FILE.html] [--db DB]",
       "the run as JUnit XML (one testcase per case ID), as CSV and as its HTML report", {"db", "junit", "csv", "html"}},
      {"merge", "merge RUN|PARENT... [--from DB,...] [--db DB] [--out DIR]",
       "join every shard of a sharded run (--shard), from one store or several, into one run in --db, with the "
       "reports the unsharded command writes; exits as that command would",
       {"from", "db", "out"}},
  };
  return *kCommands;
}

absl::StatusOr<CaseFilter> FilterFromFlags(std::string& text) {
  const std::string cases = absl::GetFlag(FLAGS_cases);
  const std::vector<std::string> include = absl::GetFlag(FLAGS_include);
  const std::vector<std::string> exclude = absl::GetFlag(FLAGS_exclude);
  // The case list's contents, not only its name, decide the run's cases.
  std::ifstream list(cases, std::ios::binary);
  const std::string contents(std::istreambuf_iterator<char>(list), {});
  text = absl::StrCat("cases=", cases, cases.empty() ? "" : absl::StrFormat("#%08x", StableHash(contents)),
                      " include=", absl::StrJoin(include, ","), " exclude=", absl::StrJoin(exclude, ","));
  return CaseFilter::Make(cases, include, exclude);
}

absl::StatusOr<std::string> ParentName() {
  const std::string parent = absl::GetFlag(FLAGS_parent);
  if (!absl::GetFlag(FLAGS_shard).has_value()) {
    if (parent.empty()) return "";
    return absl::InvalidArgumentError("--parent names the run whose shards --shard makes; give --shard I/N too");
  }
  if (!parent.empty()) return parent;
  const char* array_job = std::getenv("SLURM_ARRAY_JOB_ID");
  return array_job != nullptr && *array_job != '\0' ? absl::StrCat("slurm", array_job) : "";
}

const std::vector<FlagRange>& MatloadFlagRanges() {
  constexpr std::int64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
  static const auto* const kRanges = new std::vector<FlagRange>{
      {"threads", 1, 64, "one thread per target swept; there are fewer targets"},
      {"variants", 1, kMaxConformVariants, "a variant's index, half of its replay key, is a 32-bit int"},
      {"first_failures", 1, 4096, "each is pinned by splitting launches, at a worker's start-up apiece"},
      {"jobs", 1, 256, "libFuzzer processes per target"},
      {"seconds", 1, 31'536'000, "at most a year"},
      {"workers", 1, 256, "worker processes, each with a CUDA context of its own"},
      {"retries", 0, 10, "re-runs of a failing case"},
      {"device", 0, kMaxDeviceOrdinal, "a CUDA device ordinal"},
      {"stride", 0, kMax32, "wmma's stride operand is a 32-bit register"},
      {"base", 0, kMax32, "a .shared window offset and tcgen05.ld's taddr are 32 bits"},
      {"row_addresses", 0, kMax32, "each is a byte offset in the 32-bit .shared window"},
  };
  return *kRanges;
}

}  // namespace matload
