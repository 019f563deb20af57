// matload triage and matload history CASE_ID, the commands, end to end: a conform finding's bundle on
// the fake GPU (whose kernels store nothing, so every build of every form
// fails alike: the triage must say so, reduce, and write every file), the
// same finding named RUN:CASE_ID, a support case with the toolkit's ptxas,
// and bad input, which is exit 2 and writes nothing.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/input_files.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;

// ReadText is the file at `path`, or empty where there is none.
std::string ReadText(const std::filesystem::path& path) { return ReadFileBytes(path).value_or(""); }

class TriageCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "state");
  }

  // Matload runs matload on the fake GPU (in `mode`, fake_libcuda.cc) with
  // the store in root_.
  ProcessResult Matload(std::vector<std::string> arguments, const std::string& mode = "normal") const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    arguments.push_back("--db=" + (root_ / "results.sqlite").string());
    absl::StatusOr<ProcessResult> result =
        RunProcess(arguments, std::chrono::seconds(300),
                   {absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR),
                    absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (root_ / "state").string()),
                    absl::StrCat("MATLOAD_FAKE_CUDA=", mode)});
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Conform runs one ldmatrix form on the fake GPU: one finding, bundled.
  void Conform() const {
    const ProcessResult run = Matload({"conform", "--forms", "^ldmatrix.sync.aligned.m8n8.x2.shared.b16$",
                                       "--variants", "4", "--near_miss=false", "--workers", "1", "--out",
                                       (root_ / "run").string()});
    ASSERT_EQ(run.exit_code, kExitFindings) << run.standard_error;
  }

  std::filesystem::path Bundle() const { return root_ / "run" / "bundles" / "001-ldmatrix-mismatch"; }

  std::filesystem::path root_;
};

TEST_F(TriageCommandTest, ABundleOnTheFakeGpuIsTriagedReducedAndWritten) {
  Conform();
  const ProcessResult triage =
      Matload({"triage", Bundle().string(), "--repeats", "2", "--ptxas", "none", "--out", (root_ / "t").string()});
  ASSERT_EQ(triage.exit_code, kExitClean) << triage.standard_error;
  EXPECT_THAT(triage.standard_output, HasSubstr("reproducible (2 of 2 runs fail so) on GPU 0"));
  EXPECT_THAT(triage.standard_output, HasSubstr("Culprit: GPU or code generation"));
  const nlohmann::json json = nlohmann::json::parse(ReadText(root_ / "t" / "triage.json"));
  EXPECT_EQ(json["builds"].size(), 4u);
  EXPECT_EQ(json["reduction"]["data"], "tagged");
  EXPECT_EQ(json["reduction"]["form"], "ldmatrix.sync.aligned.m8n8.x1.shared.b16") << "the .x1 sibling fails so too";
  for (const char* file : {"triage.md", "triage.html", "original/kernel.ptx", "original/repro.cpp",
                           "reduced/kernel.ptx", "reduced/record.bin", "reduced/expected.bin", "reduced/repro.cpp",
                           "builds/ptxas--O0/sass.txt"}) {
    EXPECT_TRUE(std::filesystem::exists(root_ / "t" / file)) << file;
  }
}

TEST_F(TriageCommandTest, AConformCaseIsFoundByRunAndCaseId) {
  Conform();
  const std::string results = ReadText(root_ / "run" / "results.tsv");
  const std::string case_id = "ldmatrix.sync.aligned.m8n8.x2.shared.b16.addr64.driver_jit";
  ASSERT_THAT(results, HasSubstr(case_id));
  const ProcessResult triage = Matload({"triage", "conform@latest:" + case_id, "--repeats", "1", "--ptxas", "none",
                                        "--out", (root_ / "t").string()});
  EXPECT_EQ(triage.exit_code, kExitClean) << triage.standard_error;
  EXPECT_THAT(ReadText(root_ / "t" / "triage.md"),
              HasSubstr("## Has it ever passed\n\nPassed in 0 of 1 runs in the store; first a finding in conform-"));
}

TEST_F(TriageCommandTest, WithoutAGpuTheCompileOnlyPartsRunThenExitThree) {
  Conform();
  const ProcessResult triage =
      Matload({"triage", Bundle().string(), "--ptxas", "none", "--out", (root_ / "t").string()}, "init-fails");
  EXPECT_EQ(triage.exit_code, kExitCompileOnly) << triage.standard_error;
  const std::string md = ReadText(root_ / "t" / "triage.md");
  EXPECT_THAT(md, HasSubstr("not run: no GPU here"));
  EXPECT_THAT(md, HasSubstr("| ptxas -O3 | ptxas 13.0.88 | built; not run: no GPU here | LDG.E.64 x3 LDSM.16.M88.2"));
  EXPECT_TRUE(std::filesystem::exists(root_ / "t" / "builds" / "ptxas--O0" / "sass.txt"));
}

