// CommandLine: matload's argv read into a command, its arguments and its
// flags, without ever exiting. absl::ParseCommandLine exits on an unknown
// flag (status 1) and on --help (status 1), and accepts any command's flags
// for every command; this walks argv itself and sets each flag through
// Abseil's reflection API (absl/flags/reflection.h), so that every problem
// is a status the caller turns into exit status 2 (harness/platform/exit_status.h).
#ifndef MATLOAD_HARNESS_CLI_COMMAND_LINE_H_
#define MATLOAD_HARNESS_CLI_COMMAND_LINE_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// CommandSpec is one command: its name, its synopsis and description for
// help, the only flags it accepts (Abseil flag names, with '_'), and an
// example command line for help ("" for none).
struct CommandSpec {
  absl::string_view name;
  absl::string_view synopsis;  // "check [--target T] ...", may span lines
  absl::string_view description;
  std::vector<absl::string_view> flags;
  absl::string_view example;
};

// FlagRange is what a numeric flag accepts: every value of a list flag,
// or the value of any other, must be an integer in [min, max]. `why` says
// why the bounds are what they are, for the error message.
struct FlagRange {
  absl::string_view flag;
  std::int64_t min = 0;
  std::int64_t max = 0;
  absl::string_view why;
};

// CommandLine is what argv asked for: a command and its positional
// arguments, with its flags set; or help or the version, to print and
// exit 0.
struct CommandLine {
  const CommandSpec* command = nullptr;  // null only with `help` or `version` and no command
  std::vector<std::string> arguments;
  // given: the flags the words set, by Abseil name (--noX sets X), so that
  // a resumed run can take the others from the run it resumes.
  std::set<std::string> given;
  bool help = false;
  bool version = false;
};

// ParseCommandLine reads `words` (argv without the program name):
// COMMAND first, then flags and arguments in any order. A flag is --name,
// -name, --name=value or --name value, with '-' or '_' in its name;
// --name / --noname set a boolean; after "--" every word is an argument.
// It sets each flag it reads, and fails with kInvalidArgument naming the
// problem: no or unknown command, a flag that is not the command's, a
// missing or bad value, or a value outside its FlagRange. --help or -h
// anywhere asks for help instead; --version in place of the command asks
// for the version.
absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& words,
                                             const std::vector<CommandSpec>& commands,
                                             const std::vector<FlagRange>& ranges);

// kHelpColumns is the width help is wrapped at.
inline constexpr size_t kHelpColumns = 100;

// Wrap is `text` in lines of at most kHelpColumns, each indented by
// `indent` spaces (a word longer than a line stands alone on its line).
std::string Wrap(absl::string_view text, size_t indent);

// Usage is matload's help: every command by name, with its description.
std::string Usage(const std::vector<CommandSpec>& commands);

// CommandHelp is one command's help: its synopsis, description, each of
// its flags with its help text and default, read from the flag itself, and
// its example.
std::string CommandHelp(const CommandSpec& command);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_COMMAND_LINE_H_
