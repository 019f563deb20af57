// The verdict cache end to end: `matload support` run again into the same
// results store with an unchanged toolkit compiles nothing and writes the
// same report byte for byte; --no-cache, another build of the toolkit and
// a ptxas that is a script compile again. ptxas is harness/testing/
// counting_ptxas, which counts its runs and has the real ptxas compile.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

// ReadText is the file at `path`.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// Sweep is what one `matload support` did: how it ended, the ptxas runs
// that compiled a module (those given a .ptx file) and those that did not.
struct Sweep {
  ProcessResult process;
  int compiles = 0;
  std::vector<std::string> other_runs;
};

class SupportCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "bin");
    std::filesystem::copy_file(COUNTING_PTXAS, root_ / "bin" / "ptxas");
  }

  // RunSweep runs `matload support` on sm_90's and sm_100a's ldmatrix cases
  // in the directory root_/`name`, writing the report to `name`/run. Every
  // sweep has the same command line (the paths in it are relative), so
  // that their reports can be compared whole.
  Sweep RunSweep(const std::string& name, std::vector<std::string> extra = {},
                 std::vector<std::string> environment = {}) const {
    std::filesystem::create_directories(root_ / name);
    std::vector<std::string> arguments = {"env",          "-C",       (root_ / name).string(), MATLOAD_BINARY,
                                          "support",      "--target", "sm_90,sm_100a",         "--include",
                                          "*.ldmatrix.*", "--db",     "../results.sqlite",     "--out",
                                          "run",          "--ptxas",  "../bin/ptxas"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const std::string count_file = (root_ / name / "ptxas-runs.txt").string();
    environment.push_back("MATLOAD_COUNT_FILE=" + count_file);
    absl::StatusOr<ProcessResult> process = RunProcess(arguments, std::chrono::seconds(600), environment);
    EXPECT_TRUE(process.ok()) << process.status();
    Sweep sweep{.process = process.ok() ? *process : ProcessResult{}};
    EXPECT_EQ(sweep.process.exit_code, kExitClean) << name << ": " << sweep.process.standard_error;
    for (absl::string_view line : absl::StrSplit(ReadText(count_file), '\n', absl::SkipEmpty())) {
      if (absl::StrContains(line, ".ptx")) {
        ++sweep.compiles;
      } else {
        sweep.other_runs.emplace_back(line);
      }
    }
    return sweep;
  }

  // Report is every file of the report in root_/`name`/run, by path, with
  // what only says when and how fast it was made (the date, the seconds)
  // left out, and --no-cache left out of the command line. The run
  // directory's claim file (.matload-run), which names the run, is not part
  // of the report, nor is report.html, which names the run and its times.
  std::map<std::string, std::string> Report(const std::string& name) const {
    const std::filesystem::path directory = root_ / name / "run";
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
      const std::string path = std::filesystem::relative(entry.path(), directory).string();
      if (!entry.is_regular_file() || path == ".matload-run" || path == "report.html") continue;
      std::string text = ReadText(entry.path());
      if (path == "support.json") {
        nlohmann::json json = nlohmann::json::parse(text);
        json.erase("seconds");
        json.erase("date");
        text = json.dump(1);
      }
      if (!path.starts_with("reproducers/")) {
        text = std::regex_replace(text, std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}(, in [0-9]+ s)?"), "DATE");
        text = std::regex_replace(text, std::regex(" --no-cache"), "");
      }
      files[path] = std::move(text);
    }
    EXPECT_THAT(files, ::testing::Contains(::testing::Key("support.md")));
    return files;
  }

  std::filesystem::path root_;
};

TEST_F(SupportCacheTest, AWarmSweepCompilesNothingAndWritesTheSameReport) {
  const Sweep cold = RunSweep("cold");
  EXPECT_GT(cold.compiles, 10);
  EXPECT_THAT(cold.process.standard_output, HasSubstr(" 0 answers found, "));

  const Sweep warm = RunSweep("warm");
  EXPECT_EQ(warm.compiles, 0);
  // Only Ptxas::Open's questions, which give the version the cache is keyed by.
  EXPECT_THAT(warm.other_runs, ::testing::UnorderedElementsAre("--version", "--help"));
  EXPECT_THAT(warm.process.standard_output, HasSubstr(" 0 compiled and kept"));
  EXPECT_EQ(Report("warm"), Report("cold"));
}

// --no-cache compiles everything, and so does another build of ptxas (here
// the same program with a byte added) even of the same version; that
// build's answers are then kept under its own identity.
TEST_F(SupportCacheTest, NoCacheAndAnotherBuildCompileAgain) {
  const Sweep cold = RunSweep("cold");
  ASSERT_GT(cold.compiles, 10);
  const Sweep no_cache = RunSweep("no-cache", {"--no-cache"});
  EXPECT_EQ(no_cache.compiles, cold.compiles);
  EXPECT_THAT(no_cache.process.standard_output, ::testing::Not(HasSubstr("verdict cache")));
  std::ofstream(root_ / "bin" / "ptxas", std::ios::binary | std::ios::app) << '\0';
  const Sweep rebuilt = RunSweep("rebuilt");
  EXPECT_EQ(rebuilt.compiles, cold.compiles);
  EXPECT_EQ(RunSweep("rebuilt-warm").compiles, 0);
  EXPECT_EQ(Report("no-cache"), Report("cold"));
  EXPECT_EQ(Report("rebuilt"), Report("cold"));
}

// A script's answers depend on what it runs, not on its own bytes: it is
// asked every time, and matload says why.
TEST_F(SupportCacheTest, AScriptIsAskedEveryTime) {
  const std::vector<std::string> script = {"--ptxas", SourceTreePath("harness/testing/fake_ptxas.sh")};
  const std::vector<std::string> environment = {"MATLOAD_FAKE_PTXAS=extra-line",
                                                "MATLOAD_REAL_PTXAS=" + (root_ / "bin" / "ptxas").string()};
  const Sweep first = RunSweep("first", script, environment);
  const Sweep second = RunSweep("second", script, environment);
  EXPECT_GT(first.compiles, 10);
  EXPECT_EQ(second.compiles, first.compiles);
  EXPECT_THAT(second.process.standard_error, HasSubstr("answers are not cached: "));
  EXPECT_THAT(second.process.standard_error, HasSubstr("is not an ELF program"));
}

}  // namespace
}  // namespace matload
