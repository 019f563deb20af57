#include "harness/runs/results_store.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/process_start_time.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ValueOf is what `result` holds; a result that is not OK fails the test.
template <typename T>
T ValueOf(absl::StatusOr<T> result) {
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : T();
}

// ReadBytes is the whole file at `path`.
std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// RawExec runs `sql` on the database at `path` with plain sqlite3, as
// another program (or another matload) would.
void RawExec(const std::filesystem::path& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

// RawSelect is what `sql` selects from the database at `path`, read with
// plain sqlite3: each row's columns joined by '|', the rows by '\n'.
std::string RawSelect(const std::filesystem::path& path, const char* sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string rows;
  const auto add_row = [](void* out, int columns, char** values, char**) {
    auto* text = static_cast<std::string*>(out);
    if (!text->empty()) text->push_back('\n');
    for (int i = 0; i < columns; ++i) absl::StrAppend(text, i > 0 ? "|" : "", values[i] == nullptr ? "" : values[i]);
    return 0;
  };
  EXPECT_EQ(sqlite3_exec(db, sql, add_row, &rows, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
  return rows;
}

// Spawn runs `body` in a child process, whose exit status says whether it
// returned true. No store may be open in the parent when it forks.
pid_t Spawn(const std::function<bool()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body() ? 0 : 1);
  return pid;
}

// Succeeded waits for the child and says whether its body returned true.
bool Succeeded(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// FullRun is a run with every field set, quotes and unicode included.
RunRecord FullRun(const std::string& id) {
  return RunRecord{.id = id,
                   .command = "conform",
                   .command_line = "matload conform --note \"it's ünïcödé ✓\" --db 'x'",
                   .matload_version = "0.9.1 RelWithDebInfo",
                   .git_commit = "3f9a1c2e",
                   .toolkits = "ptxas 13.0.88; nvJitLink 13.0",
                   .driver = "CUDA driver 13000 (580.159.04)",
                   .gpu_name = "NVIDIA H100 80GB HBM3",
                   .gpu_uuid = "GPU-12345678-abcd",
                   .host = "gpu-host-1",
                   .directory = "/runs/conform-1",
                   .options = R"({"target": "sm_90", "quote": "\""})",
                   .parent = "conform-parent",
                   .shard = "2/4",
                   .started = absl::FromUnixMillis(1795000000123),
                   .ended = absl::FromUnixMillis(1795000061999),
                   .status = "findings",
                   .exit_status = 1};
}

// FullCase is a case with every field set.
CaseRecord FullCase(const std::string& id) {
  return CaseRecord{.id = id,
                    .outcome = CaseOutcome::kFlake,
                    .finding = true,
                    .counts = {{CaseOutcome::kMismatch, 3}, {CaseOutcome::kPass, 1LL << 40}},
                    .first_failures = {4, 7, -1, 1LL << 50},
                    .attempts = {CaseOutcome::kPass, CaseOutcome::kMismatch, CaseOutcome::kPass},
                    .detail = "lane 3: got 0x1 \"expected\" 0x2 — ✗\nsecond line",
                    .bundle = "bundles/wmma-ünï",
                    .seconds = 0.1};
}

// StoredCase is a case whose detail says which write stored it.
CaseRecord StoredCase(const std::string& id, const std::string& mark) {
  return CaseRecord{.id = id, .outcome = CaseOutcome::kPass, .detail = mark};
}

// ResultsStoreTest gives each test a database path in a new, empty
// temporary directory, which it removes afterwards.
class ResultsStoreTest : public ::testing::Test {
 protected:
  ResultsStoreTest() {
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / "results_store_test.XXXXXX").string();
    EXPECT_NE(mkdtemp(pattern.data()), nullptr) << pattern;
    path_ = std::filesystem::path(pattern) / "results.sqlite";
  }
  ~ResultsStoreTest() override { std::filesystem::remove_all(path_.parent_path()); }

  std::filesystem::path path_;
};

