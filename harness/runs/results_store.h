// ResultsStore: the SQLite database that keeps every run and each of its
// cases (case_record.h), so that runs can be listed, resumed, compared with
// a baseline and exported long after the process that ran them is gone.
//
// One file holds many runs, and several processes may write it at once (two
// runs on two GPUs, say): every write is one transaction, taken with
// BEGIN IMMEDIATE and a busy timeout, so concurrent writers are serialised
// and an error never leaves half a write behind or changes rows already
// stored. Case names are interned, so a run of 500,000 cases stays small.
// Times are kept to the millisecond, as RFC 3339 UTC text.
// Errors name the database and say what failed:
//   kFailedPrecondition  the path cannot be opened or created, the file is
//                        not a SQLite database (or is corrupt) or is
//                        another program's, it was written by a newer
//                        matload, or another live process claimed the run;
//   kDataLoss            the disk is full or failed (SQLITE_FULL, _IOERR),
//                        or a stored value cannot be read back: an
//                        outcome or status no matload writes
//                        (stored_words.h) is a damaged file, never read
//                        as another;
//   kUnavailable         another process held the lock for too long;
//   kInvalidArgument     a record holds a word no store holds, or a
//                        case an outcome nobody judged (a bug);
//   kNotFound            no such run; kAlreadyExists: the run exists.
#ifndef MATLOAD_HARNESS_RUNS_RESULTS_STORE_H_
#define MATLOAD_HARNESS_RUNS_RESULTS_STORE_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/runs/case_record.h"

struct sqlite3;

namespace matload {

// KeptVerdict is one row of the verdict cache (verdict_cache.h says what
// its texts mean; the store only keeps them).
struct KeptVerdict {
  std::string toolchain;
  std::string question;
  std::string answer;
  std::string seal;
};

namespace results_store_internal {
class Statement;
}  // namespace results_store_internal

// ResultsStore is one open results database. It is move-only: it owns the
// SQLite connection, which it closes when destroyed. Its calls must not
// overlap: use one per thread, or guard it with a mutex.
class ResultsStore {
 public:
  // kSchemaVersion is the newest schema this code reads and writes; it is
  // kept in the database's `meta` table under "schema_version".
  static constexpr int kSchemaVersion = 1;

  // Open opens the database at `path`, creating the file and its tables if
  // needed. Before it changes anything it checks that the file is a results
  // database this code can read, so a file it refuses is left as it was.
  static absl::StatusOr<ResultsStore> Open(const std::filesystem::path& path);
  // OpenReadOnly opens an existing results database only to read it, so
  // that a read-only copy can be listed, diffed and exported, and a file
  // that is not one is refused (kFailedPrecondition) and never written. It
  // makes no file beside it (no -wal or -shm): a store on a read-only mount,
  // in a directory the user cannot write or in a file they cannot write
  // reads as any other.
  static absl::StatusOr<ResultsStore> OpenReadOnly(const std::filesystem::path& path);

  // DefaultPath is where the database lives unless the user says: `flag` if
  // not empty, else $MATLOAD_DB if set and not empty, else
  // "matload-results.sqlite" in the working directory.
  static std::string DefaultPath(absl::string_view flag);

  ResultsStore(ResultsStore&&) = default;
  ResultsStore& operator=(ResultsStore&&) = default;

  // CreateRun records a new run; kAlreadyExists if its id is taken.
  absl::Status CreateRun(const RunRecord& run);
  // UpdateRun rewrites every field of the run named by `run.id` but the id
  // (a run ends, or is found killed); kNotFound if there is no such run.
  absl::Status UpdateRun(const RunRecord& run);
  // FindRun reads one run; kNotFound naming the id and the database.
  absl::StatusOr<RunRecord> FindRun(absl::string_view id);
  // Runs reads every run, oldest first (by start time, then id), for
  // listings and for finding runs that were killed.
  absl::StatusOr<std::vector<RunRecord>> Runs();

  // DeleteRuns deletes the runs named by `run_ids`, with their cases and
  // artifacts, in one transaction: all or none. A run another live process
  // may be writing (HeldByAnother) is kFailedPrecondition; an unknown ID is
  // kNotFound. The freed pages are reused by later runs; the file shrinks
  // only with Reclaim. Retention (retention.h) says which runs `matload
  // prune` deletes.
  absl::Status DeleteRuns(absl::Span<const std::string> run_ids);
  // Reclaim gives the pages deleted runs freed back to the file system
  // (VACUUM), so that a pruned store shrinks: a nightly store otherwise
  // stays as large as it ever was. It rewrites the file, and waits for
  // readers and writers as any write does.
  absl::Status Reclaim();

