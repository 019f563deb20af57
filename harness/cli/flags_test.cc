#include "harness/cli/flags.h"

#include <algorithm>
#include <set>
#include <string>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/environment.h"

namespace matload {
namespace {

TEST(FlagsTest, EveryCommandsFlagIsAFlagAndItsDefaultParses) {
  for (const CommandSpec& command : MatloadCommands()) {
    for (absl::string_view name : command.flags) {
      absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
      ASSERT_NE(flag, nullptr) << command.name << " --" << name;
      std::string error;
      EXPECT_TRUE(flag->ParseFrom(flag->DefaultValue(), &error)) << name << ": " << error;
    }
  }
}

TEST(FlagsTest, EveryRangeBoundsAFlagSomeCommandTakes) {
  std::set<absl::string_view> taken;
  for (const CommandSpec& command : MatloadCommands()) taken.insert(command.flags.begin(), command.flags.end());
  for (const FlagRange& range : MatloadFlagRanges()) {
    EXPECT_TRUE(taken.contains(range.flag)) << range.flag;
    EXPECT_LE(range.min, range.max) << range.flag;
    EXPECT_FALSE(range.why.empty()) << range.flag;
  }
}

// The numeric flags the bad-input report found wrapping or unbounded.
TEST(FlagsTest, TheNumericFlagsHaveRanges) {
  std::set<absl::string_view> ranged;
  for (const FlagRange& range : MatloadFlagRanges()) ranged.insert(range.flag);
  for (absl::string_view flag :
       {"threads", "variants", "jobs", "stride", "base", "seconds", "workers", "device", "row_addresses"}) {
    EXPECT_TRUE(ranged.contains(flag)) << flag;
  }
}

TEST(FlagsTest, EveryRowNamesCommandsThatExistAndSaysWhatItMeans) {
  std::set<absl::string_view> commands;
  for (const CommandSpec& command : MatloadCommands()) commands.insert(command.name);
  std::set<absl::string_view> names;
  for (const FlagRow& row : MatloadFlags()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " twice";
    EXPECT_FALSE(row.meaning.empty()) << row.name;
    for (absl::string_view command : absl::StrSplit(row.commands, ' ')) {
      EXPECT_TRUE(commands.contains(command)) << "--" << row.name << ": no command " << command;
    }
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(row.name);
    ASSERT_NE(flag, nullptr) << row.name;
    EXPECT_EQ(row.value.empty(), flag->IsOfType<bool>()) << row.name << ": only a boolean has no value";
  }
}

TEST(FlagsTest, EveryEnvironmentVariableIsReadBySomeCommand) {
  std::set<absl::string_view> commands;
  for (const CommandSpec& command : MatloadCommands()) commands.insert(command.name);
  for (const EnvironmentVariable& variable : EnvironmentVariables()) {
    if (variable.readers == "all") continue;
    for (absl::string_view command : absl::StrSplit(variable.readers, ' ')) {
      EXPECT_TRUE(commands.contains(command)) << "$" << variable.name << ": no command " << command;
    }
  }
}

// The help is matload's own: no build machine's paths (absl's usage said
// "Flags from tmp/.../matload_main.cc"), no other command's flags, and
// lines within 100 columns.
TEST(FlagsTest, HelpIsPerCommandAndNamesNoBuildPaths) {
  const std::string usage = MatloadHelp(CommandLine{.command = nullptr, .arguments = {}, .help = true});
  EXPECT_THAT(usage, ::testing::HasSubstr("  $MATLOAD_DB\n      the results store"));
  for (const CommandSpec& command : MatloadCommands()) {
    EXPECT_THAT(usage, ::testing::HasSubstr(absl::StrCat("  ", command.name, " ")));
    const std::string help = MatloadHelp(CommandLine{.command = &command, .arguments = {}, .help = true});
    EXPECT_THAT(help, ::testing::Not(::testing::ContainsRegex("Flags from|\\.cc|/tmp/|/work/"))) << command.name;
    EXPECT_THAT(help, ::testing::HasSubstr(absl::StrCat("example:\n  matload ", command.name))) << command.name;
    for (absl::string_view line : absl::StrSplit(help, '\n')) {
      EXPECT_LE(line.size(), 100u) << line;
    }
    for (const FlagRow& row : MatloadFlags()) {
      const bool listed = absl::StrContains(help, absl::StrCat("  --", row.name, " ("));
      EXPECT_EQ(listed, std::find(command.flags.begin(), command.flags.end(), row.name) != command.flags.end())
          << command.name << " --" << row.name;
    }
  }
  const auto support = std::find_if(MatloadCommands().begin(), MatloadCommands().end(),
                                    [](const CommandSpec& command) { return command.name == "support"; });
  ASSERT_NE(support, MatloadCommands().end());
  const std::string help = MatloadHelp(CommandLine{.command = &*support, .arguments = {}, .help = true});
  EXPECT_THAT(help, ::testing::HasSubstr("$MATLOAD_PTXAS"));
  EXPECT_THAT(help, ::testing::Not(::testing::HasSubstr("$MATLOAD_LEGALITY_COMPILER")));
}

TEST(FlagsTest, EachCommandTakesOnlyItsOwnFlags) {
  const auto check = std::find_if(MatloadCommands().begin(), MatloadCommands().end(),
                                  [](const CommandSpec& command) { return command.name == "check"; });
  ASSERT_NE(check, MatloadCommands().end());
  EXPECT_THAT(check->flags, ::testing::UnorderedElementsAre("target", "ptx", "json", "file"));
}

}  // namespace
}  // namespace matload