TEST_F(ResultsStoreTest, RunsAndCasesRoundTrip) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  const RunRecord run = FullRun("conform-20261124T052300Z-3f9a1c2e");
  const RunRecord unfinished{.id = "support-1"};  // times unknown, still running
  ASSERT_TRUE(store->CreateRun(run).ok());
  ASSERT_TRUE(store->CreateRun(unfinished).ok());
  EXPECT_EQ(ValueOf(store->FindRun(run.id)), run);
  EXPECT_EQ(ValueOf(store->FindRun(unfinished.id)), unfinished);

  const std::vector<CaseRecord> cases = {FullCase("ldmatrix.x4.\"quoted\""),
                                         CaseRecord{.id = "wmma_load.a.ünï", .outcome = CaseOutcome::kPass}};
  ASSERT_TRUE(store->AddCases(run.id, cases).ok());
  absl::StatusOr<std::vector<CaseRecord>> read = store->Cases(run.id);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, cases);
  EXPECT_EQ(ValueOf(store->Cases(unfinished.id)), (std::vector<CaseRecord>{}));
}

TEST_F(ResultsStoreTest, ReopenedDatabaseReadsBackWhatWasWritten) {
  const RunRecord run = FullRun("run-1");
  {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE(store->CreateRun(run).ok());
    ASSERT_TRUE(store->AddCases(run.id, {FullCase("a")}).ok());
    ASSERT_TRUE(store->PutArtifact(run.id, "partial", "{}").ok());
  }
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(store->path(), path_.string());
  EXPECT_EQ(ValueOf(store->FindRun(run.id)), run);
  EXPECT_EQ(ValueOf(store->Cases(run.id)), (std::vector<CaseRecord>{FullCase("a")}));
  EXPECT_EQ(ValueOf(store->Artifact(run.id, "partial")), std::optional<std::string>("{}"));
}

TEST_F(ResultsStoreTest, CreatingARunTwiceIsAlreadyExistsAndKeepsTheFirst) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(FullRun("run-1")).ok());
  RunRecord other = FullRun("run-1");
  other.command = "fuzz";
  const absl::Status status = store->CreateRun(other);
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
  EXPECT_THAT(status.message(), HasSubstr("run-1"));
  EXPECT_EQ(ValueOf(store->FindRun("run-1")), FullRun("run-1"));
}

TEST_F(ResultsStoreTest, AnUnknownRunIsNotFoundNamingItAndTheDatabase) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  const absl::Status status = store->FindRun("no-such-run").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_THAT(status.message(), HasSubstr("no-such-run"));
  EXPECT_THAT(status.message(), HasSubstr(store->path()));
  for (const absl::Status& each :
       {store->UpdateRun(FullRun("no-such-run")), store->AddCases("no-such-run", {FullCase("a")}),
        store->Cases("no-such-run").status(), store->CaseIds("no-such-run").status(),
        store->PutArtifact("no-such-run", "k", "v"), store->Artifact("no-such-run", "k").status(),
        store->ArtifactKeys("no-such-run").status(), store->ClaimRun("no-such-run"),
        store->ReleaseRun("no-such-run")}) {
    EXPECT_EQ(each.code(), absl::StatusCode::kNotFound) << each;
  }
}

TEST_F(ResultsStoreTest, UpdateRunRewritesEveryFieldButTheId) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
  const RunRecord ended = FullRun("run-1");
  ASSERT_TRUE(store->UpdateRun(ended).ok());
  EXPECT_EQ(ValueOf(store->FindRun("run-1")), ended);
}

TEST_F(ResultsStoreTest, RunsAreOldestFirstThenById) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  const absl::Time t = absl::FromUnixMillis(1795000000000);
  for (const RunRecord& run :
       {RunRecord{.id = "late", .started = t + absl::Hours(1)}, RunRecord{.id = "b", .started = t},
        RunRecord{.id = "a", .started = t}, RunRecord{.id = "unknown-start"}}) {
    ASSERT_TRUE(store->CreateRun(run).ok());
  }
  absl::StatusOr<std::vector<RunRecord>> runs = store->Runs();
  ASSERT_TRUE(runs.ok()) << runs.status();
  std::vector<std::string> ids;
  for (const RunRecord& run : *runs) ids.push_back(run.id);
  EXPECT_THAT(ids, ElementsAre("unknown-start", "a", "b", "late"));
}

