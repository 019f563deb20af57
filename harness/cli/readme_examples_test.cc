// The README's examples against the flag table (harness/cli/flags.h): every
// `matload ...` command line in a README code block must parse, so that a
// flag renamed, removed or given to another command fails here and not for
// the reader. The lines are parsed, never run.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/cli/command_line.h"
#include "harness/cli/flags.h"
#include "harness/platform/environment.h"

namespace matload {
namespace {

// Example is one command line of the README and the line it starts on.
struct Example {
  int line = 0;
  std::string text;
};

// Examples are the command lines in `markdown`'s code blocks that start
// with "matload ", each joined with the lines a trailing '\' continues it on.
std::vector<Example> Examples(const std::string& markdown) {
  std::vector<Example> examples;
  bool in_block = false;
  bool continued = false;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(markdown, '\n')) {
    ++number;
    if (absl::StartsWith(line, "```")) {
      in_block = !in_block;
      continue;
    }
    if (!in_block) continue;
    absl::string_view text = absl::StripAsciiWhitespace(line);
    if (!continued && !absl::StartsWith(text, "matload ")) continue;
    if (!continued) examples.push_back({number, ""});
    continued = absl::ConsumeSuffix(&text, "\\");
    absl::StrAppend(&examples.back().text, text, " ");
  }
  return examples;
}

// ShellWords splits `command` as the shell would into words, quotes
// removed, up to the first unquoted comment, ';', '|', '&' or redirection.
std::vector<std::string> ShellWords(absl::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = '\0';
  for (char c : command) {
    if (quote != '\0') {
      if (c == quote) {
        quote = '\0';
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (absl::StrContains(";|&<>", c) || (c == '#' && !in_word)) {
      break;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

TEST(ReadmeExamplesTest, ShellWordsReadsQuotesAndStopsAtTheShellsOwnSyntax) {
  EXPECT_THAT(ShellWords("matload check --target sm_90 'a b;' # note"),
              ::testing::ElementsAre("matload", "check", "--target", "sm_90", "a b;"));
  EXPECT_THAT(ShellWords("matload diff A B > out.txt"), ::testing::ElementsAre("matload", "diff", "A", "B"));
  EXPECT_THAT(ShellWords("matload runs; status=$?"), ::testing::ElementsAre("matload", "runs"));
}

TEST(ReadmeExamplesTest, EveryCommandLineInTheReadmeParses) {
  const std::optional<std::string> root = Environment("MATLOAD_SOURCE_DIR");
  ASSERT_TRUE(root.has_value()) << "ctest sets MATLOAD_SOURCE_DIR";
  std::ifstream file(*root + "/README.md");
  ASSERT_TRUE(file) << *root << "/README.md";
  const std::vector<Example> examples = Examples(std::string(std::istreambuf_iterator<char>(file), {}));
  EXPECT_GE(examples.size(), 25u) << "the README's examples were not found";
  for (const Example& example : examples) {
    const absl::FlagSaver saver;
    const std::vector<std::string> words = ShellWords(example.text);
    absl::StatusOr<CommandLine> line = ParseCommandLine(std::vector<std::string>(words.begin() + 1, words.end()),
                                                        MatloadCommands(), MatloadFlagRanges());
    EXPECT_TRUE(line.ok()) << "README.md:" << example.line << ": " << example.text << "\n  " << line.status();
  }
}

// Each command's example in its --help parses too.
TEST(ReadmeExamplesTest, EveryHelpExampleParses) {
  for (const CommandSpec& command : MatloadCommands()) {
    const absl::FlagSaver saver;
    ASSERT_TRUE(absl::StartsWith(command.example, absl::StrCat("matload ", command.name))) << command.name;
    const std::vector<std::string> words = ShellWords(command.example);
    absl::StatusOr<CommandLine> line = ParseCommandLine(std::vector<std::string>(words.begin() + 1, words.end()),
                                                        MatloadCommands(), MatloadFlagRanges());
    EXPECT_TRUE(line.ok()) << command.example << "\n  " << line.status();
  }
}

}  // namespace
}  // namespace matload
