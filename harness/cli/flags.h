// matload's flags in one table: each flag's name, default, the commands
// that take it, its value's name and its meaning (flags.cc, MATLOAD_FLAG),
// and the range of every numeric one. The command-line parser
// (harness/cli/command_line.h), the help, the README examples test and the
// CLI fuzz target all read it; the environment variables' table is
// harness/platform/environment.h.
#ifndef MATLOAD_HARNESS_CLI_FLAGS_H_
#define MATLOAD_HARNESS_CLI_FLAGS_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "harness/cli/command_line.h"
#include "harness/runs/case_filter.h"
#include "harness/runs/shard.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, ptx);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(std::string, file);
ABSL_DECLARE_FLAG(bool, illegal);
ABSL_DECLARE_FLAG(std::string, compiler);
ABSL_DECLARE_FLAG(std::vector<std::string>, ptxas);
ABSL_DECLARE_FLAG(std::string, common_ptx);
ABSL_DECLARE_FLAG(int, repeats);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(int, threads);
ABSL_DECLARE_FLAG(std::string, data);
ABSL_DECLARE_FLAG(std::vector<std::string>, row_addresses);
ABSL_DECLARE_FLAG(std::uint64_t, base);
ABSL_DECLARE_FLAG(std::optional<std::int64_t>, stride);
ABSL_DECLARE_FLAG(int, device);
ABSL_DECLARE_FLAG(std::string, devices);
ABSL_DECLARE_FLAG(int, first_failures);
ABSL_DECLARE_FLAG(bool, confirm_all_faults);
ABSL_DECLARE_FLAG(int, variants);
ABSL_DECLARE_FLAG(std::uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, forms);
ABSL_DECLARE_FLAG(std::vector<std::string>, paths);
ABSL_DECLARE_FLAG(bool, undefined);
ABSL_DECLARE_FLAG(bool, near_miss);
ABSL_DECLARE_FLAG(std::string, plant);
ABSL_DECLARE_FLAG(std::string, judge);
ABSL_DECLARE_FLAG(int, workers);
ABSL_DECLARE_FLAG(std::vector<std::string>, targets);
ABSL_DECLARE_FLAG(int, seconds);
ABSL_DECLARE_FLAG(int, minutes);
ABSL_DECLARE_FLAG(int, rounds);
ABSL_DECLARE_FLAG(int, round_variants);
ABSL_DECLARE_FLAG(int, round_seconds);
ABSL_DECLARE_FLAG(int, jobs);
ABSL_DECLARE_FLAG(std::string, gpus);
ABSL_DECLARE_FLAG(std::vector<std::string>, fuzzers);
ABSL_DECLARE_FLAG(bool, ids);
ABSL_DECLARE_FLAG(bool, families);
ABSL_DECLARE_FLAG(std::string, cases);
ABSL_DECLARE_FLAG(std::vector<std::string>, include);
ABSL_DECLARE_FLAG(std::vector<std::string>, exclude);
ABSL_DECLARE_FLAG(std::string, db);
ABSL_DECLARE_FLAG(std::string, resume);
ABSL_DECLARE_FLAG(std::string, baseline);
ABSL_DECLARE_FLAG(bool, strict_baseline);
ABSL_DECLARE_FLAG(bool, no_cache);
ABSL_DECLARE_FLAG(int, retries);
ABSL_DECLARE_FLAG(std::string, junit);
ABSL_DECLARE_FLAG(std::string, csv);
ABSL_DECLARE_FLAG(int, keep);
ABSL_DECLARE_FLAG(bool, dry_run);
ABSL_DECLARE_FLAG(bool, remove_dirs);
ABSL_DECLARE_FLAG(std::string, html);
ABSL_DECLARE_FLAG(std::optional<matload::Shard>, shard);
ABSL_DECLARE_FLAG(std::string, parent);
ABSL_DECLARE_FLAG(std::vector<std::string>, from);
ABSL_DECLARE_FLAG(int, progress_seconds);
ABSL_DECLARE_FLAG(std::string, registry);

namespace matload {

// kMaxConformVariants is the most variants per form `matload conform`
// takes: a variant's index, with the seed its replay key, is an int
// (harness/families/test_program.h). Memory does not grow with the count: workers
// stream the variants (harness/conform/conform_case_work.h).
inline constexpr int kMaxConformVariants = std::numeric_limits<int>::max();

// kMaxDeviceOrdinal is the largest GPU ordinal --device and --devices take.
inline constexpr int kMaxDeviceOrdinal = 1023;

// FlagRow is one flag of the table: its Abseil name, the commands that take
// it (space-separated), its value's name in a synopsis ("" for a boolean)
// and what it means (also the flag's Abseil help). Its default is the
// flag's own (absl::CommandLineFlag::DefaultValue).
struct FlagRow {
  absl::string_view name;
  absl::string_view commands;
  absl::string_view value;
  absl::string_view meaning;
};

// MatloadFlags is the flag table, in the order help lists flags.
const std::vector<FlagRow>& MatloadFlags();

// MatloadCommands lists every command with the flags the table gives it,
// a synopsis made from them, and an example.
const std::vector<CommandSpec>& MatloadCommands();

// EnvironmentHelp is the environment variables' table
// (harness/platform/environment.h) as help: those `command` reads, or with an empty
// `command` every one with its readers; "" when there are none.
std::string EnvironmentHelp(absl::string_view command);

// MatloadHelp is what --help prints for `line`: matload's usage and every
// environment variable, or one command's help and the variables it reads.
std::string MatloadHelp(const CommandLine& line);

// FilterFromFlags reads --cases, --include and --exclude into a case
// filter, and `text` into the flags as given (for a run's options).
absl::StatusOr<CaseFilter> FilterFromFlags(std::string& text);

// ParentName is the name the user gives a sharded run's parent (ShardParent
// in harness/runs/shard.h): --parent, else "slurm<ID>" for the Slurm job
// array $SLURM_ARRAY_JOB_ID, else empty (the parent is then derived from
// the run's options). --parent without --shard is kInvalidArgument.
absl::StatusOr<std::string> ParentName();

// MatloadFlagRanges bounds every numeric flag to values that can work and
// do not wrap.
const std::vector<FlagRange>& MatloadFlagRanges();

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_FLAGS_H_