TEST_F(ResultsStoreTest, AddCasesReplacesARecordedCaseAndCasesAreInByteOrder) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-2"}).ok());
  ASSERT_TRUE(store->AddCases("run-1", {StoredCase("b", "pass"), StoredCase("a", "pass")}).ok());
  ASSERT_TRUE(store->AddCases("run-2", {StoredCase("a", "mismatch")}).ok());
  ASSERT_TRUE(
      store->AddCases("run-1", {StoredCase("é", "pass"), StoredCase("a", "flake"), StoredCase("B", "pass")}).ok());
  EXPECT_EQ(ValueOf(store->Cases("run-1")),
            (std::vector<CaseRecord>{StoredCase("B", "pass"), StoredCase("a", "flake"), StoredCase("b", "pass"),
                                     StoredCase("é", "pass")}));
  EXPECT_EQ(ValueOf(store->CaseIds("run-1")), (std::vector<std::string>{"B", "a", "b", "é"}));
  EXPECT_EQ(ValueOf(store->Cases("run-2")), (std::vector<CaseRecord>{StoredCase("a", "mismatch")}));
}

TEST_F(ResultsStoreTest, RunsShareCaseNamesAndEmptyResultsAreStoredAsJson) {
  {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
    ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-2"}).ok());
    ASSERT_TRUE(store->AddCases("run-1", {StoredCase("a", "pass"), FullCase("b")}).ok());
    ASSERT_TRUE(store->AddCases("run-2", {FullCase("b"), StoredCase("c", "pass"), StoredCase("a", "pass")}).ok());
    EXPECT_EQ(ValueOf(store->Cases("run-2")),
              (std::vector<CaseRecord>{StoredCase("a", "pass"), FullCase("b"), StoredCase("c", "pass")}));
  }
  EXPECT_EQ(RawSelect(path_, "SELECT id, name FROM case_names ORDER BY id"), "1|a\n2|b\n3|c");
  EXPECT_EQ(RawSelect(path_,
                      "SELECT name, counts, first_failures, attempts FROM cases JOIN case_names ON id = name_id "
                      "WHERE run_key = 2 ORDER BY name"),
            "a|{}|[]|[]\nb|{\"mismatch\":3,\"pass\":1099511627776}|[4,7,-1,1125899906842624]|[\"pass\",\"mismatch\","
            "\"pass\"]\nc|{}|[]|[]");
}

TEST_F(ResultsStoreTest, AddCasesStoresAllOrNone) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
  ASSERT_TRUE(store->AddCases("run-1", {StoredCase("a", "pass")}).ok());
  CaseRecord unjudged_count = StoredCase("c", "flake");
  unjudged_count.counts = {{CaseOutcome::kPass, 1}, {CaseOutcome::kUnjudged, 1}};
  const absl::Status status = store->AddCases(
      "run-1", {StoredCase("a", "mismatch"), StoredCase("b", "pass"), unjudged_count, StoredCase("d", "")});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("case c"));
  EXPECT_EQ(ValueOf(store->Cases("run-1")), (std::vector<CaseRecord>{StoredCase("a", "pass")}));
}

TEST_F(ResultsStoreTest, CommitStoresCasesAndArtifactsTogetherOrNeither) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
  ASSERT_TRUE(store->Commit("run-1", {StoredCase("a", "pass")}, {{"partial", "1 case"}, {"seed", "7"}}).ok());
  CaseRecord unjudged_count = StoredCase("c", "flake");
  unjudged_count.counts = {{CaseOutcome::kUnjudged, 1}};
  const absl::Status status =
      store->Commit("run-1", {StoredCase("b", "pass"), unjudged_count}, {{"partial", "3 cases"}});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_EQ(ValueOf(store->Cases("run-1")), (std::vector<CaseRecord>{StoredCase("a", "pass")}));
  EXPECT_EQ(ValueOf(store->Artifact("run-1", "partial")), std::optional<std::string>("1 case"));
  EXPECT_EQ(ValueOf(store->ArtifactKeys("run-1")), (std::vector<std::string>{"partial", "seed"}));
}

TEST_F(ResultsStoreTest, ArtifactsAreKeptPerRunAndKey) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-2"}).ok());
  const std::string binary("a\0b\"ü", 6);
  ASSERT_TRUE(store->PutArtifact("run-1", "partial", "first").ok());
  ASSERT_TRUE(store->PutArtifact("run-1", "partial", binary).ok());
  ASSERT_TRUE(store->PutArtifact("run-1", "empty", "").ok());
  ASSERT_TRUE(store->PutArtifact("run-2", "partial", "other run").ok());
  EXPECT_EQ(ValueOf(store->Artifact("run-1", "partial")), std::optional<std::string>(binary));
  EXPECT_EQ(ValueOf(store->Artifact("run-1", "empty")), std::optional<std::string>(std::string()));
  EXPECT_EQ(ValueOf(store->Artifact("run-1", "missing")), std::optional<std::string>());
  EXPECT_EQ(ValueOf(store->Artifact("run-2", "partial")), std::optional<std::string>("other run"));
  EXPECT_EQ(ValueOf(store->ArtifactKeys("run-1")), (std::vector<std::string>{"empty", "partial"}));
}

