#include "harness/cli/command_line.h"

#include <algorithm>
#include <optional>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace matload {
namespace {

// IsHelp says whether `word` asks for help.
bool IsHelp(absl::string_view word) { return word == "--help" || word == "-help" || word == "-h"; }

// IsFlag says whether `word` is written as a flag: a dash and more.
bool IsFlag(absl::string_view word) { return word.size() > 1 && word[0] == '-'; }

// Accepts says whether `command` takes the flag `flag`.
bool Accepts(const CommandSpec& command, absl::string_view flag) {
  return std::find(command.flags.begin(), command.flags.end(), flag) != command.flags.end();
}

// FlagList says which flags `command` takes, for messages.
std::string FlagList(const CommandSpec& command) {
  if (command.flags.empty()) return absl::StrCat(command.name, " takes no flags");
  return absl::StrCat(command.name, " takes --", absl::StrJoin(command.flags, ", --"));
}

// WrittenFlag is one flag word split up: its name with '_' for '-', and its
// value when it was written with '='.
struct WrittenFlag {
  std::string name;
  std::optional<std::string> value;
};

// SplitFlagWord reads "--row-addresses=1,2", "-json" or "--target".
WrittenFlag SplitFlagWord(absl::string_view word) {
  absl::ConsumePrefix(&word, "-");
  absl::ConsumePrefix(&word, "-");
  WrittenFlag flag;
  const size_t equals = word.find('=');
  if (equals != absl::string_view::npos) flag.value = std::string(word.substr(equals + 1));
  flag.name = absl::StrReplaceAll(word.substr(0, equals), {{"-", "_"}});
  return flag;
}

// RangeError says that `written` is not a value `range` allows.
absl::Status RangeError(const FlagRange& range, absl::string_view written) {
  return absl::InvalidArgumentError(absl::StrCat("--", range.flag, ": '", written, "' is not a whole number from ",
                                                 range.min, " to ", range.max, " (", range.why, ")"));
}

// InRange says whether `flag`'s value, or every value of a list flag, is in
// `range`.
bool InRange(const absl::CommandLineFlag& flag, const FlagRange& range) {
  for (absl::string_view value : absl::StrSplit(flag.CurrentValue(), ',', absl::SkipEmpty())) {
    std::int64_t number = 0;
    if (!absl::SimpleAtoi(value, &number) || number < range.min || number > range.max) return false;
  }
  return true;
}

// SetFlag sets flag `name` to `value`, and holds it to its range if it has
// one; a value that does not parse as the flag's type gets the range's
// message too, since the range is what the user needs to know.
absl::Status SetFlag(const std::string& name, absl::string_view value, const std::vector<FlagRange>& ranges) {
  absl::CommandLineFlag& flag = *absl::FindCommandLineFlag(name);
  const auto range = std::find_if(ranges.begin(), ranges.end(), [&](const FlagRange& r) { return r.flag == name; });
  std::string error;
  const bool parsed = flag.ParseFrom(value, &error);
  if (range != ranges.end() && (!parsed || !InRange(flag, *range))) return RangeError(*range, value);
  if (!parsed) return absl::InvalidArgumentError(absl::StrCat("--", name, ": ", error));
  return absl::OkStatus();
}

// ReadFlag reads the flag at words[*next] (and its value from the next
// word when it needs one), sets it, adds its name to `given`, and moves
// *next past what it read.
absl::Status ReadFlag(const CommandSpec& command, const std::vector<std::string>& words, size_t* next,
                      const std::vector<FlagRange>& ranges, std::set<std::string>& given) {
  const std::string& word = words[(*next)++];
  WrittenFlag written = SplitFlagWord(word);
  if (!Accepts(command, written.name) && absl::StartsWith(written.name, "no") && !written.value.has_value()) {
    const std::string negated = written.name.substr(2);
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(negated);
    if (Accepts(command, negated) && flag != nullptr && flag->IsOfType<bool>()) {
      given.insert(negated);
      return SetFlag(negated, "false", ranges);
    }
  }
  if (!Accepts(command, written.name) || absl::FindCommandLineFlag(written.name) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown flag '", word, "' for ", command.name, "; ",
                                                   FlagList(command), " (matload ", command.name, " --help)"));
  }
  if (!written.value.has_value()) {
    if (absl::FindCommandLineFlag(written.name)->IsOfType<bool>()) {
      written.value = "true";
    } else if (*next < words.size()) {
      written.value = words[(*next)++];
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--", written.name, " needs a value"));
    }
  }
  given.insert(written.name);
  return SetFlag(written.name, *written.value, ranges);
}

