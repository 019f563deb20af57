#include "harness/cli/flags.h"

#include <algorithm>
#include <set>
#include <string>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

TEST(FlagsTest, EachCommandTakesOnlyItsOwnFlags) {
  const auto check = std::find_if(MatloadCommands().begin(), MatloadCommands().end(),
                                  [](const CommandSpec& command) { return command.name == "check"; });
  ASSERT_NE(check, MatloadCommands().end());
  EXPECT_THAT(check->flags, ::testing::UnorderedElementsAre("target", "ptx", "json", "file"));
}

}  // namespace
}  // namespace matload