TEST_F(ResultsStoreTest, ADatabaseFromANewerMatloadIsRefusedAndLeftAlone) {
  RawExec(path_, "CREATE TABLE meta (key TEXT PRIMARY KEY, value); INSERT INTO meta VALUES ('schema_version', 2);");
  const std::string before = ReadBytes(path_);
  const absl::Status status = ResultsStore::Open(path_).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr(path_.string()));
  EXPECT_THAT(status.message(), HasSubstr("written by a newer matload (schema 2; this matload reads up to 1)"));
  EXPECT_EQ(ReadBytes(path_), before);
}

TEST_F(ResultsStoreTest, AFileThatIsNotSqliteIsRefusedAndLeftAlone) {
  std::string garbage(8192, '\0');
  std::mt19937 random(7);
  for (char& byte : garbage) byte = static_cast<char>(random());
  std::ofstream(path_, std::ios::binary) << garbage;
  const absl::Status status = ResultsStore::Open(path_).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr(path_.string()));
  EXPECT_THAT(status.message(), HasSubstr("not a SQLite database, or it is corrupt"));
  EXPECT_EQ(ReadBytes(path_), garbage);
}

TEST_F(ResultsStoreTest, AnotherProgramsSqliteDatabaseIsRefused) {
  RawExec(path_, "CREATE TABLE photos (name TEXT);");
  const absl::Status status = ResultsStore::Open(path_).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr("not a matload results database"));
}

// A store whose tables have matload's names but not its columns is
// another program's (or damaged): refused on opening, exit status 2, not
// failing on the first query as if the disk had failed (exit status 4).
TEST_F(ResultsStoreTest, AForeignSchemaUnderMatloadsTableNamesIsRefused) {
  RawExec(path_,
          "CREATE TABLE meta (key TEXT PRIMARY KEY, value); INSERT INTO meta VALUES ('schema_version', 1); "
          "CREATE TABLE runs (id TEXT, started TEXT); CREATE TABLE cases (name TEXT);");
  const std::string before = ReadBytes(path_);
  for (const absl::Status& status : {ResultsStore::Open(path_).status(), ResultsStore::OpenReadOnly(path_).status()}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
    EXPECT_THAT(status.message(), HasSubstr("is not a matload results database: its table"));
  }
  EXPECT_EQ(ReadBytes(path_), before);
}

// A FIFO is not a store: refused at once (it once made SQLite fail as if
// the disk had: exit status 4), and never opened, which could block.
TEST_F(ResultsStoreTest, AFifoOrADirectoryIsRefused) {
  ASSERT_EQ(mkfifo(path_.c_str(), 0600), 0);
  for (const absl::Status& status :
       {ResultsStore::Open(path_).status(), ResultsStore::Open(path_.parent_path()).status()}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
    EXPECT_THAT(status.message(), HasSubstr("it is not a file"));
  }
}

TEST_F(ResultsStoreTest, AMissingDirectoryIsFailedPreconditionNamingIt) {
  const std::filesystem::path missing = path_.parent_path() / "missing" / "results.sqlite";
  const absl::Status status = ResultsStore::Open(missing).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr(missing.string()));
  EXPECT_FALSE(std::filesystem::exists(missing.parent_path()));
}

