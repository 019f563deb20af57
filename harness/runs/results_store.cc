#include "harness/runs/results_store.h"

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "harness/platform/environment.h"
#include "harness/platform/host_name.h"
#include "harness/platform/outside_text.h"
#include "harness/platform/process_start_time.h"
#include "harness/runs/case_counts.h"
#include "harness/runs/case_outcome.h"
#include "harness/runs/stored_words.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace results_store_internal {
namespace {

// kTimeFormat is RFC 3339 in UTC with milliseconds, which sorts as it reads.
constexpr char kTimeFormat[] = "%Y-%m-%d%ET%H:%M:%E3SZ";

// SqliteError is ResultsStore::Error for a connection that may not belong to
// a store yet.
absl::Status SqliteError(sqlite3* db, absl::string_view path, int rc, absl::string_view what) {
  const std::string message = absl::StrFormat("results database %s: %s: %s", path, what, sqlite3_errmsg(db));
  switch (rc & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
      return absl::DataLossError(absl::StrCat(message, " (the disk is full or failed; this write was not kept)"));
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError(absl::StrCat(message, " (another process kept the database locked)"));
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return absl::FailedPreconditionError(absl::StrCat(message, " (it is not a SQLite database, or it is corrupt)"));
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM: return absl::FailedPreconditionError(absl::StrCat(message, " (it cannot be opened for writing)"));
    default: return absl::InternalError(message);
  }
}

}  // namespace

// Statement is one prepared statement, finalised when destroyed. The Bind
// functions set its parameters in order; ForEachRow runs it, and the column
// readers read the row at hand. Errors name the database and what it is for.
class Statement {
 public:
  Statement(sqlite3* db, absl::string_view path, sqlite3_stmt* stmt, absl::string_view what)
      : db_(db), path_(path), stmt_(stmt), what_(what) {}

  // BindText, BindInt, BindReal and BindNull set the next parameter.
  Statement& BindText(absl::string_view text) {
    const char* data = text.data() == nullptr ? "" : text.data();  // a null pointer would bind NULL
    return Bound(sqlite3_bind_text(stmt_.get(), next_++, data, static_cast<int>(text.size()), SQLITE_TRANSIENT));
  }
  Statement& BindInt(std::int64_t value) { return Bound(sqlite3_bind_int64(stmt_.get(), next_++, value)); }
  Statement& BindReal(double value) { return Bound(sqlite3_bind_double(stmt_.get(), next_++, value)); }
  Statement& BindNull() { return Bound(sqlite3_bind_null(stmt_.get(), next_++)); }
  // BindTime sets the next parameter to `time` as kTimeFormat text, or NULL
  // for InfinitePast (a time not yet known).
  Statement& BindTime(absl::Time time) {
    if (time == absl::InfinitePast()) return BindNull();
    return BindText(absl::FormatTime(kTimeFormat, time, absl::UTCTimeZone()));
  }

  // ForEachRow runs the statement, calling `on_row` with each row and
  // stopping at the first error; then it resets the statement and its
  // parameters, so it can be bound and run again.
  absl::Status ForEachRow(const std::function<absl::Status()>& on_row) {
    absl::Status status = bind_rc_ == SQLITE_OK ? absl::OkStatus() : SqliteError(db_, path_, bind_rc_, what_);
    while (status.ok()) {
      const int rc = sqlite3_step(stmt_.get());
      if (rc == SQLITE_DONE) break;
      status = rc == SQLITE_ROW ? on_row() : SqliteError(db_, path_, rc, what_);
    }
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
    next_ = 1;
    bind_rc_ = SQLITE_OK;
    return status;
  }
  // Run runs a statement whose rows, if any, are not needed.
  absl::Status Run() {
    return ForEachRow([] { return absl::OkStatus(); });
  }

  // Text, Int and Real read a column of the row at hand; Time reads one
  // that BindTime wrote, kDataLoss if it cannot be parsed. Text is always
  // UTF-8: matload stores outside bytes as OutsideText, and bytes an older
  // matload stored raw (a path that is not UTF-8) are read as OutsideText.
  std::string Text(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_.get(), column));
    const absl::string_view bytes =
        text == nullptr ? absl::string_view() : absl::string_view(text, sqlite3_column_bytes(stmt_.get(), column));
    return IsUtf8(bytes) ? std::string(bytes) : OutsideText(bytes);
  }
  std::int64_t Int(int column) const { return sqlite3_column_int64(stmt_.get(), column); }
  double Real(int column) const { return sqlite3_column_double(stmt_.get(), column); }
  absl::StatusOr<absl::Time> Time(int column) const {
    if (sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL) return absl::InfinitePast();
    absl::Time time;
    std::string error;
    if (!absl::ParseTime(absl::RFC3339_full, Text(column), &time, &error)) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "results database %s is damaged: %s: stored time '%s' is unreadable: %s", path_, what_, Text(column), error));
    }
    return time;
  }

  // path is the database's path, for errors about what was read.
  const std::string& path() const { return path_; }

 private:
  struct Finalizer {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
  };

  // Bound keeps the first failure to bind, which ForEachRow reports.
  Statement& Bound(int rc) {
    if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
    return *this;
  }

  sqlite3* db_;
  std::string path_;
  std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
  std::string what_;
  int next_ = 1;  // the next parameter's index
  int bind_rc_ = SQLITE_OK;
};

}  // namespace results_store_internal

using results_store_internal::Statement;

