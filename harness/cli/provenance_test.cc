// A run's provenance is the binary's: `matload --version` names the release
// and the commit the binary was built from, and every run it stores records
// that commit, whatever source tree $MATLOAD_SOURCE_DIR names (D11 of
// reports/robustness/attack-2026-11-27-second: runs recorded the commit of
// the source tree read at run time, code that did not produce them). The
// registry that judges a run is the one built into the binary, or the file
// --registry names, and every run records its SHA-256; `merge` joins only
// shards judged by one registry.
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
#include "harness/runs/sha256.h"
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

  // BuiltInDigest is the SHA-256 of the checked-in registry, which the
  // binary carries.
  static std::string BuiltInDigest() {
    return Sha256OfFile(SourceTreePath("corpora/known_discrepancies.json")).value_or("");
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
  std::ofstream(other / "corpora" / "known_discrepancies.json", std::ios::app) << "\n";  // another registry
  const ProcessResult support = Support("run", {}, {"MATLOAD_SOURCE_DIR=" + other.string()});
  ASSERT_EQ(support.exit_code, kExitClean) << support.standard_error;
  const nlohmann::json runs = Runs();
  ASSERT_EQ(runs.size(), 1u) << runs;
  EXPECT_EQ(runs[0]["git_commit"], VersionCommit());
  // Nor is the registry the source tree's: the one built in judged it.
  EXPECT_EQ(runs[0]["registry_digest"], BuiltInDigest());
}

// From a directory with no source tree, the built-in registry judges:
// before, support there said it could not read the registry (exit 2).
TEST_F(ProvenanceTest, ARunWithNoSourceTreeIsJudgedByTheBuiltInRegistry) {
  const ProcessResult support = Support("run", {}, {"MATLOAD_SOURCE_DIR=" + (root_ / "elsewhere").string()});
  ASSERT_EQ(support.exit_code, kExitClean) << support.standard_error;
  const nlohmann::json runs = Runs();
  ASSERT_EQ(runs.size(), 1u) << runs;
  EXPECT_EQ(runs[0]["registry_digest"], BuiltInDigest());
}

// --registry FILE judges instead, and the run records FILE's digest; a file
// that cannot be read or is not a registry is bad input, before any run.
TEST_F(ProvenanceTest, RegistryNamesTheFileThatJudgesAndTheRunRecordsIt) {
  const std::filesystem::path registry = root_ / "registry.json";
  std::filesystem::copy_file(SourceTreePath("corpora/known_discrepancies.json"), registry);
  std::ofstream(registry, std::ios::app) << "\n";
  const ProcessResult support = Support("run", {"--registry", registry.string()});
  ASSERT_EQ(support.exit_code, kExitClean) << support.standard_error;
  const nlohmann::json runs = Runs();
  ASSERT_EQ(runs.size(), 1u) << runs;
  EXPECT_EQ(runs[0]["registry_digest"], Sha256OfFile(registry.string()).value_or(""));
  EXPECT_NE(runs[0]["registry_digest"], BuiltInDigest());

  const ProcessResult missing = Support("missing", {"--registry", (root_ / "none.json").string()});
  EXPECT_EQ(missing.exit_code, kExitUsage);
  EXPECT_THAT(missing.standard_error, HasSubstr("none.json: cannot read the discrepancy registry"));
  std::ofstream(root_ / "bad.json") << "{\"discrepancies\": 3}";
  const ProcessResult malformed = Support("malformed", {"--registry", (root_ / "bad.json").string()});
  EXPECT_EQ(malformed.exit_code, kExitUsage);
  EXPECT_THAT(malformed.standard_error, HasSubstr("bad.json: the registry must be an object"));
  EXPECT_EQ(Runs().size(), 1u);
}

// Two shards of one sweep judged by different registries are not merged
// (exit 2, naming both digests); with the same registry they are.
TEST_F(ProvenanceTest, MergeRefusesShardsJudgedByDifferentRegistries) {
  const std::filesystem::path registry = root_ / "registry.json";
  std::filesystem::copy_file(SourceTreePath("corpora/known_discrepancies.json"), registry);
  std::ofstream(registry, std::ios::app) << "\n";
  const std::vector<std::string> shard = {
      "--target", "sm_80,sm_90", "--include", "sm_*.ldmatrix.sync.aligned.m8n8.x1.*", "--parent", "night"};
  std::vector<std::string> first = shard, second = shard;
  first.insert(first.end(), {"--shard", "0/2"});
  second.insert(second.end(), {"--shard", "1/2", "--registry", registry.string()});
  ASSERT_EQ(Support("s0", first).exit_code, kExitClean);
  ASSERT_EQ(Support("s1", second).exit_code, kExitClean);
  const ProcessResult merged = Matload({"merge", "support-night", "--out", (root_ / "merged").string()});
  EXPECT_EQ(merged.exit_code, kExitUsage) << merged.standard_output;
  EXPECT_THAT(merged.standard_error, HasSubstr("differ in their discrepancy registry (SHA-256)"));
  EXPECT_THAT(merged.standard_error, HasSubstr(BuiltInDigest()));
}

}  // namespace
}  // namespace matload