TEST_F(ResultsStoreTest, TwoProcessesWritingOneDatabaseAtOnceAreSerialised) {
  ASSERT_TRUE(ResultsStore::Open(path_).ok());
  std::vector<std::string> ids;
  for (int i = 0; i < 2000; ++i) ids.push_back(absl::StrFormat("case-%05d", i));
  const auto writer = [&](const std::string& run_id) {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    if (!store.ok() || !store->CreateRun(RunRecord{.id = run_id}).ok()) return false;
    for (size_t first = 0; first < ids.size(); first += 10) {  // many small transactions, to interleave
      std::vector<CaseRecord> batch;
      for (size_t i = first; i < first + 10; ++i) batch.push_back(StoredCase(ids[i], run_id));
      if (!store->AddCases(run_id, batch).ok()) return false;
    }
    return true;
  };
  const pid_t one = Spawn([&] { return writer("run-1"); });
  const pid_t two = Spawn([&] { return writer("run-2"); });
  EXPECT_TRUE(Succeeded(one));
  EXPECT_TRUE(Succeeded(two));
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const std::string run_id : {"run-1", "run-2"}) {
    std::vector<CaseRecord> expected;
    for (const std::string& id : ids) expected.push_back(StoredCase(id, run_id));
    EXPECT_EQ(ValueOf(store->Cases(run_id)), expected) << run_id;
  }
}

TEST_F(ResultsStoreTest, ADiskThatFillsUpIsDataLossAndKeepsWhatWasStored) {
  {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-1"}).ok());
    ASSERT_TRUE(store->AddCases("run-1", {StoredCase("kept", "pass")}).ok());
  }
  const pid_t child = Spawn([&] {  // a file size limit stands in for a full disk
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    const rlimit limit = {.rlim_cur = 1 << 20, .rlim_max = RLIM_INFINITY};
    if (!store.ok() || signal(SIGXFSZ, SIG_IGN) == SIG_ERR || setrlimit(RLIMIT_FSIZE, &limit) != 0) return false;
    std::vector<CaseRecord> cases;
    for (int i = 0; i < 20'000; ++i) cases.push_back(StoredCase(absl::StrFormat("case-%0100d", i), "pass"));
    const absl::Status status = store->AddCases("run-1", cases);
    std::cerr << "the child's AddCases: " << status << "\n";
    return status.code() == absl::StatusCode::kDataLoss && absl::StrContains(status.message(), path_.string());
  });
  EXPECT_TRUE(Succeeded(child));
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(ValueOf(store->Cases("run-1")), (std::vector<CaseRecord>{StoredCase("kept", "pass")}));
}

// ClaimInChild forks a child that claims `run_id` and then, if `stay` is
// set, stays alive until killed; it returns once the claim is made.
pid_t ClaimInChild(const std::filesystem::path& path, const std::string& run_id, bool stay) {
  int pipe_ends[2];
  EXPECT_EQ(pipe(pipe_ends), 0);
  const pid_t pid = Spawn([&] {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path);
    const char claimed = store.ok() && store->ClaimRun(run_id).ok() ? 'y' : 'n';
    store = absl::UnknownError("closed");  // close the database before reporting
    if (write(pipe_ends[1], &claimed, 1) != 1 || claimed != 'y') return false;
    while (stay) pause();
    return true;
  });
  close(pipe_ends[1]);
  char claimed = 'n';
  EXPECT_EQ(read(pipe_ends[0], &claimed, 1), 1);
  EXPECT_EQ(claimed, 'y');
  close(pipe_ends[0]);
  return pid;
}

TEST_F(ResultsStoreTest, ARunClaimedByALiveProcessCannotBeClaimed) {
  ASSERT_TRUE(ResultsStore::Open(path_)->CreateRun(RunRecord{.id = "run-1"}).ok());
  const pid_t child = ClaimInChild(path_, "run-1", /*stay=*/true);
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  const absl::Status status = store->ClaimRun("run-1");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr(absl::StrFormat("process %d on host ", child)));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_TRUE(store->ClaimRun("run-1").ok());  // now a dead process's claim
}

TEST_F(ResultsStoreTest, ADeadProcessesClaimIsTakenOver) {
  ASSERT_TRUE(ResultsStore::Open(path_)->CreateRun(RunRecord{.id = "run-1"}).ok());
  EXPECT_TRUE(Succeeded(ClaimInChild(path_, "run-1", /*stay=*/false)));
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_TRUE(store->ClaimRun("run-1").ok());
  EXPECT_TRUE(store->ClaimRun("run-1").ok());  // this process's own claim
}