namespace {

constexpr int kBusyTimeoutMs = 30'000;

// kTurnOnWal lets readers and a writer work at once (and need sync only at
// checkpoints). It is run on its own, by TurnOnWal, because of how it locks.
constexpr char kTurnOnWal[] = "PRAGMA journal_mode = WAL";

// kConnectionPragmas set up a connection once the schema is known good and
// WAL is on: a 64 MiB page cache keeps a run of 200,000 cases' indexes in
// memory.
constexpr char kConnectionPragmas[] =
    "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY";

// kSchemaSql creates what is missing of the schema. Runs are referred to by
// their integer run_key and cases by their interned name's id, so a case row
// is a few integers and its results. claim_pid, claim_host and claim_start
// name the process writing the run (ClaimRun), or are NULL; claim_start is
// "PID:START" (ProcessStartTime). registry_digest is the SHA-256 of the
// discrepancy registry that judged the run (registry_in_force.h), or NULL
// for a run an older matload stored. kLaterRunColumns adds both to a store
// an older matload made.
constexpr char kSchemaSql[] = R"sql(
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID;
  INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', 1);
  CREATE TABLE IF NOT EXISTS runs (
    run_key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
    command TEXT NOT NULL, command_line TEXT NOT NULL, matload_version TEXT NOT NULL, git_commit TEXT NOT NULL,
    toolkits TEXT NOT NULL, driver TEXT NOT NULL, gpu_name TEXT NOT NULL, gpu_uuid TEXT NOT NULL,
    host TEXT NOT NULL, directory TEXT NOT NULL, options TEXT NOT NULL, parent TEXT NOT NULL,
    shard TEXT NOT NULL, status TEXT NOT NULL, started TEXT, ended TEXT, exit_status INTEGER NOT NULL,
    claim_pid INTEGER, claim_host TEXT, claim_start TEXT, registry_digest TEXT);
  CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started, id);
  CREATE TABLE IF NOT EXISTS case_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE IF NOT EXISTS cases (
    run_key INTEGER NOT NULL REFERENCES runs (run_key),
    name_id INTEGER NOT NULL REFERENCES case_names (id),
    outcome TEXT NOT NULL, finding INTEGER NOT NULL, counts TEXT NOT NULL, first_failures TEXT NOT NULL,
    attempts TEXT NOT NULL, detail TEXT NOT NULL, bundle TEXT NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (run_key, name_id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS artifacts (
    run_key INTEGER NOT NULL REFERENCES runs (run_key), key TEXT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (run_key, key)) WITHOUT ROWID;
)sql";

// kLaterRunColumns are the nullable columns of runs that schema version 1
// gained after it shipped, each with the statement that adds it to the runs
// table of a store an older matload made, when the store is opened to
// write. Only the column is added, and the schema version stays 1, so that
// an older matload still reads and writes the store: its claims set only
// claim_pid and claim_host (a claim_start that names another PID than
// claim_pid is one such claim's, not read), and its runs leave
// registry_digest NULL.
constexpr std::pair<const char*, const char*> kLaterRunColumns[] = {
    {"claim_start", "ALTER TABLE runs ADD COLUMN claim_start TEXT"},
    {"registry_digest", "ALTER TABLE runs ADD COLUMN registry_digest TEXT"},
};

// kVerdictsSql creates the verdict cache's table (verdict_cache.h): answers
// by toolchain identity and question digest, each with its seal. It is
// apart from the runs' tables: no run refers to it, and deleting its rows
// loses nothing but time.
constexpr char kVerdictsSql[] = R"sql(
  CREATE TABLE IF NOT EXISTS verdicts (
    toolchain TEXT NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL, seal TEXT NOT NULL,
    PRIMARY KEY (toolchain, question)) WITHOUT ROWID;
)sql";

// SchemaColumns are the columns of each table kSchemaSql and kVerdictsSql
// make, read from a database they made in memory: what a file's tables
// must have, all but kLaterRunColumns, to be read as a store.
const std::map<std::string, std::set<std::string>>& SchemaColumns() {
  static const auto* const columns = [] {
    auto* tables = new std::map<std::string, std::set<std::string>>();
    sqlite3* db = nullptr;
    sqlite3_open(":memory:", &db);
    sqlite3_exec(db, kSchemaSql, nullptr, nullptr, nullptr);
    sqlite3_exec(db, kVerdictsSql, nullptr, nullptr, nullptr);
    const auto add = [](void* out, int, char** values, char**) {
      (*static_cast<std::map<std::string, std::set<std::string>>*>(out))[values[0]].insert(values[1]);
      return 0;
    };
    sqlite3_exec(db,
                 "SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c WHERE m.type = 'table' "
                 "AND c.name NOT IN ('claim_start', 'registry_digest')",
                 add, tables, nullptr);
    sqlite3_close(db);
    return tables;
  }();
  return *columns;
}

// kRunTexts are RunRecord's text fields but the id, with their columns.
constexpr std::pair<const char*, std::string RunRecord::*> kRunTexts[] = {
    {"command", &RunRecord::command},
    {"command_line", &RunRecord::command_line},
    {"matload_version", &RunRecord::matload_version},
    {"git_commit", &RunRecord::git_commit},
    {"toolkits", &RunRecord::toolkits},
    {"driver", &RunRecord::driver},
    {"gpu_name", &RunRecord::gpu_name},
    {"gpu_uuid", &RunRecord::gpu_uuid},
    {"host", &RunRecord::host},
    {"directory", &RunRecord::directory},
    {"options", &RunRecord::options},
    {"parent", &RunRecord::parent},
    {"shard", &RunRecord::shard},
    {"status", &RunRecord::status},
};
// kRunFieldCount counts the columns RunFields lists.
constexpr int kRunFieldCount = std::size(kRunTexts) + 4;

// RunFields lists the runs columns of every RunRecord field but the id, in
// the order BindRun binds them and ReadRun reads them (the id comes last).
// A store an older matload made and this one only reads has no
// registry_digest (`with_registry_digest` false): NULL is read in its place.
std::string RunFields(bool with_registry_digest) {
  std::vector<std::string> names;
  for (const auto& [name, field] : kRunTexts) names.push_back(name);
  names.insert(names.end(), {"started", "ended", "exit_status", with_registry_digest ? "registry_digest" : "NULL"});
  return absl::StrJoin(names, ", ");
}

// Placeholders is `count` parameters: "?, ?, ?".
std::string Placeholders(int count) { return absl::StrJoin(std::vector<std::string>(count, "?"), ", "); }

