// A run's provenance is the binary's: `matload --version` names the release
// and the commit the binary was built from, and every run it stores records
// that commit, whatever source tree $MATLOAD_SOURCE_DIR names (D11 of
// reports/robustness/attack-2026-11-27-second: runs recorded the commit of
// the source tree read at run time, code that did not produce them).
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;

class ProvenanceTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "elsewhere");
  }

  // Matload runs the built matload with `arguments` from root_/elsewhere, a
  // directory with no source tree, its runs in root_/results.sqlite and
  // `environment` added.
  ProcessResult Matload(const std::vector<std::string>& arguments, std::vector<std::string> environment = {}) const {
    std::vector<std::string> argv = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", (root_ / "elsewhere").string(),
                                     MATLOAD_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    environment.push_back("MATLOAD_DB=" + (root_ / "results.sqlite").string());
    absl::StatusOr<ProcessResult> result = RunProcess(argv, std::chrono::seconds(300), environment);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Support sweeps a few sm_90 ldmatrix forms with the fake ptxas (the
  // toolkit's own, harness/testing/fake_ptxas.sh) into root_/`out`.
  ProcessResult Support(const std::string& out, std::vector<std::string> flags = {},
                        std::vector<std::string> environment = {}) const {
    std::vector<std::string> arguments = {"support",
                                          "--target",
                                          "sm_90",
                                          "--include",
                                          "sm_90.ldmatrix.sync.aligned.m8n8.x1.*",
                                          "--ptxas",
                                          SourceTreePath("harness/testing/fake_ptxas.sh"),
                                          "--out",
                                          (root_ / out).string()};
    arguments.insert(arguments.end(), flags.begin(), flags.end());
    environment.push_back("MATLOAD_FAKE_PTXAS=real");
    return Matload(arguments, environment);
  }

  // Runs is `runs --json`, parsed.
  nlohmann::json Runs() const {
    const ProcessResult listed = Matload({"runs", "--json"});
    EXPECT_EQ(listed.exit_code, kExitClean) << listed.standard_error;
    return nlohmann::json::parse(listed.standard_output, nullptr, false);
  }

  // VersionCommit is the commit `matload --version` names.
  std::string VersionCommit() const {
    const std::string version = Matload({"--version"}).standard_output;
    const size_t start = version.find("\ncommit ");
    if (start == std::string::npos) return "";
    const size_t begin = start + std::string("\ncommit ").size();
    return version.substr(begin, version.find('\n', begin) - begin);
  }

  std::filesystem::path root_;
};

TEST_F(ProvenanceTest, VersionNamesTheReleaseAndTheCommitTheBinaryWasBuiltFrom) {
  const ProcessResult version = Matload({"--version"});
  EXPECT_EQ(version.exit_code, kExitClean) << version.standard_error;
  EXPECT_THAT(version.standard_output, ContainsRegex(absl::StrCat("^matload ", MATLOAD_RELEASE, " \\(")));
  EXPECT_THAT(version.standard_output, HasSubstr(absl::StrCat("\nrelease ", MATLOAD_RELEASE, "\n")));
  EXPECT_THAT(VersionCommit(), ContainsRegex("^([0-9a-f]{40}(-dirty)?|unknown)$"));
}

// The attack's reproduction: $MATLOAD_SOURCE_DIR names another checkout, at
// another commit; the run records the binary's commit all the same.
TEST_F(ProvenanceTest, ARunRecordsTheBinarysCommitNotTheSourceTrees) {
  const std::filesystem::path other = root_ / "other-checkout";
  std::filesystem::create_directories(other / "corpora");
  std::filesystem::copy_file(SourceTreePath("corpora/known_discrepancies.json"),
                             other / "corpora" / "known_discrepancies.json");
  const std::string git = absl::StrCat("git -C ", other.string(), " -c user.name=t -c user.email=t@t ");
  ASSERT_EQ(std::system(absl::StrCat(git, "init -q && ", git, "add -A && ", git, "commit -q -m other").c_str()), 0);
  const ProcessResult support = Support("run", {}, {"MATLOAD_SOURCE_DIR=" + other.string()});
  ASSERT_EQ(support.exit_code, kExitClean) << support.standard_error;
  const nlohmann::json runs = Runs();
  ASSERT_EQ(runs.size(), 1u) << runs;
  EXPECT_EQ(runs[0]["git_commit"], VersionCommit());
}

}  // namespace
}  // namespace matload