TEST_F(ResultsStoreTest, AClaimFromAnotherHostHoldsAndAReleasedClaimDoesNot) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "elsewhere"}).ok());
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "released"}).ok());
  RawExec(path_, "UPDATE runs SET claim_pid = 1, claim_host = 'other-host' WHERE id = 'elsewhere'");
  const absl::Status status = store->ClaimRun("elsewhere");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(status.message(), HasSubstr("process 1 on host other-host"));
  EXPECT_TRUE(store->ReleaseRun("elsewhere").ok());  // not this process's claim: it stays
  EXPECT_EQ(store->ClaimRun("elsewhere").code(), absl::StatusCode::kFailedPrecondition);

  ASSERT_TRUE(store->ClaimRun("released").ok());
  ASSERT_TRUE(store->ReleaseRun("released").ok());
  store = absl::UnknownError("closed");  // no store may be open across fork
  EXPECT_TRUE(Succeeded(ClaimInChild(path_, "released", /*stay=*/false)));
}

// ClaimAs writes run `id`'s claim as a process with `pid` on this host
// would, with `claim_start` ("'PID:START'" or "NULL"), or, without one, as
// an older matload, whose store has no such column, does.
void ClaimAs(const std::filesystem::path& path, const std::string& id, pid_t pid,
             std::optional<std::string> claim_start) {
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof(host) - 1), 0);
  RawExec(path, absl::StrFormat("UPDATE runs SET claim_pid = %d, claim_host = '%s'%s WHERE id = '%s'", pid, host,
                                claim_start.has_value() ? absl::StrCat(", claim_start = ", *claim_start) : "", id)
                    .c_str());
}

// A killed run's PID may now be another live process's: the claim's start
// time tells them apart, so the run can be resumed and pruned. Before, the
// PID alone made it held for as long as that other process lived.
TEST_F(ResultsStoreTest, AClaimWhosePidAnotherProcessNowHasIsTakenOver) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  for (const char* id : {"reused", "live", "older", "overwritten"}) ASSERT_TRUE(store->CreateRun({.id = id}).ok());
  const pid_t other = getppid();  // a live process that is not this one
  const std::optional<std::uint64_t> started = ProcessStartTime(other);
  ASSERT_TRUE(started.has_value());
  ClaimAs(path_, "reused", other, absl::StrFormat("'%d:%d'", other, *started + 1));
  ClaimAs(path_, "live", other, absl::StrFormat("'%d:%d'", other, *started));
  ClaimAs(path_, "older", other, "NULL");  // an older matload's claim: the PID is all there is
  ClaimAs(path_, "overwritten", other, absl::StrFormat("'%d:%d'", other + 1, *started + 1));
  EXPECT_FALSE(ValueOf(store->HeldByAnother("reused")));
  EXPECT_TRUE(store->ClaimRun("reused").ok());
  EXPECT_TRUE(ValueOf(store->HeldByAnother("live")));
  EXPECT_EQ(store->ClaimRun("live").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(ValueOf(store->HeldByAnother("older")));
  EXPECT_TRUE(ValueOf(store->HeldByAnother("overwritten")));
  EXPECT_EQ(RawSelect(path_, "SELECT claim_start FROM runs WHERE id = 'reused'"),
            absl::StrCat(getpid(), ":", *ProcessStartTime(getpid())));
  ASSERT_TRUE(store->ReleaseRun("reused").ok());
  EXPECT_EQ(RawSelect(path_, "SELECT claim_pid IS NULL, claim_start IS NULL FROM runs WHERE id = 'reused'"), "1|1");
}

// A store an older matload made has no claim_start: reading it adds
// nothing, and opening it to write adds the column and changes nothing
// else, so that the older matload still reads and writes it.
TEST_F(ResultsStoreTest, AStoreAnOlderMatloadMadeReadsAndGainsClaimStart) {
  ASSERT_TRUE(ResultsStore::Open(path_)->CreateRun({.id = "run-1"}).ok());
  RawExec(path_, "ALTER TABLE runs DROP COLUMN claim_start");
  ClaimAs(path_, "run-1", getppid(), std::nullopt);
  const char* const has_column = "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'claim_start'";
  {
    absl::StatusOr<ResultsStore> reader = ResultsStore::OpenReadOnly(path_);
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_TRUE(ValueOf(reader->HeldByAnother("run-1")));
    EXPECT_EQ(ValueOf(reader->Runs()).size(), 1u);
  }
  EXPECT_EQ(RawSelect(path_, has_column), "0");
  absl::StatusOr<ResultsStore> writer = ResultsStore::Open(path_);
  ASSERT_TRUE(writer.ok()) << writer.status();
  EXPECT_EQ(RawSelect(path_, has_column), "1");
  EXPECT_EQ(RawSelect(path_, "SELECT value FROM meta WHERE key = 'schema_version'"), "1");
  EXPECT_TRUE(ValueOf(writer->HeldByAnother("run-1")));
}

