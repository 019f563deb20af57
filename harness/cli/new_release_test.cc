// Known discrepancies survive a new toolkit: `matload support --target
// sm_90` with harness/testing/fake_ptxas.sh, which is the toolkit's ptxas
// under the name of a release no registry entry lists (13.6.1, through
// MATLOAD_FAKE_PTXAS_RELEASE). An entry of corpora/known_discrepancies.json
// stays in force for later releases of its tool until one disproves it, so
// the same answers are the same known discrepancies, "also seen on" 13.6.1;
// an entry 13.6.1 no longer shows is "fixed in" it, and a release at or
// after an entry's recorded fix is not covered by it.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// ReadText is the file at `path`.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

class NewReleaseTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }

  // Support sweeps sm_90's cases that `include` takes with the toolkit's
  // ptxas named ptxas 13.6.1, judged by the registry in root_ given as
  // --registry when one was written there (WriteRegistry), else by the one
  // built into matload.
  ProcessResult Support(const std::string& include) const {
    std::vector<std::string> arguments = {MATLOAD_BINARY, "support",
                                          "--target",     "sm_90",
                                          "--include",    include,
                                          "--ptxas",      SourceTreePath("harness/testing/fake_ptxas.sh"),
                                          "--db",         (root_ / "results.sqlite").string(),
                                          "--out",        (root_ / "run").string()};
    if (std::filesystem::exists(Registry())) arguments.push_back("--registry=" + Registry().string());
    absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(600),
                                                      {"MATLOAD_FAKE_PTXAS=real", "MATLOAD_FAKE_PTXAS_RELEASE=13.6.1"});
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Registry is where WriteRegistry writes.
  std::filesystem::path Registry() const { return root_ / "known_discrepancies.json"; }

  // WriteRegistry writes the checked-in registry to Registry() with
  // `change` made to the entry `id`.
  void WriteRegistry(const std::string& id, const std::function<void(nlohmann::json&)>& change) const {
    nlohmann::json registry = nlohmann::json::parse(ReadText(SourceTreePath("corpora/known_discrepancies.json")));
    for (nlohmann::json& entry : registry["discrepancies"]) {
      if (entry["id"] == id) change(entry);
    }
    std::ofstream(Registry()) << registry.dump(1);
  }

  std::filesystem::path root_;
};

// The wall issue 33 found: with the same answers under a new release name,
// every known sm_90 discrepancy was an unexplained one (440 at PTX 9.0),
// exit 1.
TEST_F(NewReleaseTest, TheSameAnswersUnderANewReleaseAreKnownAlsoSeenOnIt) {
  const ProcessResult result = Support("*");
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_output << result.standard_error.substr(0, 2000);
  EXPECT_THAT(result.standard_output, HasSubstr(" 0 unexplained"));
  EXPECT_THAT(result.standard_output, Not(HasSubstr(" 0 known discrepancies")));
  EXPECT_THAT(result.standard_output,
              HasSubstr("known, also seen on ptxas 13.6.1: ptxas-accepts-a-b2-type-on-wmma-load, "
                        "ptxas-accepts-b16-shared-address-for-ldmatrix, "));
  EXPECT_THAT(result.standard_output, Not(HasSubstr("fixed in")));
  const std::string md = ReadText(root_ / "run" / "support.md");
  EXPECT_THAT(md, HasSubstr("### ptxas-accepts-repeated-sync\n\n- known, also seen on ptxas 13.6.1 (measured on "
                            "ptxas 11.8.89, ptxas 12.9.86, ptxas 13.0.88, ptxas 13.5.37"));
}

// An entry in force on 13.6.1 (measured on 12.9.86, its fix not recorded)
// whose forms 13.6.1 compiles as the model says was fixed in 13.6.1: the
// sweep says so, and stays clean.
TEST_F(NewReleaseTest, AnEntryTheNewReleaseNoLongerShowsIsFixedInIt) {
  WriteRegistry("ptxas-12.9-accepts-wmma-load-without-type", [](nlohmann::json& entry) { entry.erase("fixed_in"); });
  const ProcessResult result = Support("sm_90.wmma_load.a.sync.aligned.row.m16n16k16*");
  EXPECT_EQ(result.exit_code, kExitClean) << result.standard_output << result.standard_error.substr(0, 2000);
  EXPECT_THAT(result.standard_output, HasSubstr("fixed in ptxas 13.6.1: ptxas-12.9-accepts-wmma-load-without-type"));
  EXPECT_THAT(ReadText(root_ / "run" / "support.md"),
              HasSubstr("- `ptxas-12.9-accepts-wmma-load-without-type`: fixed in ptxas 13.6.1"));
}

// A release at or after an entry's recorded fix is not covered by it: what
// it still shows is unexplained.
TEST_F(NewReleaseTest, AReleaseAtARecordedFixIsNotCovered) {
  WriteRegistry("ptxas-accepts-repeated-sync",
                [](nlohmann::json& entry) { entry["fixed_in"] = nlohmann::json::array({"ptxas 13.6"}); });
  const ProcessResult result = Support("sm_90.ldmatrix.*");
  EXPECT_EQ(result.exit_code, kExitFindings) << result.standard_output << result.standard_error.substr(0, 2000);
  EXPECT_THAT(result.standard_output, Not(HasSubstr(" 0 unexplained")));
}

// A registry whose fix names no release of a tool it was measured on is bad
// input: exit 2, naming the entry.
TEST_F(NewReleaseTest, AMalformedFixIsExitTwo) {
  WriteRegistry("ptxas-accepts-repeated-sync",
                [](nlohmann::json& entry) { entry["fixed_in"] = nlohmann::json::array({"nvcc 13.6"}); });
  const ProcessResult result = Support("sm_90.ldmatrix.*");
  EXPECT_EQ(result.exit_code, kExitUsage) << result.standard_error;
  EXPECT_THAT(result.standard_error, HasSubstr("ptxas-accepts-repeated-sync: fixed_in 'nvcc 13.6'"));
}

}  // namespace
}  // namespace matload
