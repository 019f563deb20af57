// The `cli` fuzz target: matload's command line as a hostile user types it.
// The input is argv words, one per line, then optionally a NUL byte and the
// body of a file, which the word "@FILE" names (`check --file @FILE`). It
// runs the command-line parser (harness/cli/command_line.h) and, for the
// pure commands (check, forms, model; harness/cli/pure_commands.h), the
// command itself, writing to string streams. Whatever the input, nothing
// crashes, aborts, hangs or exits; a bad command line is exit status 2
// with a message; a command ends 0 with nothing on stderr, or nonzero with
// a "matload: " message.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "harness/cli/command_line.h"
#include "harness/cli/flags.h"
#include "harness/cli/pure_commands.h"
#include "harness/platform/environment.h"
#include "harness/platform/exit_status.h"

namespace {

constexpr char kFileWord[] = "@FILE";

void Check(bool condition, const char* what, const std::string& input) {
  if (condition) return;
  std::cerr << "cli_fuzzer: " << what << "\ninput: " << input << "\n";
  std::abort();
}

// BodyFile holds the input's body in a file of this process's own for as
// long as the input runs, and removes it after.
class BodyFile {
 public:
  explicit BodyFile(absl::string_view body)
      : path_(absl::StrCat(matload::TemporaryDirectory(), "/matload_cli_fuzzer_", getpid(), ".txt")) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << body;
  }
  ~BodyFile() { std::remove(path_.c_str()); }
  BodyFile(const BodyFile&) = delete;
  BodyFile& operator=(const BodyFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Words splits `argv_text` into argv words, one per line, and puts the body
// file's path for every "@FILE".
std::vector<std::string> Words(absl::string_view argv_text, const BodyFile& body) {
  std::vector<std::string> words = absl::StrSplit(argv_text, '\n');
  for (std::string& word : words) {
    if (word == kFileWord) word = body.path();
  }
  return words;
}

// ResetFlags sets every command's flags back to their defaults, so that no
// input sees the flags of the one before (absl::FlagSaver would do it too,
// but logs every flag it restores).
void ResetFlags() {
  for (const matload::CommandSpec& command : matload::MatloadCommands()) {
    for (absl::string_view name : command.flags) {
      absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
      std::string error;
      Check(flag->ParseFrom(flag->DefaultValue(), &error), "a flag's default does not parse", error);
    }
  }
}

// RanBefore says whether this process has run `forms` with these flags
// before. Its output depends on --target, --ptx and --illegal alone, and a
// near-miss listing takes half a minute under ASan, so each set of values
// runs once per process and repeats are skipped.
bool RanBefore(const matload::CommandLine& line) {
  if (line.command->name != "forms") return false;
  static auto* const ran = new std::set<std::string>();
  return !ran->insert(absl::StrCat(absl::GetFlag(FLAGS_target), "|", absl::GetFlag(FLAGS_ptx), "|",
                                   absl::GetFlag(FLAGS_illegal), "|", line.arguments.size()))
              .second;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\0');
  const BodyFile body(split == std::string::npos ? "" : absl::string_view(input).substr(split + 1));
  ResetFlags();
  const absl::StatusOr<matload::CommandLine> line = matload::ParseCommandLine(
      Words(absl::string_view(input).substr(0, split), body), matload::MatloadCommands(), matload::MatloadFlagRanges());
  if (!line.ok()) {
    Check(matload::ExitStatusFor(line.status()) == matload::kExitUsage, "a bad command line is not exit status 2",
          input);
    Check(!line.status().message().empty(), "a bad command line without a message", input);
    return 0;
  }
  if (line->version) {
    Check(line->command == nullptr && line->arguments.empty(), "--version with a command or arguments", input);
    return 0;
  }
  if (line->help) {
    const std::string help = line->command != nullptr ? matload::CommandHelp(*line->command)
                                                       : matload::Usage(matload::MatloadCommands());
    Check(absl::StrContains(help, "matload "), "help without a synopsis", input);
    return 0;
  }
  const matload::PureCommand command = matload::FindPureCommand(line->command->name);
  if (command == nullptr || RanBefore(*line)) return 0;
  std::ostringstream out, err;
  const int status = command(line->arguments, out, err);
  Check(status == matload::kExitClean ? err.str().empty() : absl::StartsWith(err.str(), "matload: "),
        "a command's exit status and its stderr disagree", input);
  return 0;
}
