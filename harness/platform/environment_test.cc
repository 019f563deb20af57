#include "harness/platform/environment.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(EnvironmentTest, AnEmptyVariableIsUnset) {
  setenv("MATLOAD_DB", "", 1);
  EXPECT_EQ(Environment("MATLOAD_DB"), std::nullopt);
  EXPECT_EQ(EnvironmentOr("MATLOAD_DB", "fallback.sqlite"), "fallback.sqlite");
  setenv("MATLOAD_DB", "runs.sqlite", 1);
  EXPECT_EQ(Environment("MATLOAD_DB"), "runs.sqlite");
  unsetenv("MATLOAD_DB");
  EXPECT_EQ(Environment("MATLOAD_DB"), std::nullopt);
}

TEST(EnvironmentTest, AVariableOutsideTheTableIsAProgrammingError) {
  EXPECT_DEATH(Environment("MATLOAD_NO_SUCH_VARIABLE"),
               "MATLOAD_NO_SUCH_VARIABLE is not in harness/platform/environment.cc");
}

TEST(EnvironmentTest, EveryRowSaysWhoReadsItWhatItMeansAndWhatHoldsUnset) {
  std::set<absl::string_view> names;
  for (const EnvironmentVariable& variable : EnvironmentVariables()) {
    EXPECT_TRUE(names.insert(variable.name).second) << variable.name << " twice";
    EXPECT_FALSE(variable.readers.empty()) << variable.name;
    EXPECT_FALSE(variable.meaning.empty()) << variable.name;
    EXPECT_FALSE(variable.unset.empty()) << variable.name;
  }
}

// The table is the one place matload reads the environment: no source file
// of matload calls getenv but environment.cc (the test doubles under
// harness/testing/ and the tests themselves aside).
TEST(EnvironmentTest, NoOtherSourceReadsTheEnvironment) {
  const char* root = std::getenv("MATLOAD_SOURCE_DIR");
  ASSERT_NE(root, nullptr) << "ctest sets MATLOAD_SOURCE_DIR";
  int files = 0;
  for (const char* room : {"harness", "fuzz", "bench", "reference"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(root) / room)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() != ".cc" && entry.path().extension() != ".h") continue;
      if (path.find("/harness/testing/") != std::string::npos || path.ends_with("_test.cc") ||
          path.ends_with("/harness/platform/environment.cc")) {
        continue;
      }
      std::ifstream file(entry.path());
      const std::string text(std::istreambuf_iterator<char>(file), {});
      EXPECT_EQ(text.find("getenv("), std::string::npos) << path << " reads the environment outside the table";
      ++files;
    }
  }
  EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace matload
