#include "harness/cli/command_line.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(int, command_line_test_count, 3, "a number from 1 to 10");
ABSL_FLAG(std::optional<std::int64_t>, command_line_test_offset, std::nullopt, "a 32-bit offset, or not given");
ABSL_FLAG(std::vector<std::string>, command_line_test_list, {}, "numbers from 0 to 9");
ABSL_FLAG(bool, command_line_test_switch, false, "a boolean");
ABSL_FLAG(std::string, command_line_test_name, "", "a string");

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

const std::vector<CommandSpec>& Commands() {
  static const auto* const kCommands = new std::vector<CommandSpec>{
      {"run",
       "run [--command_line_test_count N] ARG",
       "runs",
       {"command_line_test_count", "command_line_test_offset", "command_line_test_list", "command_line_test_switch"},
       "matload run --command_line_test_count 2 first"},
      {"name", "name --command_line_test_name S", "names", {"command_line_test_name"}, ""},
  };
  return *kCommands;
}

const std::vector<FlagRange>& Ranges() {
  static const auto* const kRanges = new std::vector<FlagRange>{
      {"command_line_test_count", 1, 10, "why count"},
      {"command_line_test_offset", 0, 4294967295, "why offset"},
      {"command_line_test_list", 0, 9, "why list"},
  };
  return *kRanges;
}

absl::StatusOr<CommandLine> Parse(std::vector<std::string> words) {
  return ParseCommandLine(words, Commands(), Ranges());
}

// Each test starts from the flags' defaults.
class CommandLineTest : public ::testing::Test {
 private:
  absl::FlagSaver saver_;
};

TEST_F(CommandLineTest, SetsFlagsInEverySpelling) {
  absl::StatusOr<CommandLine> line = Parse({"run", "--command_line_test_count=4", "first", "-command-line-test-offset",
                                            "16", "--command_line_test_switch", "--", "--second"});
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(line->command->name, "run");
  EXPECT_FALSE(line->help);
  EXPECT_THAT(line->arguments, ElementsAre("first", "--second"));
  EXPECT_EQ(absl::GetFlag(FLAGS_command_line_test_count), 4);
  EXPECT_EQ(absl::GetFlag(FLAGS_command_line_test_offset), 16);
  EXPECT_TRUE(absl::GetFlag(FLAGS_command_line_test_switch));
  EXPECT_THAT(line->given,
              ElementsAre("command_line_test_count", "command_line_test_offset", "command_line_test_switch"));
  absl::StatusOr<CommandLine> negated = Parse({"run", "--nocommand_line_test_switch"});
  ASSERT_TRUE(negated.ok());
  EXPECT_FALSE(absl::GetFlag(FLAGS_command_line_test_switch));
  EXPECT_THAT(negated->given, ElementsAre("command_line_test_switch"));
}

TEST_F(CommandLineTest, AFlagNotGivenKeepsItsDefault) {
  ASSERT_TRUE(Parse({"run", "x"}).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_command_line_test_offset), std::nullopt);
  EXPECT_EQ(absl::GetFlag(FLAGS_command_line_test_count), 3);
}

TEST_F(CommandLineTest, AnUnknownFlagOrAnotherCommandsFlagIsInvalid) {
  for (const char* flag : {"--no_such_flag", "--command_line_test_name=x"}) {
    absl::StatusOr<CommandLine> line = Parse({"run", flag});
    EXPECT_EQ(line.status().code(), absl::StatusCode::kInvalidArgument) << flag;
    EXPECT_THAT(line.status().message(), HasSubstr(absl::StrCat("unknown flag '", flag, "' for run; run takes --")));
  }
  EXPECT_EQ(absl::GetFlag(FLAGS_command_line_test_name), "");
}