// registry_digest is added the way claim_start was: a store an older
// matload made (without the column) reads, its runs with no digest; opened
// to write it gains the column, nothing else changes, and the schema stays
// version 1. A run records its digest, and one without leaves it NULL.
TEST_F(ResultsStoreTest, AStoreAnOlderMatloadMadeReadsAndGainsRegistryDigest) {
  ASSERT_TRUE(ResultsStore::Open(path_)->CreateRun({.id = "run-1"}).ok());
  RawExec(path_, "ALTER TABLE runs DROP COLUMN registry_digest");
  const char* const has_column = "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'registry_digest'";
  {
    absl::StatusOr<ResultsStore> reader = ResultsStore::OpenReadOnly(path_);
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ(ValueOf(reader->FindRun("run-1")).registry_digest, "");
  }
  EXPECT_EQ(RawSelect(path_, has_column), "0");
  absl::StatusOr<ResultsStore> writer = ResultsStore::Open(path_);
  ASSERT_TRUE(writer.ok()) << writer.status();
  EXPECT_EQ(RawSelect(path_, has_column), "1");
  EXPECT_EQ(RawSelect(path_, "SELECT value FROM meta WHERE key = 'schema_version'"), "1");
  EXPECT_EQ(RawSelect(path_, "SELECT count(*) FROM runs WHERE registry_digest IS NULL"), "1");
  ASSERT_TRUE(writer->CreateRun({.id = "run-2", .registry_digest = std::string(64, 'a')}).ok());
  EXPECT_EQ(ValueOf(writer->FindRun("run-2")).registry_digest, std::string(64, 'a'));
  EXPECT_EQ(ValueOf(ResultsStore::OpenReadOnly(path_)->FindRun("run-2")).registry_digest, std::string(64, 'a'));
}