// matload history CASE_ID: the case in every run of the store.
TEST_F(TriageCommandTest, HistoryOfACaseListsItsRuns) {
  Conform();
  const std::string case_id = "ldmatrix.sync.aligned.m8n8.x2.shared.b16.addr64.driver_jit";
  const ProcessResult text = Matload({"history", case_id});
  ASSERT_EQ(text.exit_code, kExitClean) << text.standard_error;
  EXPECT_THAT(text.standard_output,
              HasSubstr(case_id + ": Passed in 0 of 1 runs in the store; first a finding in conform-"));
  EXPECT_THAT(text.standard_output, HasSubstr("\tmatload fake GPU\t"));
  const ProcessResult json = Matload({"history", case_id, "--json"});
  ASSERT_EQ(json.exit_code, kExitClean) << json.standard_error;
  const nlohmann::json parsed = nlohmann::json::parse(json.standard_output);
  ASSERT_EQ(parsed["runs"].size(), 1u);
  EXPECT_EQ(parsed["runs"][0]["outcome"], "mismatch");
  EXPECT_EQ(parsed["runs"][0]["finding"], true);
  EXPECT_EQ(Matload({"history", "no.such.case"}).exit_code, kExitUsage);
}

// FakeRelease writes a ptxas of `release` that speaks PTX `speaks`: the
// toolkit's own, renamed (harness/testing/fake_ptxas.sh), and gives its path.
std::string FakeRelease(const std::filesystem::path& root, const std::string& release, const std::string& speaks) {
  const std::filesystem::path path = root / ("ptxas-" + release);
  std::ofstream(path) << "#!/bin/sh\nMATLOAD_FAKE_PTXAS=real MATLOAD_FAKE_PTXAS_RELEASE=" << release
                      << " MATLOAD_FAKE_PTXAS_SPEAKS=" << speaks << " exec "
                      << SourceTreePath("harness/testing/fake_ptxas.sh") << " \"$@\"\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

// A fake toolkit set: an older release is given the kernel rebuilt at the
// PTX version it speaks; both fail on the fake GPU, so the range says so.
TEST_F(TriageCommandTest, TheRangeProbesEachReleaseAtItsOwnPtxVersion) {
  Conform();
  const std::string releases = FakeRelease(root_, "13.6.1", "9.6") + "," + FakeRelease(root_, "12.4.131", "8.4");
  const ProcessResult triage =
      Matload({"triage", Bundle().string(), "--repeats", "1", "--ptxas", releases, "--out", (root_ / "t").string()});
  ASSERT_EQ(triage.exit_code, kExitClean) << triage.standard_error;
  const nlohmann::json range = nlohmann::json::parse(ReadText(root_ / "t" / "triage.json"))["range"];
  EXPECT_EQ(range["verdict"],
            "fails on both ends, ptxas 12.4.131 and ptxas 13.6.1: no transition to bisect among the releases given");
  ASSERT_EQ(range["probed"].size(), 2u);
  EXPECT_EQ(range["probed"][0]["release"], "ptxas 13.6.1") << "the newest end first";
  EXPECT_EQ(range["probed"][1]["state"], "fails");
}

TEST_F(TriageCommandTest, AGpuLostMidTriageIsExitFourAndWritesNoReport) {
  Conform();
  const ProcessResult triage =
      Matload({"triage", Bundle().string(), "--ptxas", "none", "--out", (root_ / "t").string()}, "lost-from-launch:3");
  EXPECT_EQ(triage.exit_code, kExitInfrastructure) << triage.standard_error;
  EXPECT_FALSE(std::filesystem::exists(root_ / "t" / "triage.md"));
}

TEST_F(TriageCommandTest, BadInputIsExitTwoAndWritesNothing) {
  Conform();
  std::filesystem::create_directories(root_ / "full");
  std::ofstream(root_ / "full" / "mine.txt") << "mine";
  const std::vector<std::vector<std::string>> bad = {
      {"triage", (root_ / "nothing").string(), "--out", (root_ / "t").string()},
      {"triage", (root_ / "state").string(), "--out", (root_ / "t").string()},
      {"triage", "conform@latest:no.such.case", "--out", (root_ / "t").string()},
      {"triage", (root_ / "state").string()},
      {"triage", (root_ / "state").string(), "--out", (root_ / "full").string()},
      {"triage", Bundle().string(), "--ptxas", "/bin/true", "--out", (root_ / "t").string()},
  };
  for (const std::vector<std::string>& arguments : bad) {
    const ProcessResult triage = Matload(arguments);
    EXPECT_EQ(triage.exit_code, kExitUsage) << arguments[1] << ": " << triage.standard_error;
    EXPECT_THAT(triage.standard_error, HasSubstr("matload")) << arguments[1];
  }
  EXPECT_FALSE(std::filesystem::exists(root_ / "t"));
  EXPECT_EQ(ReadText(root_ / "full" / "mine.txt"), "mine");
}

}  // namespace
}  // namespace matload
