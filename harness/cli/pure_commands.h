// The commands that only read their flags (and --file) and write to a
// stream: check, forms and model. matload's main runs them on std::cout and
// std::cerr; the CLI fuzz target (fuzz/cli_fuzzer.cc) on string streams.
#ifndef MATLOAD_HARNESS_CLI_PURE_COMMANDS_H_
#define MATLOAD_HARNESS_CLI_PURE_COMMANDS_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace matload {

// PureCommand runs one command on its positional arguments and the flags
// already set (harness/cli/flags.h), writes its result to `out` and any
// error, as "matload: ...", to `err`, and returns the exit status
// (harness/platform/exit_status.h).
using PureCommand = int (*)(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunCheckCommand is `matload check`: the verdict on a snippet or a file.
int RunCheckCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunFormsCommand is `matload forms`: every legal or near-miss form.
int RunFormsCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// RunModelCommand is `matload model`: one execution of the reference model.
int RunModelCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// FindPureCommand is the pure command named `name`, or nullptr.
PureCommand FindPureCommand(absl::string_view name);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_PURE_COMMANDS_H_