// BadRunWord names the first of `run`'s enumerated fields that holds a
// value no matload writes (stored_words.h), or is nullopt.
std::optional<std::string> BadRunWord(const RunRecord& run) {
  if (!IsRunStatusWord(run.status)) return absl::StrCat("status '", run.status, "'");
  if (!IsRunExitStatus(run.exit_status)) return absl::StrCat("exit status ", run.exit_status);
  return std::nullopt;
}

// BadCaseOutcome is BadRunWord for a case: an outcome, attempt or count
// nobody judged (kUnjudged), which would read back as no outcome at all.
std::optional<std::string> BadCaseOutcome(const CaseRecord& record) {
  if (record.outcome == CaseOutcome::kUnjudged) return "outcome 'unjudged'";
  if (std::find(record.attempts.begin(), record.attempts.end(), CaseOutcome::kUnjudged) != record.attempts.end()) {
    return "attempt 'unjudged'";
  }
  if (record.counts.contains(CaseOutcome::kUnjudged)) return "count of 'unjudged'";
  return std::nullopt;
}

// Unwritable is the kInvalidArgument for storing a record whose `bad`
// value (BadRunWord, BadCaseOutcome) no matload may write: a bug to fix.
absl::Status Unwritable(absl::string_view path, absl::string_view what, absl::string_view id, absl::string_view bad) {
  return absl::InvalidArgumentError(
      absl::StrFormat("results database %s: %s %s cannot be stored: its %s is not one a store holds (stored_words.h)",
                      path, what, id, bad));
}

// Damaged is the kDataLoss for a record read back with a `bad` value: the
// file was damaged (a flipped byte), and nothing it says of the record can
// be trusted.
absl::Status Damaged(absl::string_view path, absl::string_view what, absl::string_view id, absl::string_view bad) {
  return absl::DataLossError(absl::StrFormat(
      "results database %s is damaged: %s %s has %s, which no matload writes; restore the store from a copy", path,
      what, id, bad));
}

// BindRun binds the run's fields as RunFields lists them, then its id.
void BindRun(const RunRecord& run, Statement& statement) {
  for (const auto& [name, field] : kRunTexts) statement.BindText(run.*field);
  statement.BindTime(run.started).BindTime(run.ended).BindInt(run.exit_status);
  if (run.registry_digest.empty()) {
    statement.BindNull();
  } else {
    statement.BindText(run.registry_digest);
  }
  statement.BindText(run.id);
}

// ReadRun reads a row of RunFields and the id.
absl::StatusOr<RunRecord> ReadRun(const Statement& row) {
  RunRecord run;
  int column = 0;
  for (const auto& [name, field] : kRunTexts) run.*field = row.Text(column++);
  for (absl::Time* time : {&run.started, &run.ended}) {
    absl::StatusOr<absl::Time> read = row.Time(column++);
    if (!read.ok()) return read.status();
    *time = *read;
  }
  const std::int64_t exit_status = row.Int(column++);
  run.exit_status = exit_status >= INT_MIN && exit_status <= INT_MAX ? static_cast<int>(exit_status) : INT_MIN;
  run.registry_digest = row.Text(column++);
  run.id = row.Text(column);
  if (const std::optional<std::string> bad = BadRunWord(run)) return Damaged(row.path(), "run", run.id, *bad);
  return run;
}

// kCaseColumns are the columns ReadCase reads, and kCasesOfRun selects a
// run's cases (its key the one parameter) ordered by case id.
constexpr char kCaseColumns[] =
    "case_names.name, outcome, finding, counts, first_failures, attempts, detail, bundle, seconds";
constexpr char kCasesOfRun[] =
    " FROM cases JOIN case_names ON case_names.id = cases.name_id WHERE cases.run_key = ? ORDER BY case_names.name";

// EmptyJson is how nlohmann::json writes an empty T: "{}" for a map,
// "[]" for a list.
template <typename T>
constexpr absl::string_view EmptyJson() {
  if constexpr (requires { typename T::key_type; }) return "{}";
  return "[]";
}

// JsonText is `value` as JSON text. Nearly every case has no counts,
// failures or attempts, and writing their empty JSON directly spares
// building a JSON value for each, which a sweep of 600,000 cases feels.
template <typename T>
std::string JsonText(const T& value) {
  if (value.empty()) return std::string(EmptyJson<T>());
  return nlohmann::json(value).dump();
}

// Words is `outcomes` as the store keeps them (CaseOutcomeWord).
std::vector<std::string> Words(const std::vector<CaseOutcome>& outcomes) {
  std::vector<std::string> words;
  for (const CaseOutcome outcome : outcomes) words.emplace_back(CaseOutcomeWord(outcome));
  return words;
}

// BindCase binds the case's fields after its id, as InsertCases's
// statement takes them; kInvalidArgument if nobody judged the case. Its
// counts, failures and attempts are numbers and matload's own words, so
// their JSON is always text a store can hold.
absl::Status BindCase(const CaseRecord& record, Statement& statement) {
  if (const std::optional<std::string> bad = BadCaseOutcome(record)) {
    return Unwritable(statement.path(), "case", record.id, *bad);
  }
  statement.BindText(CaseOutcomeWord(record.outcome))
      .BindInt(record.finding)
      .BindText(JsonText(CountWords(record)))
      .BindText(JsonText(record.first_failures));
  statement.BindText(JsonText(Words(record.attempts)))
      .BindText(record.detail)
      .BindText(record.bundle)
      .BindReal(record.seconds);
  return absl::OkStatus();
}