  // AddCases records `cases` of a run in one transaction: all or none. A
  // case whose id the run already has is replaced, so a flake re-run
  // updates it. kNotFound if there is no such run.
  absl::Status AddCases(absl::string_view run_id, absl::Span<const CaseRecord> cases);
  // Commit records `cases` (as AddCases) and puts `artifacts`, by key (as
  // PutArtifact), in one transaction: a resumed run finds the cases and the
  // partial results they belong with, or neither.
  absl::Status Commit(absl::string_view run_id, absl::Span<const CaseRecord> cases,
                      const std::map<std::string, std::string>& artifacts);
  // Cases reads every case of a run, ordered by case id (byte order).
  absl::StatusOr<std::vector<CaseRecord>> Cases(absl::string_view run_id);
  // CaseOfRun reads one case of a run by its ID, or nullopt when the run
  // has no such case: one indexed lookup, where Cases reads the whole run
  // (a support sweep's is half a million cases).
  absl::StatusOr<std::optional<CaseRecord>> CaseOfRun(absl::string_view run_id, absl::string_view case_id);
  // CaseIds reads only the case ids of a run, ordered as Cases orders them:
  // what a resumed run needs to skip the cases already done.
  absl::StatusOr<std::vector<std::string>> CaseIds(absl::string_view run_id);

  // PutArtifact keeps `text` under (run, key), replacing what was there.
  // Artifacts are opaque to the store: a serialised partial result that a
  // resumed run re-reads, for instance.
  absl::Status PutArtifact(absl::string_view run_id, absl::string_view key, absl::string_view text);
  // Artifact reads the text under (run, key), or nullopt if there is none.
  absl::StatusOr<std::optional<std::string>> Artifact(absl::string_view run_id, absl::string_view key);
  // ArtifactKeys lists a run's artifact keys, sorted.
  absl::StatusOr<std::vector<std::string>> ArtifactKeys(absl::string_view run_id);

  // FindVerdict reads the verdict cache's row for (toolchain, question),
  // or nullopt if there is none.
  absl::StatusOr<std::optional<KeptVerdict>> FindVerdict(absl::string_view toolchain, absl::string_view question);
  // KeepVerdicts writes `verdicts` to the verdict cache in one transaction,
  // each replacing the row of its (toolchain, question).
  absl::Status KeepVerdicts(absl::Span<const KeptVerdict> verdicts);

  // ClaimRun marks the run as being written by this process (its pid, its
  // start time and its host), since two processes must never write one run.
  // If another process holds the claim and may be alive (on this host, a
  // process with that pid exists and started when the claim says; a process
  // on another host is always taken to be alive), it is kFailedPrecondition
  // naming that pid and host. A dead process's claim is taken over (that of
  // a process whose pid another process has since been given too), and
  // claiming a run this process holds succeeds.
  absl::Status ClaimRun(absl::string_view run_id);
  // ReleaseRun drops this process's claim on the run, if it holds one.
  absl::Status ReleaseRun(absl::string_view run_id);
  // HeldByAnother says whether another process that may still be alive
  // holds the run's claim, as ClaimRun judges it: a run marked running that
  // no such process holds was killed, and nothing will finish it but a
  // resume.
  absl::StatusOr<bool> HeldByAnother(absl::string_view run_id);

  // path is the database's path as it was opened.
  const std::string& path() const { return path_; }

 private:
  using Statement = results_store_internal::Statement;
  // Closer closes the connection when the store is destroyed.
  struct Closer {
    void operator()(sqlite3* db) const;
  };

  explicit ResultsStore(std::string path) : path_(std::move(path)) {}

