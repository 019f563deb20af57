// matload's flags, the commands that accept each of them, and the range of
// every numeric one: one table that the command-line parser
// (harness/cli/command_line.h), the help and the CLI fuzz target read.
#ifndef MATLOAD_HARNESS_CLI_FLAGS_H_
#define MATLOAD_HARNESS_CLI_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "harness/cli/command_line.h"
#include "harness/runs/case_filter.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, ptx);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(std::string, file);
ABSL_DECLARE_FLAG(bool, illegal);
ABSL_DECLARE_FLAG(std::string, compiler);
ABSL_DECLARE_FLAG(std::vector<std::string>, ptxas);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(int, threads);
ABSL_DECLARE_FLAG(std::string, data);
ABSL_DECLARE_FLAG(std::vector<std::string>, row_addresses);
ABSL_DECLARE_FLAG(std::uint64_t, base);
ABSL_DECLARE_FLAG(std::optional<std::int64_t>, stride);
ABSL_DECLARE_FLAG(int, device);
ABSL_DECLARE_FLAG(int, variants);
ABSL_DECLARE_FLAG(std::uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, forms);
ABSL_DECLARE_FLAG(std::vector<std::string>, paths);
ABSL_DECLARE_FLAG(bool, undefined);
ABSL_DECLARE_FLAG(bool, near_miss);
ABSL_DECLARE_FLAG(std::string, plant);
ABSL_DECLARE_FLAG(int, workers);
ABSL_DECLARE_FLAG(std::vector<std::string>, targets);
ABSL_DECLARE_FLAG(int, seconds);
ABSL_DECLARE_FLAG(int, jobs);
ABSL_DECLARE_FLAG(std::string, gpus);
ABSL_DECLARE_FLAG(std::vector<std::string>, fuzzers);
ABSL_DECLARE_FLAG(bool, ids);
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

namespace matload {

// kMaxConformVariants is the most variants per form `matload conform`
// takes: it holds every variant of every form in memory
// (harness/conformance_run.cc), and 100,000 were measured to fit in 65 GB
// on a 128 GB GPU host.
inline constexpr int kMaxConformVariants = 100000;

// MatloadCommands lists every command with the flags it accepts.
const std::vector<CommandSpec>& MatloadCommands();

// FilterFromFlags reads --cases, --include and --exclude into a case
// filter, and `text` into the flags as given (for a run's options).
absl::StatusOr<CaseFilter> FilterFromFlags(std::string& text);

// MatloadFlagRanges bounds every numeric flag to values that can work and
// do not wrap.
const std::vector<FlagRange>& MatloadFlagRanges();

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_FLAGS_H_
