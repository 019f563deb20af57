// A store the user cannot write reads: `runs`, `diff`, `export` and
// `baseline` open it read-only (ResultsStore::OpenReadOnly) and make no
// file beside it. Before, they exited 2 in a directory the user could not
// write (SQLite's WAL needs a -shm beside the file), and a read-only open
// in a directory they could write left a -shm and a -wal behind.
//
// The tests run as root, whom chmod does not stop. So that the directory's
// mode 555 and the file's 444 really refuse every write, matload runs as
// the unprivileged user "nobody" (setpriv) when the test is root; the test
// first shows that this user cannot create a file there. Whoever runs it,
// no -wal or -shm may appear.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/subprocess.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kRun[] = "conform-20261127T000000Z-00000001";

// AddFinishedRun adds a finished conform run of two cases, one a finding.
void AddFinishedRun(ResultsStore& store, const std::string& id) {
  RunRecord run{.id = id, .command = "conform", .command_line = "matload conform", .gpu_name = "matload fake GPU"};
  run.started = absl::FromUnixSeconds(1'800'000'000);
  ASSERT_TRUE(store.CreateRun(run).ok());
  ASSERT_TRUE(
      store
          .AddCases(id, {{.id = "ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit", .outcome = CaseOutcome::kPass},
                         {.id = "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit",
                          .outcome = CaseOutcome::kMismatch,
                          .finding = true}})
          .ok());
  run.status = "findings";
  run.exit_status = kExitFindings;
  run.ended = run.started + absl::Seconds(60);
  ASSERT_TRUE(store.UpdateRun(run).ok());
}

class ReadOnlyStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) /
            absl::StrCat("read_only_store_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Unlock();
    fs::remove_all(root_);
    fs::create_directories(root_ / "store");
    fs::create_directories(root_ / "exports");
    fs::permissions(root_, fs::perms::all);  // nobody reaches and writes the exports
    fs::permissions(root_ / "exports", fs::perms::all);
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(db());
    ASSERT_TRUE(store.ok()) << store.status();
    AddFinishedRun(*store, kRun);
  }
  void TearDown() override { Unlock(); }

  // Lock makes the store's directory 555 and its file 444, and matload run
  // AsUser; Unlock undoes it.
  void Lock() {
    locked_ = true;
    fs::permissions(db(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    fs::permissions(root_ / "store",
                    fs::perms::all & ~(fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write));
  }
  void Unlock() const {
    std::error_code error;
    fs::permissions(root_ / "store", fs::perms::owner_all, fs::perm_options::add, error);
    fs::permissions(db(), fs::perms::owner_write, fs::perm_options::add, error);
  }

  // AsUser runs `argv` as a user that chmod binds: this one, or nobody
  // when this one is root.
  ProcessResult AsUser(std::vector<std::string> argv) const {
    if (geteuid() == 0)
      argv.insert(argv.begin(), {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"});
    absl::StatusOr<ProcessResult> result = RunProcess(argv, std::chrono::seconds(120));
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{.exit_code = -1};
  }

  // Matload runs matload on this test's store: AsUser once it is locked.
  ProcessResult Matload(std::vector<std::string> arguments) const {
    arguments.insert(arguments.begin(), MATLOAD_BINARY);
    arguments.insert(arguments.end(), {"--db", db()});
    if (locked_) return AsUser(arguments);
    absl::StatusOr<ProcessResult> result = RunProcess(arguments, std::chrono::seconds(120));
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{.exit_code = -1};
  }

  // Beside lists the files in the store's directory but the store, sorted.
  std::vector<std::string> Beside() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root_ / "store")) {
      if (entry.path() != db()) names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // ExpectEveryReaderReads runs runs, diff, export and baseline; each must
  // read the store. `runs` names the runs `runs --json` must list.
  void ExpectEveryReaderReads(const std::vector<std::string>& runs) const {
    const ProcessResult listed = Matload({"runs", "--json"});
    EXPECT_EQ(listed.exit_code, kExitClean) << listed.standard_error;
    const nlohmann::json listing = nlohmann::json::parse(listed.standard_output, nullptr, false);
    std::vector<std::string> ids;
    if (listing.is_array()) {
      for (const nlohmann::json& run : listing) ids.push_back(run["id"]);
    }
    EXPECT_EQ(ids, runs) << listed.standard_output;
    const ProcessResult diff = Matload({"diff", kRun, kRun});
    EXPECT_EQ(diff.exit_code, kExitClean) << diff.standard_error;
    const fs::path exports = root_ / "exports";
    const ProcessResult exported =
        Matload({"export", kRun, "--junit", (exports / "junit.xml").string(), "--csv",
                 (exports / "results.csv").string(), "--html", (exports / "report.html").string()});
    EXPECT_EQ(exported.exit_code, kExitClean) << exported.standard_error;
    const ProcessResult baseline = Matload({"baseline", kRun, "--out", (exports / "baseline.csv").string()});
    EXPECT_EQ(baseline.exit_code, kExitClean) << baseline.standard_error;
    EXPECT_THAT(baseline.standard_output, HasSubstr("1 expected failures"));
  }

  std::string db() const { return (root_ / "store" / "results.sqlite").string(); }

  fs::path root_;
  bool locked_ = false;
};

TEST_F(ReadOnlyStoreTest, AStoreInADirectoryAndAFileNobodyCanWriteReads) {
  ASSERT_TRUE(Beside().empty());  // the writer closed: its WAL is in the file
  Lock();
  const ProcessResult probe = AsUser({"touch", (root_ / "store" / "probe").string()});
  ASSERT_NE(probe.exit_code, 0) << "the directory is writable to the test's user: the test would prove nothing";
  ExpectEveryReaderReads({kRun});
  EXPECT_EQ(Beside(), std::vector<std::string>());
}

// While a writer holds the store, the WAL holds transactions the file does
// not have yet: a reader sees them through the -wal and -shm the writer
// made, and makes nothing more.
TEST_F(ReadOnlyStoreTest, AStoreAWriterHoldsReadsWhatItCommitted) {
  absl::StatusOr<ResultsStore> writer = ResultsStore::Open(db());
  ASSERT_TRUE(writer.ok()) << writer.status();
  AddFinishedRun(*writer, "conform-20261127T000001Z-00000002");
  const std::vector<std::string> made = Beside();
  ASSERT_EQ(made.size(), 2u) << "a writer in WAL mode keeps a -wal and a -shm";
  Lock();
  ExpectEveryReaderReads({kRun, "conform-20261127T000001Z-00000002"});
  EXPECT_EQ(Beside(), made);
}

TEST_F(ReadOnlyStoreTest, ReadingAStoreInADirectoryItCouldWriteMakesNothingBesideIt) {
  ExpectEveryReaderReads({kRun});
  EXPECT_EQ(Beside(), std::vector<std::string>());
}

}  // namespace
}  // namespace matload