  // Error turns SQLite's result code `rc` from doing `what` into a status
  // with the specific code (see the banner), naming the database.
  absl::Status Error(int rc, absl::string_view what) const;
  // Prepare compiles `sql`; `what` says what it is for, in errors.
  absl::StatusOr<Statement> Prepare(absl::string_view sql, absl::string_view what);
  // Exec runs `sql`, one or more statements without parameters.
  absl::Status Exec(const char* sql, absl::string_view what);
  // TurnOnWal switches a new store to WAL, trying again while another
  // process holds the lock it needs. The switch first reads, then asks for
  // an exclusive lock; two processes that do so at once would deadlock, so
  // SQLite answers one of them SQLITE_BUSY at once, without calling the
  // busy handler (https://sqlite.org/c3ref/busy_handler.html). It is the
  // error NightlyTest.TwoRunsWriteOneStoreAtOnce met.
  absl::Status TurnOnWal();
  // Execute prepares `sql`, lets `bind` set its parameters and runs it.
  absl::Status Execute(absl::string_view sql, absl::string_view what, const std::function<void(Statement&)>& bind);
  // InTransaction runs `body` in a write transaction (BEGIN IMMEDIATE),
  // committing if it succeeds and rolling back otherwise.
  absl::Status InTransaction(const std::function<absl::Status()>& body);
  // WriteToRun runs `body` with the run's key in a write transaction;
  // kNotFound if there is no such run.
  absl::Status WriteToRun(absl::string_view run_id, const std::function<absl::Status(std::int64_t run_key)>& body);
  // ClaimHolder is the process that holds a run's claim.
  struct ClaimHolder {
    std::int64_t pid = 0;
    std::string host;
  };
  // LiveHolder is the process other than this one that holds run
  // `run_key`'s claim and may still be alive, if there is one.
  absl::StatusOr<std::optional<ClaimHolder>> LiveHolder(std::int64_t run_key);
  // HeldError says that `holder` may still be writing run `run_id`, and
  // what that keeps from happening (`consequence`).
  absl::Status HeldError(absl::string_view run_id, const ClaimHolder& holder, absl::string_view consequence) const;
  // CheckAndCreateSchema refuses a file that is not a results database or
  // is newer than this code, then creates whatever tables are missing. It
  // runs inside a transaction, so a refused file is left as it was.
  absl::Status CheckAndCreateSchema();
  // OpenWith is Open, or OpenReadOnly when `read_only`.
  static absl::StatusOr<ResultsStore> OpenWith(const std::filesystem::path& path, bool read_only);
  // HasRunColumn says whether the runs table has `column`, one of the
  // columns added after schema version 1 shipped (claim_start,
  // registry_digest), which a store an older matload made and this one only
  // reads lacks. `column` is matload's own name, never the user's.
  absl::StatusOr<bool> HasRunColumn(absl::string_view column);
  // CheckSchema refuses a file this code cannot read: another program's
  // database, a damaged or newer schema version, or (`must_exist`) a file
  // with no matload tables.
  absl::Status CheckSchema(bool must_exist);
  // SelectInt runs `sql` and reads its first row's first column, or 0
  // if it returns no row.
  absl::StatusOr<std::int64_t> SelectInt(absl::string_view sql, absl::string_view what);
  // RunKey is the run's integer key, by which the other tables refer to it;
  // kNotFound naming the id and the database if there is no such run.
  absl::StatusOr<std::int64_t> RunKey(absl::string_view run_id);
  // ReadRuns reads the runs that `sql_tail` (after "FROM runs") selects;
  // `id`, if given, is its one parameter.
  absl::StatusOr<std::vector<RunRecord>> ReadRuns(absl::string_view sql_tail, std::optional<absl::string_view> id);
  // ForEachRowOfRun runs `sql`, whose one parameter is the run's key, and
  // calls `on_row` with each row; kNotFound if there is no such run.
  absl::Status ForEachRowOfRun(absl::string_view run_id, absl::string_view sql, absl::string_view what,
                               const std::function<absl::Status(const Statement&)>& on_row);
  // ReadTextsOfRun is ForEachRowOfRun collecting each row's first column.
  absl::StatusOr<std::vector<std::string>> ReadTextsOfRun(absl::string_view run_id, absl::string_view sql,
                                                          absl::string_view what);
  // InsertCases writes `cases` under `run_key`, interning their names.
  // It runs inside a write transaction.
  absl::Status InsertCases(std::int64_t run_key, absl::Span<const CaseRecord> cases);
  // InternName is the id of case name `name`, adding it if it is new:
  // `find` looks it up and `add` inserts it (both prepared by InsertCases).
  // Looking up first spares a second search of the names' index for every
  // name already there, as all are when a run repeats an earlier one.
  absl::StatusOr<std::int64_t> InternName(Statement& find, Statement& add, absl::string_view name);
  // InsertArtifact puts `text` under (run_key, key), replacing what was
  // there. It runs inside a write transaction.
  absl::Status InsertArtifact(std::int64_t run_key, absl::string_view key, absl::string_view text);

  std::string path_;
  std::unique_ptr<sqlite3, Closer> db_;
  bool has_claim_start_ = false;      // HasRunColumn("claim_start"), as the store was opened
  bool has_registry_digest_ = false;  // HasRunColumn("registry_digest"), as the store was opened
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_RESULTS_STORE_H_