// A value read back that no matload writes is a damaged file: kDataLoss
// (exit status 4), never some other outcome. A flipped byte made "pass"
// "pxss", which the JUnit export wrote as a passing testcase.
TEST_F(ResultsStoreTest, AValueNoMatloadWritesIsDataLossWhenReadAndRefusedWhenWritten) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun({.id = "run-1", .status = "clean", .exit_status = 0}).ok());
  ASSERT_TRUE(store->AddCases("run-1", {StoredCase("a", "pass")}).ok());
  for (const auto& [sql, said] : std::vector<std::pair<std::string, std::string>>{
           {"UPDATE cases SET outcome = 'pxss'", "case a has outcome 'pxss'"},
           {"UPDATE cases SET finding = 7", "case a has finding 7"},
           {R"(UPDATE cases SET attempts = '["pass","pxss"]')", "case a has attempt 'pxss'"}}) {
    RawExec(path_, sql.c_str());
    const absl::Status status = store->Cases("run-1").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_THAT(status.message(), HasSubstr(said));
    EXPECT_THAT(status.message(), HasSubstr("is damaged"));
    RawExec(path_, "UPDATE cases SET outcome = 'pass', finding = 0, attempts = '[]'");
  }
  ASSERT_TRUE(store->Cases("run-1").ok());
  for (const auto& [sql, said] : std::vector<std::pair<std::string, std::string>>{
           {"UPDATE runs SET status = 'clexn'", "run run-1 has status 'clexn'"},
           {"UPDATE runs SET exit_status = 77", "run run-1 has exit status 77"}}) {
    RawExec(path_, sql.c_str());
    EXPECT_EQ(store->Runs().status().code(), absl::StatusCode::kDataLoss);
    const absl::Status status = store->FindRun("run-1").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_THAT(status.message(), HasSubstr(said));
    RawExec(path_, "UPDATE runs SET status = 'clean', exit_status = 0");
  }
  // A case nobody gave an outcome, or an attempt without one, is refused,
  // never stored as the pass it would read back as.
  EXPECT_EQ(store->AddCases("run-1", {CaseRecord{.id = "b"}}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      store
          ->AddCases("run-1",
                     {CaseRecord{.id = "c", .outcome = CaseOutcome::kFlake, .attempts = {{}, CaseOutcome::kPass}}})
          .code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store->CreateRun({.id = "run-2", .status = "done"}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValueOf(store->CaseIds("run-1")), std::vector<std::string>{"a"});
}

// Text an older matload stored raw (a run directory whose path is not
// UTF-8) is read as OutsideText, so that listing it never aborts.
TEST_F(ResultsStoreTest, TextAnOlderMatloadStoredRawReadsAsUtf8) {
  ASSERT_TRUE(ResultsStore::Open(path_)->CreateRun({.id = "run-1"}).ok());
  RawExec(path_, "UPDATE runs SET directory = '/tmp/bad' || CAST(X'FFFE' AS TEXT)");
  EXPECT_EQ(ValueOf(ResultsStore::OpenReadOnly(path_)->FindRun("run-1")).directory, "/tmp/bad\\xff\\xfe");
}

// Deleting runs takes their cases and artifacts and leaves the other runs
// as they were; a run that a live process may be writing, or an unknown
// one, deletes nothing at all. Once that process is gone, its run (still
// marked running) can go.
TEST_F(ResultsStoreTest, DeleteRunsTakesTheirCasesAndArtifactsAllOrNone) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-4"}).ok());  // being written by a child
  for (const char* id : {"run-1", "run-2", "run-3"}) {
    ASSERT_TRUE(store->CreateRun(RunRecord{.id = id, .status = "clean"}).ok());
    ASSERT_TRUE(store->Commit(id, {StoredCase("a", id), StoredCase("b", "pass")}, {{"partial", id}}).ok());
  }
  const pid_t child = ClaimInChild(path_, "run-4", /*stay=*/true);
  EXPECT_TRUE(ValueOf(store->HeldByAnother("run-4")));
  EXPECT_FALSE(ValueOf(store->HeldByAnother("run-1")));
  const absl::Status held = store->DeleteRuns({"run-1", "run-4"});
  EXPECT_EQ(held.code(), absl::StatusCode::kFailedPrecondition) << held;
  EXPECT_THAT(held.message(), HasSubstr(absl::StrFormat("run 'run-4' is being written by process %d", child)));
  EXPECT_EQ(store->DeleteRuns({"run-1", "run-9"}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ValueOf(store->Runs()).size(), 4u);
  EXPECT_EQ(ValueOf(store->Cases("run-1")).size(), 2u);

  ASSERT_TRUE(store->DeleteRuns({"run-1", "run-3"}).ok());
  std::vector<std::string> left;
  for (const RunRecord& run : ValueOf(store->Runs())) left.push_back(run.id);
  EXPECT_EQ(left, (std::vector<std::string>{"run-2", "run-4"}));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(ValueOf(store->HeldByAnother("run-4")));
  EXPECT_TRUE(store->DeleteRuns({"run-4"}).ok());
  EXPECT_EQ(store->Cases("run-1").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ValueOf(store->Cases("run-2")),
            (std::vector<CaseRecord>{StoredCase("a", "run-2"), StoredCase("b", "pass")}));
  EXPECT_EQ(ValueOf(store->Artifact("run-2", "partial")), std::optional<std::string>("run-2"));
  // No orphan rows: a new run, which SQLite gives the newest deleted run's
  // key (run-3's), starts empty.
  ASSERT_TRUE(store->CreateRun(RunRecord{.id = "run-5"}).ok());
  EXPECT_TRUE(ValueOf(store->Cases("run-5")).empty());
  EXPECT_TRUE(ValueOf(store->ArtifactKeys("run-5")).empty());
}

TEST_F(ResultsStoreTest, DefaultPathIsTheFlagThenTheEnvironmentThenTheWorkingDirectory) {
  unsetenv("MATLOAD_DB");
  EXPECT_EQ(ResultsStore::DefaultPath(""), "matload-results.sqlite");
  setenv("MATLOAD_DB", "", 1);
  EXPECT_EQ(ResultsStore::DefaultPath(""), "matload-results.sqlite");
  setenv("MATLOAD_DB", "/data/env.sqlite", 1);
  EXPECT_EQ(ResultsStore::DefaultPath(""), "/data/env.sqlite");
  EXPECT_EQ(ResultsStore::DefaultPath("flag.sqlite"), "flag.sqlite");
  unsetenv("MATLOAD_DB");
}

}  // namespace
}  // namespace matload