// FromJson reads `text` into `value`; false if it is not JSON of that shape.
template <typename T>
bool FromJson(const std::string& text, T* value) {
  if (text == EmptyJson<T>()) {
    *value = T();
    return true;
  }
  try {
    nlohmann::json::parse(text).get_to(*value);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

// ReadOutcome is the outcome `word` spells, the `what` ("outcome",
// "attempt") of case `id` of `row`; kDataLoss (Damaged) for a word no
// matload writes (ParseCaseOutcome).
absl::StatusOr<CaseOutcome> ReadOutcome(const Statement& row, absl::string_view id, absl::string_view what,
                                        absl::string_view word) {
  absl::StatusOr<CaseOutcome> outcome = ParseCaseOutcome(word);
  if (!outcome.ok()) return Damaged(row.path(), "case", id, absl::StrCat(what, " '", word, "'"));
  return outcome;
}

// ReadCase reads a row of kCaseColumns; kFailedPrecondition (a damaged
// store, the user's file: exit status 2) if its JSON is damaged, kDataLoss
// if it holds a value no matload writes (Damaged).
absl::StatusOr<CaseRecord> ReadCase(const Statement& row) {
  CaseRecord record;
  record.id = row.Text(0);
  const std::int64_t finding = row.Int(2);
  if (finding != 0 && finding != 1) return Damaged(row.path(), "case", record.id, absl::StrCat("finding ", finding));
  record.finding = finding == 1;
  std::vector<std::string> attempts;
  std::map<std::string, std::int64_t> count_words;
  if (!FromJson(row.Text(3), &count_words) || !FromJson(row.Text(4), &record.first_failures) ||
      !FromJson(row.Text(5), &attempts)) {
    return absl::FailedPreconditionError(
        absl::StrFormat("results database %s is damaged: case %s has unreadable results", row.path(), record.id));
  }
  if (absl::Status counted = ReadCountWords(count_words, record); !counted.ok()) {
    return Damaged(row.path(), "case", record.id, absl::StrCat("counts: ", counted.message()));
  }
  record.detail = row.Text(6);
  record.bundle = row.Text(7);
  record.seconds = row.Real(8);
  absl::StatusOr<CaseOutcome> outcome = ReadOutcome(row, record.id, "outcome", row.Text(1));
  if (!outcome.ok()) return outcome.status();
  record.outcome = *outcome;
  for (const std::string& word : attempts) {
    absl::StatusOr<CaseOutcome> attempt = ReadOutcome(row, record.id, "attempt", word);
    if (!attempt.ok()) return attempt.status();
    record.attempts.push_back(*attempt);
  }
  return record;
}

// NoSuchRun is the kNotFound for a run id that the database lacks.
absl::Status NoSuchRun(absl::string_view path, absl::string_view id) {
  return absl::NotFoundError(absl::StrFormat("results database %s has no run '%s'", path, id));
}

// FileUri is `path` as a SQLite file: URI, each byte but letters, digits,
// '/', '.', '_', '~' and '-' percent-encoded ('?', '#' and '%' would end or
// change the path). An absolute path follows an empty authority, so that
// one that starts "//" is not read as a host's name.
std::string FileUri(absl::string_view path) {
  std::string uri = absl::StartsWith(path, "/") ? "file://" : "file:";
  for (const char byte : path) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(byte)) ||
        absl::string_view("/._~-").find(byte) != absl::string_view::npos) {
      uri.push_back(byte);
    } else {
      absl::StrAppendFormat(&uri, "%%%02X", static_cast<unsigned char>(byte));
    }
  }
  return uri;
}

// ReadOnlyUri is the URI that opens the store at `path` only to read it,
// making nothing beside it, so that a store on a read-only mount or in a
// directory the user cannot write reads, and reading never leaves files
// behind. While a -wal and a -shm are there (a writer is live, or was
// killed), the WAL may hold transactions the file lacks: mode=ro reads them
// through the -shm that is there. Without a -wal every transaction is in
// the file (the last writer to close checkpointed and removed it), and
// immutable=1 reads the file alone, taking no lock and making no -shm. A
// writer that starts meanwhile writes to a -wal of its own; the file changes
// only when it checkpoints, which a read of a few seconds does not meet.
std::string ReadOnlyUri(const std::string& path) {
  std::error_code error;
  const bool wal = std::filesystem::exists(path + "-wal", error) && std::filesystem::exists(path + "-shm", error);
  return absl::StrCat(FileUri(path), wal ? "?mode=ro" : "?immutable=1");
}

// ClaimStart is how claim_start names process `pid`, started at `start`.
std::string ClaimStart(std::int64_t pid, std::uint64_t start) { return absl::StrCat(pid, ":", start); }

// StartOfClaim is the start time `claim_start` gives process `pid`, or
// nullopt if it names none or another process (an older matload claimed
// the run after this one and left it).
std::optional<std::uint64_t> StartOfClaim(absl::string_view claim_start, std::int64_t pid) {
  const std::vector<absl::string_view> parts = absl::StrSplit(claim_start, absl::MaxSplits(':', 1));
  std::int64_t claimed_pid = 0;
  std::uint64_t start = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &claimed_pid) || claimed_pid != pid ||
      !absl::SimpleAtoi(parts[1], &start)) {
    return std::nullopt;
  }
  return start;
}

// MayBeAlive says whether process `pid` on `host`, started at `start` when
// the claim says, may still be running, as seen from `this_host`: a process
// elsewhere cannot be asked, so it may be. Here, a process with that PID
// that started at another time is another process that reuses the PID.
bool MayBeAlive(std::int64_t pid, absl::string_view host, std::optional<std::uint64_t> start,
                absl::string_view this_host) {
  if (host != this_host) return true;
  if (pid <= 0 || pid > INT_MAX || (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM)) return false;
  if (!start.has_value()) return true;  // an older matload's claim: the PID is all there is
  const std::optional<std::uint64_t> started = ProcessStartTime(static_cast<pid_t>(pid));
  return !started.has_value() || *started == *start;
}

}  // namespace

void ResultsStore::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

absl::StatusOr<ResultsStore> ResultsStore::Open(const std::filesystem::path& path) { return OpenWith(path, false); }