TEST_F(CommandLineTest, AFlagWithoutItsValueIsInvalid) {
  absl::StatusOr<CommandLine> line = Parse({"name", "--command_line_test_name"});
  EXPECT_EQ(line.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(line.status().message(), HasSubstr("--command_line_test_name needs a value"));
  EXPECT_EQ(Parse({"run", "--command_line_test_switch=maybe"}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(CommandLineTest, ValuesOutsideTheirRangeAreInvalidAndSaySo) {
  struct Case {
    std::string word;
    std::string message;
  };
  for (const Case& bad : std::vector<Case>{
           {"--command_line_test_count=11",
            "--command_line_test_count: '11' is not a whole number from 1 to 10 (why count)"},
           {"--command_line_test_count=0", "from 1 to 10"},
           {"--command_line_test_count=4294967297", "'4294967297' is not a whole number from 1 to 10"},
           {"--command_line_test_count=many", "'many' is not a whole number from 1 to 10"},
           {"--command_line_test_offset=4294967312", "from 0 to 4294967295 (why offset)"},
           {"--command_line_test_offset=-1", "'-1' is not a whole number from 0 to 4294967295"},
           {"--command_line_test_list=1,2,10", "'1,2,10' is not a whole number from 0 to 9 (why list)"},
       }) {
    absl::StatusOr<CommandLine> line = Parse({"run", bad.word});
    EXPECT_EQ(line.status().code(), absl::StatusCode::kInvalidArgument) << bad.word;
    EXPECT_THAT(line.status().message(), HasSubstr(bad.message)) << bad.word;
  }
  EXPECT_TRUE(Parse({"run", "--command_line_test_count=10", "--command_line_test_offset=4294967295"}).ok());
}

TEST_F(CommandLineTest, HelpIsAskedForAnywhereBeforeDoubleDash) {
  absl::StatusOr<CommandLine> general = Parse({"--help"});
  ASSERT_TRUE(general.ok());
  EXPECT_TRUE(general->help);
  EXPECT_EQ(general->command, nullptr);
  absl::StatusOr<CommandLine> command = Parse({"run", "--no_such_flag", "-h"});
  ASSERT_TRUE(command.ok());
  EXPECT_TRUE(command->help);
  EXPECT_EQ(command->command->name, "run");
  EXPECT_FALSE(Parse({"run", "--", "--help"})->help);
}

TEST_F(CommandLineTest, TheCommandMustComeFirstAndExist) {
  EXPECT_THAT(Parse({}).status().message(), HasSubstr("no command"));
  EXPECT_THAT(Parse({"walk"}).status().message(), HasSubstr("unknown command 'walk'"));
  EXPECT_THAT(Parse({"--command_line_test_count=2", "run"}).status().message(),
              HasSubstr("the command comes first, not '--command_line_test_count=2'"));
  EXPECT_EQ(Parse({"walk"}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(CommandLineTest, CommandHelpListsThatCommandsFlagsOnly) {
  const std::string help = CommandHelp(Commands()[1]);
  EXPECT_THAT(help, HasSubstr("matload name --command_line_test_name S"));
  EXPECT_THAT(help, HasSubstr("--command_line_test_name (default: \"\")\n      a string"));
  EXPECT_THAT(help, Not(HasSubstr("command_line_test_count")));
  EXPECT_THAT(help, Not(HasSubstr("example:")));
  EXPECT_THAT(CommandHelp(Commands()[0]), HasSubstr("\nexample:\n  matload run --command_line_test_count 2 first\n"));
  EXPECT_THAT(Usage(Commands()), HasSubstr("  run       runs\n  name      names\n"));
  EXPECT_THAT(Usage(Commands()), Not(HasSubstr("command_line_test")));
}

TEST_F(CommandLineTest, VersionStandsInPlaceOfTheCommand) {
  absl::StatusOr<CommandLine> line = Parse({"--version"});
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_TRUE(line->version);
  EXPECT_EQ(line->command, nullptr);
  EXPECT_THAT(Parse({"--version", "run"}).status().message(), HasSubstr("--version takes nothing after it"));
  EXPECT_THAT(Parse({"run", "--version"}).status().message(), HasSubstr("unknown flag '--version' for run"));
}

}  // namespace
}  // namespace matload
