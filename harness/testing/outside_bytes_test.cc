// Bytes from outside never abort matload: a run directory whose path is not
// UTF-8, a compiler's diagnostic and a GPU's name holding such bytes, tabs,
// newlines and a terminal's escape sequence are stored and printed as
// OutsideText (harness/platform/outside_text.h). Before, each made matload
// abort on nlohmann::json's type_error 316 (exit 134) and leave its run
// marked running, and a tab in a GPU's name split results.tsv's lines.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/outside_text.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// kNotUtf8 are two bytes that begin no UTF-8 sequence.
constexpr char kNotUtf8[] = "\xff\xfe";

// ReadText is the file at `path`, or "" if there is none.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

class OutsideBytesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(::testing::TempDir()) /
            absl::StrCat("outside_bytes_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "state");
  }

  // Matload runs matload with `arguments` and `environment` on this test's
  // store ($MATLOAD_DB) and the fake GPU (harness/testing/fake_libcuda.cc).
  ProcessResult Matload(std::vector<std::string> arguments, std::vector<std::string> environment = {}) const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    environment.insert(
        environment.end(),
        {absl::StrCat("MATLOAD_DB=", db()), absl::StrCat("LD_LIBRARY_PATH=", MATLOAD_FAKE_CUDA_DIR),
         "MATLOAD_FAKE_CUDA=normal", absl::StrCat("MATLOAD_FAKE_CUDA_STATE=", (root_ / "state").string())});
    absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(300), environment);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }

  // Runs is `matload runs --json`, parsed; it must succeed.
  nlohmann::json Runs() const {
    const ProcessResult listed = Matload({"runs", "--json"});
    EXPECT_EQ(listed.exit_code, kExitClean) << listed.standard_error;
    nlohmann::json runs = nlohmann::json::parse(listed.standard_output, nullptr, false);
    EXPECT_TRUE(runs.is_array() && runs.size() == 1) << listed.standard_output;
    return runs.is_array() && runs.size() == 1 ? runs[0] : nlohmann::json::object();
  }

  // ExpectEveryReaderWorks runs what reads a run back: runs, diff, export.
  void ExpectEveryReaderWorks(const std::string& run) const {
    const ProcessResult diff = Matload({"diff", "--json", run, run});
    EXPECT_EQ(diff.exit_code, kExitClean) << diff.standard_error;
    EXPECT_FALSE(nlohmann::json::parse(diff.standard_output, nullptr, false).is_discarded());
    const ProcessResult exported =
        Matload({"export", run, "--junit", (root_ / "junit.xml").string(), "--csv", (root_ / "results.csv").string(),
                 "--html", (root_ / "report.html").string()});
    EXPECT_EQ(exported.exit_code, kExitClean) << exported.standard_error;
  }

  std::string db() const { return (root_ / "results.sqlite").string(); }

  std::filesystem::path root_;
};

// Its run directory is made where the user said, stored and listed as
// text, and read back by every command.
TEST_F(OutsideBytesTest, ARunDirectoryWhosePathIsNotUtf8) {
  const std::string out = (root_ / absl::StrCat("bad", kNotUtf8, "\tdir")).string();
  const ProcessResult support =
      Matload({"support", "--target", "sm_90", "--include", "sm_90.ldmatrix.*.x1.*", "--out", out});
  ASSERT_EQ(support.exit_code, kExitClean) << support.standard_error;
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / "support.json"));
  const nlohmann::json run = Runs();
  EXPECT_EQ(run["directory"], OutsideText(out));
  EXPECT_THAT(run["directory"].get<std::string>(), HasSubstr("bad\\xff\\xfe\\x09dir"));
  EXPECT_EQ(run["status"], "clean");
  ExpectEveryReaderWorks(run["id"]);

  // A conform run into such a directory keeps its bundles' paths, which a
  // resumed run reads back, as text too.
  const std::string conform_out = (root_ / absl::StrCat("conform", kNotUtf8)).string();
  const ProcessResult conform = Matload({"conform", "--forms", R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.shared\.b16$)",
                                         "--variants", "2", "--near_miss=false", "--out", conform_out});
  EXPECT_EQ(conform.exit_code, kExitFindings) << conform.standard_error;  // the fake GPU's kernels store nothing
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(conform_out) / "results.tsv"));
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(conform_out) / "bundles" / "index.tsv"));
}

// A diagnostic is stored and reported as text, and the sweep still counts
// the compiler's rejections as disagreements (exit 1).
TEST_F(OutsideBytesTest, ACompilerDiagnosticThatIsNotUtf8) {
  const std::string out = (root_ / "support").string();
  const ProcessResult support = Matload({"support", "--target", "sm_90", "--include", "sm_90.ldmatrix.*", "--ptxas",
                                         SourceTreePath("harness/testing/fake_ptxas.sh"), "--out", out},
                                        {"MATLOAD_FAKE_PTXAS=reject-ldmatrix-bytes"});
  EXPECT_EQ(support.exit_code, kExitFindings) << support.standard_error;
  const std::string report = ReadText(std::filesystem::path(out) / "support.json");
  EXPECT_THAT(report, HasSubstr(R"(fake rejection \\xff\\xfe of\\x09ldmatrix \\x1b[2J)"));
  EXPECT_THAT(ReadText(std::filesystem::path(out) / "support.md"), Not(HasSubstr("\x1b")));
  const nlohmann::json run = Runs();
  EXPECT_EQ(run["status"], "findings");
  ExpectEveryReaderWorks(run["id"]);
}