absl::StatusOr<ResultsStore> ResultsStore::OpenReadOnly(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return absl::FailedPreconditionError(absl::StrFormat("no results database at %s", path.string()));
  }
  return OpenWith(path, true);
}

absl::StatusOr<ResultsStore> ResultsStore::OpenWith(const std::filesystem::path& path, bool read_only) {
  ResultsStore store(path.string());
  const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "results database %s cannot be opened: it is not a file (a directory, a FIFO or a device)", store.path_));
  }
  if (!std::filesystem::is_directory(directory, error)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "results database %s cannot be opened: its directory %s does not exist", store.path_, directory.string()));
  }
  sqlite3* db = nullptr;
  const int flags = read_only ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  const std::string file = read_only ? ReadOnlyUri(store.path_) : store.path_;
  const int rc = sqlite3_open_v2(file.c_str(), &db, flags, nullptr);
  store.db_.reset(db);
  if (rc != SQLITE_OK) return store.Error(rc, "opening it");
  if (!read_only && sqlite3_db_readonly(db, "main") == 1) {
    return absl::FailedPreconditionError(absl::StrFormat("results database %s is read-only", store.path_));
  }
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  absl::Status status = store.Exec("PRAGMA foreign_keys = ON", "turning on foreign keys");
  if (status.ok() && read_only) status = store.CheckSchema(/*must_exist=*/true);
  if (status.ok() && !read_only) status = store.InTransaction([&store] { return store.CheckAndCreateSchema(); });
  if (status.ok()) {
    const absl::StatusOr<bool> has_claim_start = store.HasRunColumn("claim_start");
    const absl::StatusOr<bool> has_registry_digest = store.HasRunColumn("registry_digest");
    status = has_claim_start.ok() ? has_registry_digest.status() : has_claim_start.status();
    store.has_claim_start_ = has_claim_start.value_or(false);
    store.has_registry_digest_ = has_registry_digest.value_or(false);
  }
  if (status.ok() && !read_only) status = store.TurnOnWal();
  if (status.ok() && !read_only) status = store.Exec(kConnectionPragmas, "setting up the connection");
  if (!status.ok()) return status;
  return store;
}

std::string ResultsStore::DefaultPath(absl::string_view flag) {
  if (!flag.empty()) return std::string(flag);
  return EnvironmentOr("MATLOAD_DB", "matload-results.sqlite");
}

absl::Status ResultsStore::CreateRun(const RunRecord& run) {
  if (const std::optional<std::string> bad = BadRunWord(run)) return Unwritable(path_, "run", run.id, *bad);
  return InTransaction([&]() -> absl::Status {
    const absl::StatusOr<std::int64_t> existing = RunKey(run.id);
    if (existing.ok()) {
      return absl::AlreadyExistsError(absl::StrFormat("results database %s already has run '%s'", path_, run.id));
    }
    if (!absl::IsNotFound(existing.status())) return existing.status();
    const std::string sql =
        absl::StrCat("INSERT INTO runs (", RunFields(true), ", id) VALUES (", Placeholders(kRunFieldCount + 1), ")");
    return Execute(sql, "creating a run", [&](Statement& insert) { BindRun(run, insert); });
  });
}

absl::Status ResultsStore::UpdateRun(const RunRecord& run) {
  if (const std::optional<std::string> bad = BadRunWord(run)) return Unwritable(path_, "run", run.id, *bad);
  return WriteToRun(run.id, [&](std::int64_t) {
    const std::string sql =
        absl::StrCat("UPDATE runs SET (", RunFields(true), ") = (", Placeholders(kRunFieldCount), ") WHERE id = ?");
    return Execute(sql, "updating a run", [&](Statement& update) { BindRun(run, update); });
  });
}

absl::StatusOr<RunRecord> ResultsStore::FindRun(absl::string_view id) {
  absl::StatusOr<std::vector<RunRecord>> runs = ReadRuns("WHERE id = ?", id);
  if (!runs.ok()) return runs.status();
  if (runs->empty()) return NoSuchRun(path_, id);
  return std::move(runs->front());
}

absl::StatusOr<std::vector<RunRecord>> ResultsStore::Runs() { return ReadRuns("ORDER BY started, id", std::nullopt); }

absl::Status ResultsStore::AddCases(absl::string_view run_id, absl::Span<const CaseRecord> cases) {
  return Commit(run_id, cases, {});
}