// FindCommand is the command named `name`, or nullptr.
const CommandSpec* FindCommand(const std::vector<CommandSpec>& commands, absl::string_view name) {
  for (const CommandSpec& command : commands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

}  // namespace

std::string Wrap(absl::string_view text, size_t indent) {
  const std::string margin(indent, ' ');
  std::string wrapped = margin;
  size_t line_start = 0;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (wrapped.size() > line_start + indent && wrapped.size() - line_start + 1 + word.size() > kHelpColumns) {
      line_start = wrapped.size() + 1;
      absl::StrAppend(&wrapped, "\n", margin);
    } else if (wrapped.size() > line_start + indent) {
      wrapped += ' ';
    }
    absl::StrAppend(&wrapped, word);
  }
  return wrapped;
}

absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& words,
                                             const std::vector<CommandSpec>& commands,
                                             const std::vector<FlagRange>& ranges) {
  if (words.empty()) return absl::InvalidArgumentError(absl::StrCat("no command\n", Usage(commands)));
  if (IsHelp(words[0])) return CommandLine{.command = nullptr, .arguments = {}, .help = true};
  if (words[0] == "--version" || words[0] == "-version") {
    if (words.size() > 1) return absl::InvalidArgumentError("--version takes nothing after it");
    return CommandLine{.command = nullptr, .arguments = {}, .help = false, .version = true};
  }
  CommandLine line{.command = FindCommand(commands, words[0]), .arguments = {}, .help = false, .version = false};
  if (line.command == nullptr) {
    const absl::string_view problem = IsFlag(words[0]) ? "the command comes first, not '" : "unknown command '";
    return absl::InvalidArgumentError(absl::StrCat(problem, words[0], "'\n", Usage(commands)));
  }
  const auto end_of_flags = std::find(words.begin() + 1, words.end(), "--");
  if (std::any_of(words.begin() + 1, end_of_flags, IsHelp)) {
    line.help = true;
    return line;
  }
  for (size_t next = 1; next < words.size();) {
    if (words[next] == "--") {
      line.arguments.insert(line.arguments.end(), words.begin() + next + 1, words.end());
      break;
    }
    if (!IsFlag(words[next])) {
      line.arguments.push_back(words[next++]);
      continue;
    }
    if (absl::Status status = ReadFlag(*line.command, words, &next, ranges, line.given); !status.ok()) return status;
  }
  return line;
}

std::string Usage(const std::vector<CommandSpec>& commands) {
  std::string usage =
      "matload COMMAND [flags]   (matload COMMAND --help: its flags and an example; matload --version)\n";
  for (const CommandSpec& command : commands) {
    absl::StrAppend(&usage, "  ", absl::StrFormat("%-9s", command.name), " ",
                    absl::StripLeadingAsciiWhitespace(Wrap(command.description, 12)), "\n");
  }
  return usage;
}

std::string CommandHelp(const CommandSpec& command) {
  std::string help = absl::StrCat("matload ", command.synopsis, "\n", Wrap(command.description, 2), "\n");
  if (!command.flags.empty()) absl::StrAppend(&help, "\nflags:\n");
  for (absl::string_view name : command.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    absl::StrAppend(&help, "  --", name, " (default: \"", flag->DefaultValue(), "\")\n", Wrap(flag->Help(), 6), "\n");
  }
  if (!command.example.empty()) absl::StrAppend(&help, "\nexample:\n  ", command.example, "\n");
  return help;
}

}  // namespace matload
