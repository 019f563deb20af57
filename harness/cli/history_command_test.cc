// `matload history` end to end on a fake toolkit set: harness/testing/
// fake_ptxas.sh under other releases (12.4.131, which rejects every ldmatrix
// form, and 12.9.86, which rewords one message) beside a copy of the
// toolkit's own ptxas, over sm_80's m8n8 ldmatrix forms. A missing
// toolkit is bad input (exit 2), a truncated one infrastructure (exit 4),
// and a history run again compiles nothing.
#include "harness/cli/history_command.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/source_tree.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// ReadText is the file at `path`, or empty.
std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

class HistoryCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(testing::TempDir()) / testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
    // ptxas names itself in its messages by the name it was run as: "ptxas".
    std::filesystem::create_directories(root_ / "real");
    real_ = (root_ / "real" / "ptxas").string();
    std::filesystem::copy_file(Ptxas::DefaultPath(), real_);
  }

  // FakeToolkit writes a ptxas that claims `release`, speaks `speaks` and
  // runs fake_ptxas.sh in `mode` over the real ptxas, and gives its path.
  std::string FakeToolkit(const std::string& release, const std::string& speaks, const std::string& mode) const {
    const std::filesystem::path path = root_ / absl::StrCat("ptxas-", release);
    std::ofstream(path) << "#!/usr/bin/env bash\n"
                        << "export MATLOAD_FAKE_PTXAS=" << mode << " MATLOAD_FAKE_PTXAS_RELEASE=" << release
                        << " MATLOAD_FAKE_PTXAS_SPEAKS=" << speaks << " MATLOAD_REAL_PTXAS=" << Ptxas::DefaultPath()
                        << "\nexec " << SourceTreePath("harness/testing/fake_ptxas.sh") << " \"$@\"\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
  }

  // History runs the history of `ptxas` over sm_80's m8n8 ldmatrix forms
  // into root_/`out`, with the results store root_/results.sqlite.
  int History(const std::vector<std::string>& ptxas, const std::string& out) {
    HistoryOptions options{.ptxas_paths = ptxas,
                           .common = {7, 8},
                           .targets = {*ParseTarget("sm_80")},
                           .filter = *CaseFilter::Make("", {"sm_80.ldmatrix.*.m8n8.*"}, {}),
                           .db = (root_ / "results.sqlite").string(),
                           .out = (root_ / out).string(),
                           .command = "matload history"};
    std::stringstream err;
    output_.str("");
    const int status = RunHistory(options, output_, err);
    errors_ = err.str();
    return status;
  }

  std::filesystem::path root_;
  std::string real_;
  std::stringstream output_;
  std::string errors_;
};

TEST_F(HistoryCommandTest, FakeReleasesMakeAHistory) {
  const int status = History(
      {real_, FakeToolkit("12.9.86", "8.8", "reword"), FakeToolkit("12.4.131", "8.4", "reject-ldmatrix")}, "history");
  EXPECT_EQ(status, kExitFindings) << "12.4.131 rejects legal forms under no registry entry: " << errors_;
  const std::string md = ReadText(root_ / "history" / "history.md");
  EXPECT_THAT(md, HasSubstr("# Support history: ptxas 12.4.131 to ptxas 13.0.88"));
  EXPECT_THAT(md, HasSubstr("| ptxas 12.4.131 | 8.4 | its message | 8.4, 7.8 |"));
  EXPECT_THAT(md, HasSubstr("| ldmatrix | sm_80 |")) << "the form classes";
  EXPECT_THAT(md, HasSubstr("| 12.9.86 | 13.0.88 | `ldmatrix.sync.aligned.m8n8.x1.b16` |"))
      << "first accepted by 12.9.86, still by 13.0.88";
  EXPECT_THAT(md, HasSubstr("### ptxas 12.4.131 to ptxas 12.9.86"));
  EXPECT_THAT(md, HasSubstr("| newly accepted | 7.8 |"));
  EXPECT_THAT(md, HasSubstr("### ptxas 12.9.86 to ptxas 13.0.88"));
  EXPECT_THAT(md, HasSubstr("| reworded | 7.8 |")) << "13.0.88 says 'Unknown modifier' again";
  EXPECT_THAT(ReadText(root_ / "history" / "disagreements.tsv"), HasSubstr("\t12.4.131\t12.4.131\t12.9.86\t"))
      << "rejected by 12.4.131 alone, fixed in 12.9.86";
  EXPECT_TRUE(std::filesystem::exists(root_ / "history" / "report.html")) << "a run of the results store";
  EXPECT_THAT(output_.str(), HasSubstr("ptxas 12.4.131\tPTX 8.4\t1 targets"));
}

TEST_F(HistoryCommandTest, AHistoryRunAgainCompilesNothing) {
  const int cold = History({real_}, "cold");
  ASSERT_TRUE(cold == kExitClean || cold == kExitFindings) << errors_;
  EXPECT_THAT(output_.str(), Not(HasSubstr(" 0 compiled;")));
  ASSERT_EQ(History({real_}, "warm"), cold) << errors_;
  EXPECT_THAT(output_.str(), HasSubstr(" 0 compiled;"));
  const auto same = [this](const char* file) {
    return ReadText(root_ / "cold" / file) == ReadText(root_ / "warm" / file);
  };
  EXPECT_TRUE(same("forms.tsv"));
  EXPECT_TRUE(same("disagreements.tsv"));
  EXPECT_TRUE(same("misdiagnoses.tsv"));
}

// A --ptxas that names no file, or an empty element of the list ("P1,,P2"),
// is a typo: bad input (exit 2), which a nightly does not retry as it
// retries a broken machine. Before, both were exit 4 (the second attack on
// issue 34, D7).
TEST_F(HistoryCommandTest, AMissingOrEmptyToolkitPathIsAUsageError) {
  EXPECT_EQ(History({real_, (root_ / "no-such-ptxas").string()}, "missing"), kExitUsage);
  EXPECT_THAT(errors_, HasSubstr("no-such-ptxas, which does not exist"));
  EXPECT_EQ(History({real_, "", real_}, "empty"), kExitUsage);
  EXPECT_THAT(errors_, HasSubstr("--ptxas holds an empty path"));
}

TEST_F(HistoryCommandTest, ATruncatedToolkitIsInfrastructure) {
  const std::filesystem::path truncated = root_ / "truncated-ptxas";
  std::ofstream(truncated, std::ios::binary) << ReadText(real_).substr(0, 1 << 20);
  std::filesystem::permissions(truncated, std::filesystem::perms::owner_all);
  EXPECT_EQ(History({truncated.string()}, "truncated"), kExitInfrastructure) << errors_;
  EXPECT_FALSE(std::filesystem::exists(root_ / "truncated" / "history.md"));
}

TEST_F(HistoryCommandTest, AReleaseGivenTwiceIsAUsageError) {
  EXPECT_EQ(History({real_, FakeToolkit("13.0.88", "9.0", "real")}, "twice"), kExitUsage);
  EXPECT_THAT(errors_, HasSubstr("gives ptxas 13.0.88 twice"));
}

}  // namespace
}  // namespace matload