// A ptxas whose path is not UTF-8 is swept by `matload history`, which
// writes its path into its report as text (it aborted writing history.json,
// found by the second attack on issue 34).
TEST_F(OutsideBytesTest, AHistoryOfAPtxasWhosePathIsNotUtf8) {
  const std::filesystem::path bin = root_ / absl::StrCat("bin", kNotUtf8);
  std::filesystem::create_directories(bin);
  std::filesystem::create_symlink(Ptxas::DefaultPath(), bin / "ptxas");
  const std::string out = (root_ / "history").string();
  const ProcessResult history = Matload({"history", "--target", "sm_90", "--include", "sm_90.ldmatrix.*.x1.*",
                                         "--ptxas", (bin / "ptxas").string(), "--out", out});
  EXPECT_LE(history.exit_code, kExitFindings) << history.standard_error;
  const nlohmann::json report =
      nlohmann::json::parse(ReadText(std::filesystem::path(out) / "history.json"), nullptr, false);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_THAT(report["toolkits"][0]["path"].get<std::string>(), HasSubstr("bin\\xff\\xfe"));
}

// ExpectPrintable expects `printed` to be valid UTF-8 with no terminal
// control sequence: what matload prints reaches a terminal.
void ExpectPrintable(const std::string& printed) {
  EXPECT_TRUE(IsUtf8(printed)) << printed;
  EXPECT_EQ(printed.find('\x1b'), std::string::npos) << printed;
}

// What matload prints that holds bytes from outside is PrintedText: the
// "wrote ..." and "run ... in ..." lines naming a --out, and a message
// echoing a flag's value. Before, the raw bytes reached the terminal, and
// an escape sequence in --out cleared it (the second attack on issue 34, D5).
TEST_F(OutsideBytesTest, WhatMatloadPrintsIsText) {
  const std::string out = (root_ / absl::StrCat("hout", kNotUtf8, "\x1b[2J")).string();
  const ProcessResult history = Matload({"history", "--target", "sm_90", "--include", "sm_90.ldmatrix.*.x1.*",
                                         "--ptxas", Ptxas::DefaultPath(), "--out", out});
  EXPECT_LE(history.exit_code, kExitFindings) << history.standard_error;
  ExpectPrintable(history.standard_output);
  EXPECT_THAT(history.standard_output, HasSubstr("hout\\xff\\xfe\\x1b[2J/history.md"));
  const ProcessResult bad_filter = Matload({"history", "--include", absl::StrCat(kNotUtf8, "\x1b[31m*")});
  EXPECT_EQ(bad_filter.exit_code, kExitUsage) << bad_filter.standard_error;
  ExpectPrintable(bad_filter.standard_error);
}

// A GPU's name is one field of results.tsv, and its UUID is stored whole.
TEST_F(OutsideBytesTest, AGpuNameThatIsNotUtf8) {
  const std::vector<std::string> name = {absl::StrCat("MATLOAD_FAKE_CUDA_NAME=NVIDIA H100 ", kNotUtf8, "\tx\ny")};
  const std::string out = (root_ / "conform").string();
  const ProcessResult conform = Matload({"conform", "--forms", R"(^ldmatrix\.sync\.aligned\.m8n8\.x1\.shared\.b16$)",
                                         "--variants", "2", "--near_miss=false", "--out", out},
                                        name);
  EXPECT_EQ(conform.exit_code, kExitFindings) << conform.standard_error;
  const std::string results = ReadText(std::filesystem::path(out) / "results.tsv");
  EXPECT_THAT(results, HasSubstr("NVIDIA H100 \\xff\\xfe\\x09x\\x0ay"));
  size_t cases = 0;
  for (absl::string_view line : absl::StrSplit(results, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    EXPECT_THAT(std::string(line), HasSubstr(".driver_jit\t")) << "a line split out of another:\n" << results;
    ++cases;
  }
  EXPECT_EQ(cases, 1u) << results;
  const nlohmann::json run = Runs();
  EXPECT_EQ(run["gpu"], "NVIDIA H100 \\xff\\xfe\\x09x\\x0ay");
  ResultsStore store = *ResultsStore::OpenReadOnly(db());
  EXPECT_EQ(store.FindRun(run["id"].get<std::string>())->gpu_uuid, "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff");
  ExpectEveryReaderWorks(run["id"]);

  const ProcessResult devices = Matload({"devices"}, name);
  EXPECT_THAT(devices.standard_output, HasSubstr("NVIDIA H100 \\xff\\xfe\\x09x\\x0ay"));
}

}  // namespace
}  // namespace matload