absl::Status ResultsStore::Commit(absl::string_view run_id, absl::Span<const CaseRecord> cases,
                                  const std::map<std::string, std::string>& artifacts) {
  return WriteToRun(run_id, [&](std::int64_t run_key) -> absl::Status {
    if (absl::Status added = InsertCases(run_key, cases); !added.ok()) return added;
    for (const auto& [key, text] : artifacts) {
      if (absl::Status put = InsertArtifact(run_key, key, text); !put.ok()) return put;
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<CaseRecord>> ResultsStore::Cases(absl::string_view run_id) {
  std::vector<CaseRecord> cases;
  const auto read = [&](const Statement& row) {
    absl::StatusOr<CaseRecord> record = ReadCase(row);
    if (!record.ok()) return record.status();
    cases.push_back(*std::move(record));
    return absl::OkStatus();
  };
  const absl::Status status =
      ForEachRowOfRun(run_id, absl::StrCat("SELECT ", kCaseColumns, kCasesOfRun), "reading cases", read);
  if (!status.ok()) return status;
  return cases;
}

absl::StatusOr<std::optional<CaseRecord>> ResultsStore::CaseOfRun(absl::string_view run_id, absl::string_view case_id) {
  std::optional<CaseRecord> found;
  const auto read = [&](const Statement& row) {
    absl::StatusOr<CaseRecord> record = ReadCase(row);
    if (!record.ok()) return record.status();
    found = *std::move(record);
    return absl::OkStatus();
  };
  const absl::StatusOr<std::int64_t> run_key = RunKey(run_id);
  if (!run_key.ok()) return run_key.status();
  absl::StatusOr<Statement> select = Prepare(absl::StrCat("SELECT ", kCaseColumns,
                                                          " FROM cases JOIN case_names ON case_names.id = cases.name_id"
                                                          " WHERE cases.run_key = ? AND case_names.name = ?"),
                                             "reading a case");
  if (!select.ok()) return select.status();
  if (absl::Status status = select->BindInt(*run_key).BindText(case_id).ForEachRow([&] { return read(*select); });
      !status.ok()) {
    return status;
  }
  return found;
}

absl::StatusOr<std::vector<std::string>> ResultsStore::CaseIds(absl::string_view run_id) {
  return ReadTextsOfRun(run_id, absl::StrCat("SELECT case_names.name", kCasesOfRun), "reading case ids");
}

absl::Status ResultsStore::DeleteRuns(absl::Span<const std::string> run_ids) {
  return InTransaction([&]() -> absl::Status {
    for (const std::string& id : run_ids) {
      const absl::StatusOr<std::int64_t> run_key = RunKey(id);
      if (!run_key.ok()) return run_key.status();
      const absl::StatusOr<std::optional<ClaimHolder>> holder = LiveHolder(*run_key);
      if (!holder.ok()) return holder.status();
      if (holder->has_value()) return HeldError(id, **holder, "no run was deleted");
      for (const char* table : {"cases", "artifacts", "runs"}) {
        if (absl::Status deleted = Execute(absl::StrCat("DELETE FROM ", table, " WHERE run_key = ?"), "deleting a run",
                                           [&](Statement& remove) { remove.BindInt(*run_key); });
            !deleted.ok()) {
          return deleted;
        }
      }
    }
    return absl::OkStatus();
  });
}

absl::Status ResultsStore::Reclaim() { return Exec("VACUUM", "reclaiming the space of deleted runs"); }

absl::Status ResultsStore::PutArtifact(absl::string_view run_id, absl::string_view key, absl::string_view text) {
  return WriteToRun(run_id, [&](std::int64_t run_key) { return InsertArtifact(run_key, key, text); });
}

absl::StatusOr<std::optional<std::string>> ResultsStore::Artifact(absl::string_view run_id, absl::string_view key) {
  const absl::StatusOr<std::int64_t> run_key = RunKey(run_id);
  if (!run_key.ok()) return run_key.status();
  absl::StatusOr<Statement> select =
      Prepare("SELECT text FROM artifacts WHERE run_key = ? AND key = ?", "reading an artifact");
  if (!select.ok()) return select.status();
  std::optional<std::string> text;
  const absl::Status status = select->BindInt(*run_key).BindText(key).ForEachRow([&] {
    text = select->Text(0);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return text;
}

absl::StatusOr<std::vector<std::string>> ResultsStore::ArtifactKeys(absl::string_view run_id) {
  return ReadTextsOfRun(run_id, "SELECT key FROM artifacts WHERE run_key = ? ORDER BY key", "listing artifacts");
}

absl::StatusOr<std::optional<KeptVerdict>> ResultsStore::FindVerdict(absl::string_view toolchain,
                                                                     absl::string_view question) {
  absl::StatusOr<Statement> select =
      Prepare("SELECT answer, seal FROM verdicts WHERE toolchain = ? AND question = ?", "reading the verdict cache");
  if (!select.ok()) return select.status();
  std::optional<KeptVerdict> verdict;
  const absl::Status status = select->BindText(toolchain).BindText(question).ForEachRow([&] {
    verdict = KeptVerdict{std::string(toolchain), std::string(question), select->Text(0), select->Text(1)};
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return verdict;
}

absl::Status ResultsStore::KeepVerdicts(absl::Span<const KeptVerdict> verdicts) {
  return InTransaction([&]() -> absl::Status {
    absl::StatusOr<Statement> insert =
        Prepare("INSERT OR REPLACE INTO verdicts (toolchain, question, answer, seal) VALUES (?, ?, ?, ?)",
                "writing the verdict cache");
    if (!insert.ok()) return insert.status();
    for (const KeptVerdict& verdict : verdicts) {
      insert->BindText(verdict.toolchain).BindText(verdict.question).BindText(verdict.answer).BindText(verdict.seal);
      if (absl::Status kept = insert->Run(); !kept.ok()) return kept;
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<ResultsStore::ClaimHolder>> ResultsStore::LiveHolder(std::int64_t run_key) {
  // A store an older matload made and this one only reads has no claim_start.
  absl::StatusOr<Statement> claim =
      Prepare(absl::StrCat("SELECT claim_pid, claim_host, ", has_claim_start_ ? "claim_start" : "NULL",
                           " FROM runs WHERE run_key = ? AND claim_pid IS NOT NULL"),
              "reading a claim");
  if (!claim.ok()) return claim.status();
  const std::string host = HostName();
  const std::int64_t pid = getpid();
  std::optional<ClaimHolder> holder;
  const absl::Status read = claim->BindInt(run_key).ForEachRow([&] {
    const std::int64_t holder_pid = claim->Int(0);
    const std::string holder_host = claim->Text(1);
    const std::optional<std::uint64_t> start = StartOfClaim(claim->Text(2), holder_pid);
    if (!(holder_pid == pid && holder_host == host) && MayBeAlive(holder_pid, holder_host, start, host)) {
      holder = ClaimHolder{.pid = holder_pid, .host = holder_host};
    }
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  return holder;
}

absl::Status ResultsStore::HeldError(absl::string_view run_id, const ClaimHolder& holder,
                                     absl::string_view consequence) const {
  return absl::FailedPreconditionError(
      absl::StrFormat("results database %s: run '%s' is being written by process %d on host %s, which may still be "
                      "running; %s",
                      path_, run_id, holder.pid, holder.host, consequence));
}

absl::StatusOr<bool> ResultsStore::HeldByAnother(absl::string_view run_id) {
  const absl::StatusOr<std::int64_t> run_key = RunKey(run_id);
  if (!run_key.ok()) return run_key.status();
  const absl::StatusOr<std::optional<ClaimHolder>> holder = LiveHolder(*run_key);
  if (!holder.ok()) return holder.status();
  return holder->has_value();
}

absl::Status ResultsStore::ClaimRun(absl::string_view run_id) {
  return WriteToRun(run_id, [&](std::int64_t run_key) -> absl::Status {
    const absl::StatusOr<std::optional<ClaimHolder>> holder = LiveHolder(run_key);
    if (!holder.ok()) return holder.status();
    if (holder->has_value()) return HeldError(run_id, **holder, "two processes must never write one run");
    const std::optional<std::uint64_t> start = ProcessStartTime(getpid());
    return Execute("UPDATE runs SET claim_pid = ?, claim_host = ?, claim_start = ? WHERE run_key = ?", "claiming a run",
                   [&](Statement& update) {
                     update.BindInt(getpid()).BindText(HostName());
                     if (start.has_value()) {
                       update.BindText(ClaimStart(getpid(), *start));
                     } else {
                       update.BindNull();
                     }
                     update.BindInt(run_key);
                   });
  });
}

absl::Status ResultsStore::ReleaseRun(absl::string_view run_id) {
  return WriteToRun(run_id, [&](std::int64_t run_key) {
    return Execute(
        "UPDATE runs SET claim_pid = NULL, claim_host = NULL, claim_start = NULL WHERE run_key = ? AND claim_pid = ? "
        "AND claim_host = ?",
        "releasing a run", [&](Statement& update) { update.BindInt(run_key).BindInt(getpid()).BindText(HostName()); });
  });
}

absl::Status ResultsStore::Error(int rc, absl::string_view what) const {
  return results_store_internal::SqliteError(db_.get(), path_, rc, what);
}

absl::StatusOr<Statement> ResultsStore::Prepare(absl::string_view sql, absl::string_view what) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return Error(rc, what);
  return Statement(db_.get(), path_, stmt, what);
}

absl::Status ResultsStore::Exec(const char* sql, absl::string_view what) {
  const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(rc, what);
}

absl::Status ResultsStore::TurnOnWal() {
  const absl::Time deadline = absl::Now() + absl::Milliseconds(kBusyTimeoutMs);
  while (true) {
    const int rc = sqlite3_exec(db_.get(), kTurnOnWal, nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return absl::OkStatus();
    if (rc != SQLITE_BUSY || absl::Now() >= deadline) return Error(rc, "turning on WAL");
    absl::SleepFor(absl::Milliseconds(10));
  }
}

absl::Status ResultsStore::Execute(absl::string_view sql, absl::string_view what,
                                   const std::function<void(Statement&)>& bind) {
  absl::StatusOr<Statement> statement = Prepare(sql, what);
  if (!statement.ok()) return statement.status();
  bind(*statement);
  return statement->Run();
}

absl::Status ResultsStore::InTransaction(const std::function<absl::Status()>& body) {
  if (absl::Status begun = Exec("BEGIN IMMEDIATE", "starting a write"); !begun.ok()) return begun;
  absl::Status status = body();
  if (status.ok()) status = Exec("COMMIT", "committing a write");
  // An error may already have rolled the transaction back; if not, do so.
  if (!status.ok() && sqlite3_get_autocommit(db_.get()) == 0)
    sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  return status;
}

absl::Status ResultsStore::WriteToRun(absl::string_view run_id,
                                      const std::function<absl::Status(std::int64_t run_key)>& body) {
  return InTransaction([&]() -> absl::Status {
    const absl::StatusOr<std::int64_t> run_key = RunKey(run_id);
    if (!run_key.ok()) return run_key.status();
    return body(*run_key);
  });
}

absl::Status ResultsStore::CheckSchema(bool must_exist) {
  const absl::StatusOr<std::int64_t> tables =
      SelectInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'", "reading the schema");
  if (!tables.ok()) return tables.status();
  const absl::StatusOr<std::int64_t> meta =
      SelectInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'", "reading the schema");
  if (!meta.ok()) return meta.status();
  if ((*tables > 0 || must_exist) && *meta == 0) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s is not a matload results database (it has no meta table)", path_));
  }
  if (*meta == 0) return absl::OkStatus();
  const absl::StatusOr<std::int64_t> version = SelectInt(
      "SELECT CASE WHEN value GLOB '[0-9]*' AND NOT value GLOB '*[^0-9]*' THEN CAST(value AS INTEGER) ELSE -1 END "
      "FROM meta WHERE key = 'schema_version'",
      "reading the version");
  if (!version.ok()) return version.status();
  if (*version < 1) {
    return absl::FailedPreconditionError(
        absl::StrFormat("results database %s is damaged: its schema_version is not a version", path_));
  }
  if (*version > kSchemaVersion) {
    return absl::FailedPreconditionError(
        absl::StrFormat("results database %s was written by a newer matload (schema %d; this matload reads up to %d)",
                        path_, *version, kSchemaVersion));
  }
  // Tables of the same names with other columns are another program's, or
  // damaged: refused here, not failing later on the first query (exit 4).
  // A table that is missing is made when the store is opened to write; the
  // verdict cache, which came later, is not read by the reading commands.
  absl::StatusOr<Statement> columns = Prepare("SELECT name FROM pragma_table_info(?)", "reading the schema");
  if (!columns.ok()) return columns.status();
  for (const auto& [table, expected] : SchemaColumns()) {
    std::set<std::string> found;
    const absl::Status read = columns->BindText(table).ForEachRow([&] {
      found.insert(columns->Text(0));
      return absl::OkStatus();
    });
    if (!read.ok()) return read;
    if (found.empty() && (!must_exist || table == "verdicts")) continue;
    for (const std::string& column : expected) {
      if (found.contains(column)) continue;
      return absl::FailedPreconditionError(
          absl::StrFormat("%s is not a matload results database: its table '%s' %s", path_, table,
                          found.empty() ? "is missing" : absl::StrCat("has no column '", column, "'")));
    }
  }
  return absl::OkStatus();
}

absl::Status ResultsStore::CheckAndCreateSchema() {
  if (absl::Status checked = CheckSchema(/*must_exist=*/false); !checked.ok()) return checked;
  absl::Status created = Exec(kSchemaSql, "creating the tables");
  if (created.ok()) created = Exec(kVerdictsSql, "creating the verdict cache");
  for (const auto& [column, add] : kLaterRunColumns) {
    if (!created.ok()) break;
    const absl::StatusOr<bool> has = HasRunColumn(column);
    created = has.ok() ? absl::OkStatus() : has.status();
    if (created.ok() && !*has) created = Exec(add, absl::StrCat("adding ", column));
  }
  if (!created.ok() && created.code() != absl::StatusCode::kDataLoss &&
      created.code() != absl::StatusCode::kUnavailable) {
    return absl::FailedPreconditionError(absl::StrCat(created.message(), " (the file's tables are not matload's)"));
  }
  return created;
}

absl::StatusOr<bool> ResultsStore::HasRunColumn(absl::string_view column) {
  const absl::StatusOr<std::int64_t> count = SelectInt(
      absl::StrCat("SELECT count(*) FROM pragma_table_info('runs') WHERE name = '", column, "'"), "reading the schema");
  if (!count.ok()) return count.status();
  return *count > 0;
}

absl::StatusOr<std::int64_t> ResultsStore::SelectInt(absl::string_view sql, absl::string_view what) {
  absl::StatusOr<Statement> select = Prepare(sql, what);
  if (!select.ok()) return select.status();
  std::int64_t value = 0;
  const absl::Status status = select->ForEachRow([&] {
    value = select->Int(0);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return value;
}

absl::StatusOr<std::int64_t> ResultsStore::RunKey(absl::string_view run_id) {
  absl::StatusOr<Statement> select = Prepare("SELECT run_key FROM runs WHERE id = ?", "looking up a run");
  if (!select.ok()) return select.status();
  std::optional<std::int64_t> run_key;
  const absl::Status status = select->BindText(run_id).ForEachRow([&] {
    run_key = select->Int(0);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (!run_key.has_value()) return NoSuchRun(path_, run_id);
  return *run_key;
}

absl::StatusOr<std::vector<RunRecord>> ResultsStore::ReadRuns(absl::string_view sql_tail,
                                                              std::optional<absl::string_view> id) {
  absl::StatusOr<Statement> select =
      Prepare(absl::StrCat("SELECT ", RunFields(has_registry_digest_), ", id FROM runs ", sql_tail), "reading runs");
  if (!select.ok()) return select.status();
  if (id.has_value()) select->BindText(*id);
  std::vector<RunRecord> runs;
  const absl::Status status = select->ForEachRow([&]() -> absl::Status {
    absl::StatusOr<RunRecord> run = ReadRun(*select);
    if (!run.ok()) return run.status();
    runs.push_back(*std::move(run));
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return runs;
}

absl::Status ResultsStore::ForEachRowOfRun(absl::string_view run_id, absl::string_view sql, absl::string_view what,
                                           const std::function<absl::Status(const Statement&)>& on_row) {
  const absl::StatusOr<std::int64_t> run_key = RunKey(run_id);
  if (!run_key.ok()) return run_key.status();
  absl::StatusOr<Statement> select = Prepare(sql, what);
  if (!select.ok()) return select.status();
  return select->BindInt(*run_key).ForEachRow([&] { return on_row(*select); });
}

absl::StatusOr<std::vector<std::string>> ResultsStore::ReadTextsOfRun(absl::string_view run_id, absl::string_view sql,
                                                                      absl::string_view what) {
  std::vector<std::string> texts;
  const auto read = [&](const Statement& row) {
    texts.push_back(row.Text(0));
    return absl::OkStatus();
  };
  if (absl::Status status = ForEachRowOfRun(run_id, sql, what, read); !status.ok()) return status;
  return texts;
}

absl::Status ResultsStore::InsertCases(std::int64_t run_key, absl::Span<const CaseRecord> cases) {
  absl::StatusOr<Statement> find = Prepare("SELECT id FROM case_names WHERE name = ?", "interning case names");
  if (!find.ok()) return find.status();
  absl::StatusOr<Statement> add = Prepare("INSERT INTO case_names (name) VALUES (?)", "interning case names");
  if (!add.ok()) return add.status();
  absl::StatusOr<Statement> row = Prepare(
      "INSERT OR REPLACE INTO cases (run_key, name_id, outcome, finding, counts, first_failures, attempts, detail, "
      "bundle, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      "adding cases");
  if (!row.ok()) return row.status();
  for (const CaseRecord& record : cases) {
    const absl::StatusOr<std::int64_t> name_id = InternName(*find, *add, record.id);
    if (!name_id.ok()) return name_id.status();
    if (absl::Status bound = BindCase(record, row->BindInt(run_key).BindInt(*name_id)); !bound.ok()) return bound;
    if (absl::Status added = row->Run(); !added.ok()) return added;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::int64_t> ResultsStore::InternName(Statement& find, Statement& add, absl::string_view name) {
  std::optional<std::int64_t> id;
  const absl::Status found = find.BindText(name).ForEachRow([&] {
    id = find.Int(0);
    return absl::OkStatus();
  });
  if (!found.ok()) return found;
  if (id.has_value()) return *id;
  if (absl::Status added = add.BindText(name).Run(); !added.ok()) return added;
  return sqlite3_last_insert_rowid(db_.get());
}

absl::Status ResultsStore::InsertArtifact(std::int64_t run_key, absl::string_view key, absl::string_view text) {
  return Execute("INSERT OR REPLACE INTO artifacts (run_key, key, text) VALUES (?, ?, ?)", "storing an artifact",
                 [&](Statement& insert) { insert.BindInt(run_key).BindText(key).BindText(text); });
}

}  // namespace matload
