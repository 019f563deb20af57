// RunJournal: one run's life in the results store (results_store.h), from
// its start to its end, so that a run is a durable, resumable record
// rather than a directory of files.
//
// A new run gets an ID ("conform-20261124T052300Z-3f9a1c2e") and a run
// directory that must not hold anything yet (runs/<ID> unless --out says
// otherwise), so that no earlier result, published ones under reports/
// included, is overwritten by accident. Cases are recorded as they finish,
// each batch with what the run needs to take it back (artifacts) in one
// transaction, so a SIGKILL loses at most the cases in flight. A resumed
// run must be asked for with the same options; it keeps what was recorded
// and runs the rest. Only one process writes a run at a time.
#ifndef MATLOAD_HARNESS_RUNS_RUN_JOURNAL_H_
#define MATLOAD_HARNESS_RUNS_RUN_JOURNAL_H_

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "harness/runs/case_record.h"
#include "harness/runs/results_store.h"
#include "harness/runs/shard.h"

namespace matload {

// RunStart says which run a command makes or takes back.
struct RunStart {
  std::string command;       // "conform", "support", "fuzz"
  std::string command_line;  // as typed
  std::string options;       // JSON of the options that decide the cases and results
  std::string out;           // --out, or empty for runs/<ID>
  std::string resume;        // --resume RUN_ID, or empty for a new run
  std::string db;            // the results store's path (ResultsStore::DefaultPath)
  // shard: for one shard of a sharded run (--shard), which one, and the ID
  // of the run it is a shard of (ShardParent); `options` are then the
  // whole run's, so that the shards' runs can be merged (matload merge).
  std::optional<Shard> shard;
  std::string parent;
};

// AsShard makes `start`, whose command and options are set, a run of
// `shard` if there is one: a shard of the run ShardParent names from
// `parent_name` (harness/runs/shard.h). A bad name is kInvalidArgument.
absl::Status AsShard(const std::optional<Shard>& shard, absl::string_view parent_name, RunStart& start);

// RunDirectory is `run`'s directory as the file system names it: the run
// stores its path as text (OutsideText, harness/platform/outside_text.h),
// since a path need not be UTF-8, and this gives back the path's bytes.
std::string RunDirectory(const RunRecord& run);

// RemoveRunDirectory deletes `run`'s directory (its --out) and everything
// in it, only if it is that run's: its run marker (.matload-run, made when
// the run began) names the run. A directory without one, or whose marker
// names another run, is never touched, nor is a path that is no directory:
// it says why it left it (kFailedPrecondition), and kDataLoss when removing
// fails part way. `matload prune --remove_dirs` calls it for pruned runs.
absl::Status RemoveRunDirectory(const RunRecord& run);

// RunJournal records one run. It is made by Start and ended by Finish.
class RunJournal {
 public:
  // Start opens the store and makes a new run, or takes back `resume`.
  // A non-empty run directory for a new run, an unknown run ID, a run that
  // finished, a run started by another command or with other options or as
  // another shard, and a run that another live process writes are each kFailedPrecondition
  // or kNotFound (exit status 2), and change nothing.
  static absl::StatusOr<std::unique_ptr<RunJournal>> Start(const RunStart& start);

  // run is the run's record as stored; directory its run directory's path
  // as the file system names it (RunDirectory(run())).
  const RunRecord& run() const { return run_; }
  const std::string& directory() const { return directory_; }
  // resumed says whether this process took back an earlier run.
  bool resumed() const { return resumed_; }
  // Recorded says whether case `id` was recorded, by this process or
  // before a resume.
  bool Recorded(const std::string& id) const;
  // Artifact is what an earlier attempt stored under `key`, if anything.
  absl::StatusOr<std::optional<std::string>> Artifact(const std::string& key);

  // Describe records what the run runs on (toolkits, driver, GPU), once it
  // is known.
  absl::Status Describe(const std::string& toolkits, const std::string& driver, const std::string& gpu_name,
                        const std::string& gpu_uuid);
  // Record stores finished cases and the artifacts that go with them, in
  // one transaction; safe to call from several threads.
  absl::Status Record(absl::Span<const CaseRecord> cases, const std::map<std::string, std::string>& artifacts = {});
  // Cases is every case the run recorded, in case ID order, as the store
  // has them. A run that was not resumed has recorded them all in this
  // process, which keeps them, so they are not read back from the store:
  // a support sweep's 600,000 cases took a second to read.
  absl::StatusOr<std::vector<CaseRecord>> Cases();
  // Ended is the run's record as Finish(exit_status, now) will store it,
  // for what is written before the run ends (its report).
  RunRecord Ended(int exit_status, absl::Time now) const;
  // Finish ends the run with `exit_status` (harness/platform/exit_status.h), which
  // decides its status word, at `now`, and releases it. Then it reads the
  // run back through a connection of its own (ReadBack): kDataLoss (exit
  // 4) when the store no longer holds it as written.
  absl::Status Finish(int exit_status, absl::Time now = absl::Now());

 private:
  RunJournal(ResultsStore store, RunRecord run, bool resumed, absl::flat_hash_set<std::string> recorded)
      : store_(std::move(store)),
        run_(std::move(run)),
        directory_(RunDirectory(run_)),
        resumed_(resumed),
        recorded_(std::move(recorded)) {}

  // ReadBack opens the store afresh and checks that it holds the run as
  // run_ says, kDataLoss if not: a -wal file deleted while the run wrote
  // takes every write of the run with it, and the connection that wrote
  // them still reads them, so only a fresh one sees the loss.
  absl::Status ReadBack() const;

  // Make and TakeBack are Start's two halves.
  static absl::StatusOr<std::unique_ptr<RunJournal>> Make(const RunStart& start, ResultsStore store);
  static absl::StatusOr<std::unique_ptr<RunJournal>> TakeBack(const RunStart& start, ResultsStore store);

  ResultsStore store_;
  RunRecord run_;
  std::string directory_;
  bool resumed_ = false;
  // recorded_ holds the IDs of the cases recorded before a resume and by
  // this process: at once in a resumed run, else those of the first
  // `indexed_` batches of written_, indexed only when Recorded asks (a
  // support sweep never does; it records 600,000 cases).
  mutable absl::flat_hash_set<std::string> recorded_;
  mutable size_t indexed_ = 0;
  std::vector<std::vector<CaseRecord>> written_;  // the batches this process recorded, in order, each InIdOrder
  mutable std::mutex mutex_;  // guards store_, run_, recorded_, indexed_ and written_ across the sweep's threads
};

// NewRunId names a new run of `command` started at `now`.
std::string NewRunId(absl::string_view command, absl::Time now);

// ShardFlags are the flags that make a run of `run`'s shard again, as its
// resumption must be asked for: "--shard 1/4 --parent slurm4242" (the
// parent's name without the command), or "without --shard" for a whole run.
std::string ShardFlags(const RunRecord& run);

// Finished says whether `run` judged everything it was asked to: it ended
// clean or with findings. An interrupted run (resumable), one that could
// not judge (infrastructure), found no GPU or was refused is not.
bool Finished(const RunRecord& run);

// RunStatusWord is the status a run that ended with `exit_status` is
// stored with: "clean", "findings", "usage", "compile-only",
// "infrastructure" or "interrupted".
std::string RunStatusWord(int exit_status);

// HowItEnded says in words how `run` ended, or that it has not, for
// messages and exports: "found no usable GPU (exit 3): matload was
// compile-only on gpu-17", "was interrupted by signal 15 (exit 143);
// --resume finishes it", "is still running, or was killed ...", ...
std::string HowItEnded(const RunRecord& run);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_RUN_JOURNAL_H_
