// Environment: every environment variable matload reads, in one table with
// who reads it, what it means and what holds when it is unset; the help
// (`matload --help`, `matload COMMAND --help`) prints the table, and
// matload reads a variable only through Environment, which refuses a name
// the table lacks. (The test doubles under harness/testing/ read their own
// variables, which no user sets.)
#ifndef MATLOAD_HARNESS_PLATFORM_ENVIRONMENT_H_
#define MATLOAD_HARNESS_PLATFORM_ENVIRONMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace matload {

// EnvironmentVariable is one row of the table. `readers` names the matload
// commands that read it (space-separated; "fuzz" includes the fuzz targets
// it starts), or "all".
struct EnvironmentVariable {
  absl::string_view name;
  absl::string_view readers;
  absl::string_view meaning;
  absl::string_view unset;  // what holds when it is unset or empty
};

// EnvironmentVariables is the table, in the order help prints it.
const std::vector<EnvironmentVariable>& EnvironmentVariables();

// Environment is variable `name`'s value, or nullopt when it is unset or
// empty. `name` must be in the table: reading another is a programming
// error, and aborts with a message that names it.
std::optional<std::string> Environment(absl::string_view name);

// EnvironmentOr is Environment(name), or `fallback` when that is nullopt.
std::string EnvironmentOr(absl::string_view name, absl::string_view fallback);

// TemporaryDirectory is where temporary files go: $TMPDIR, or /tmp.
std::string TemporaryDirectory();

// ReadBy says whether `variable` is read by `command` (EnvironmentVariable::readers).
bool ReadBy(const EnvironmentVariable& variable, absl::string_view command);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_ENVIRONMENT_H_
