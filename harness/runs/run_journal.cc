#include "harness/runs/run_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "harness/platform/host_name.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/build_info.h"
#include "harness/runs/registry_in_force.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// IdLess orders cases by ID in byte order, as the store reads them back
// (std::string compares bytes as unsigned char, like SQLite's BINARY).
bool IdLess(const CaseRecord* a, const CaseRecord* b) { return a->id < b->id; }

// LatestOf is the cases of `order`, sorted by ID, stably, each ID once with
// its last record, as the store keeps them: AddCases replaces a case
// recorded again.
std::vector<CaseRecord> LatestOf(const std::vector<const CaseRecord*>& order) {
  std::vector<CaseRecord> latest;
  latest.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i + 1 < order.size() && order[i + 1]->id == order[i]->id) continue;  // recorded again later
    latest.push_back(*order[i]);
  }
  return latest;
}

// InIdOrder is one batch of cases as the store keeps it: in ID order, each
// ID once with its last record.
std::vector<CaseRecord> InIdOrder(absl::Span<const CaseRecord> cases) {
  std::vector<const CaseRecord*> order;
  order.reserve(cases.size());
  for (const CaseRecord& record : cases) order.push_back(&record);
  std::stable_sort(order.begin(), order.end(), IdLess);
  return LatestOf(order);
}

// MergedInIdOrder is `batches`, each in ID order (InIdOrder) and recorded
// in that order, as the store keeps them: in ID order, each ID once with
// the record of the last batch that has it. Neighbouring batches are
// merged, stably, until one is left.
std::vector<CaseRecord> MergedInIdOrder(const std::vector<std::vector<CaseRecord>>& batches) {
  std::vector<const CaseRecord*> order;
  std::vector<size_t> bounds = {0};  // where each sorted run of `order` starts, and its end
  for (const std::vector<CaseRecord>& batch : batches) {
    for (const CaseRecord& record : batch) order.push_back(&record);
    bounds.push_back(order.size());
  }
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {0};
    for (size_t i = 2; i < bounds.size(); i += 2) {
      std::inplace_merge(order.begin() + bounds[i - 2], order.begin() + bounds[i - 1], order.begin() + bounds[i],
                         IdLess);
      merged.push_back(bounds[i]);
    }
    if (bounds.size() % 2 == 0) merged.push_back(bounds.back());  // an odd run left over waits a round
    bounds = std::move(merged);
  }
  return LatestOf(order);
}

// kRunMarker is the file a new run claims its directory with, holding the
// run's ID: made with O_EXCL, so that of two runs started at once into one
// directory only one gets it.
constexpr char kRunMarker[] = ".matload-run";

// ClaimDirectory makes `directory`'s run marker for run `id`, or says that
// another run has it.
absl::Status ClaimDirectory(const std::string& directory, const std::string& id) {
  const std::string marker = (std::filesystem::path(directory) / kRunMarker).string();
  const int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    return absl::FailedPreconditionError(
        absl::StrCat("--out ", directory, " was just taken by another run; a new run never writes over results"));
  }
  if (fd < 0) return absl::FailedPreconditionError(absl::StrCat("cannot write ", marker, ": ", std::strerror(errno)));
  const std::string text = id + "\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written) return absl::DataLossError(absl::StrCat("cannot write ", marker));
  return absl::OkStatus();
}

// PrepareNewDirectory makes a new run's directory: it may not exist yet or
// be empty, and nothing else, so that no result is overwritten.
absl::Status PrepareNewDirectory(const std::string& directory) {
  std::error_code error;
  const std::filesystem::path path(directory);
  if (std::filesystem::exists(path, error)) {
    if (!std::filesystem::is_directory(path, error)) {
      return absl::FailedPreconditionError(absl::StrCat("--out ", directory, " is a file, not a directory"));
    }
    if (!std::filesystem::is_empty(path, error)) {
      return absl::FailedPreconditionError(
          absl::StrCat("--out ", directory, " is not empty: a new run never writes over results (choose another ",
                       "directory, remove it, or --resume the run that made it)"));
    }
  }
  std::filesystem::create_directories(path, error);
  if (error) return absl::FailedPreconditionError(absl::StrCat("cannot create ", directory, ": ", error.message()));
  return absl::OkStatus();
}

// AbsoluteDirectory is `directory` made absolute and normal, without a
// trailing '/', so that two spellings of one directory compare equal.
std::filesystem::path AbsoluteDirectory(const std::string& directory, std::error_code& error) {
  std::filesystem::path path = std::filesystem::absolute(directory, error).lexically_normal();
  if (path.filename().empty() && path.has_parent_path()) path = path.parent_path();
  return path;
}

// ShardName is how a run of `start` stores its shard: "I/N", or empty.
std::string ShardName(const RunStart& start) { return start.shard.has_value() ? start.shard->Name() : ""; }

// OptionsChanged says how options `now` differ from the options a run was
// `started` with, both JSON objects (RunStart::options), naming each option
// that differs: "variants was 4 and is 8 now".
std::string OptionsChanged(const std::string& started, const std::string& now) {
  const nlohmann::json before = nlohmann::json::parse(started, nullptr, false);
  const nlohmann::json after = nlohmann::json::parse(now, nullptr, false);
  if (!before.is_object() || !after.is_object()) return absl::StrCat("they were ", started, " and are ", now, " now");
  nlohmann::json either = before;
  either.update(after);
  auto value = [](const nlohmann::json& options, const std::string& key) {
    return options.contains(key) ? options[key].dump() : "not set";
  };
  std::vector<std::string> changed;
  for (const auto& [key, ignored] : either.items()) {
    const std::string was = value(before, key);
    const std::string is = value(after, key);
    if (was != is) changed.push_back(absl::StrCat(key, " was ", was, " and is ", is, " now"));
  }
  return absl::StrJoin(changed, ", ");
}

// Resumable says why `run` cannot be taken back by `start`, or OK.
absl::Status Resumable(const RunRecord& run, const RunStart& start) {
  if (run.command != start.command) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id, " is a '", run.command, "' run; resume it with matload ", run.command));
  }
  if (Finished(run)) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id, " finished (", run.status, "); there is nothing to resume"));
  }
  if (run.options != start.options) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id, " was started with other options: ", OptionsChanged(run.options, start.options),
                     "; --resume takes the run's own options: leave out those that differ"));
  }
  if (run.shard != ShardName(start) || run.parent != start.parent) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id,
                     run.shard.empty() ? " is not a shard" : absl::StrCat(" is shard ", run.shard, " of ", run.parent),
                     "; resume it as it was started (", ShardFlags(run), ")"));
  }
  // A run an older matload began recorded no registry: it is taken back as it is.
  if (!run.registry_digest.empty() && run.registry_digest != RegistryInForce().digest) {
    return absl::FailedPreconditionError(absl::StrCat(
        "run ", run.id, " was judged by the discrepancy registry with SHA-256 ", run.registry_digest, ", and ",
        RegistryInForce().origin, " has ", RegistryInForce().digest,
        "; resume it with the registry it began with (--registry FILE), so that one registry judges all of it"));
  }
  std::error_code error;
  if (!start.out.empty() && AbsoluteDirectory(start.out, error) != std::filesystem::path(RunDirectory(run))) {
    return absl::FailedPreconditionError(
        absl::StrCat("run ", run.id, " writes to ", run.directory, ", not --out ", start.out));
  }
  return absl::OkStatus();
}

}  // namespace

std::string RunDirectory(const RunRecord& run) { return OutsideBytes(run.directory); }

absl::Status RemoveRunDirectory(const RunRecord& run) {
  const std::filesystem::path directory(RunDirectory(run));
  std::error_code error;
  if (run.directory.empty() || !std::filesystem::is_directory(std::filesystem::symlink_status(directory, error))) {
    return absl::FailedPreconditionError(absl::StrCat("left ", run.directory, ": not a directory"));
  }
  std::ifstream marker(directory / kRunMarker, std::ios::binary);
  std::string named;
  std::getline(marker, named);
  if (named != run.id) {
    return absl::FailedPreconditionError(
        absl::StrCat("left ", run.directory, ": its ", kRunMarker, " does not name run ", run.id,
                     " (a directory matload did not make for that run is never removed)"));
  }
  std::filesystem::remove_all(directory, error);
  if (error) return absl::DataLossError(absl::StrCat("removing ", run.directory, ": ", error.message()));
  return absl::OkStatus();
}

std::string NewRunId(absl::string_view command, absl::Time now) {
  std::random_device entropy;
  return absl::StrFormat("%s-%s-%08x", command, absl::FormatTime("%Y%m%dT%H%M%SZ", now, absl::UTCTimeZone()),
                         entropy());
}

absl::Status AsShard(const std::optional<Shard>& shard, absl::string_view parent_name, RunStart& start) {
  start.shard = shard;
  if (!shard.has_value()) return absl::OkStatus();
  absl::StatusOr<std::string> parent = ShardParent(start.command, parent_name, start.options);
  if (!parent.ok()) return parent.status();
  start.parent = *std::move(parent);
  return absl::OkStatus();
}

std::string ShardFlags(const RunRecord& run) {
  if (run.shard.empty()) return "without --shard";
  absl::string_view name = run.parent;
  absl::ConsumePrefix(&name, absl::StrCat(run.command, "-"));
  return absl::StrCat("--shard ", run.shard, " --parent ", name);
}

bool Finished(const RunRecord& run) { return run.status == "clean" || run.status == "findings"; }

std::string RunStatusWord(int exit_status) {
  switch (exit_status) {
    case 0: return "clean";
    case 1: return "findings";
    case 2: return "usage";
    case 3: return "compile-only";
    case 4: return "infrastructure";
    default: return "interrupted";
  }
}

std::string HowItEnded(const RunRecord& run) {
  const std::string exit = absl::StrCat(" (exit ", run.exit_status, ")");
  if (run.status == "clean") return absl::StrCat("ended clean", exit);
  if (run.status == "findings") return absl::StrCat("ended with findings", exit);
  if (run.status == "usage") {
    return absl::StrCat("was refused", exit, ": it could not be judged as asked (a case filter that takes no case, a ",
                        "stale baseline); its output said why");
  }
  if (run.status == "compile-only") {
    return absl::StrCat("found no usable GPU", exit, ": matload was compile-only on ", run.host);
  }
  if (run.status == "infrastructure") {
    return absl::StrCat("could not judge everything", exit,
                        ": the GPU, a compiler, a worker or the disk failed; the summary in ", run.directory,
                        " says which");
  }
  // A soak is time-boxed and not resumed (docs/soak.md): the rounds it finished are what it judged.
  const absl::string_view next =
      run.command == "soak" ? "a soak is not resumed: start a new one" : "--resume finishes it";
  if (run.status == "interrupted" && run.exit_status > 128) {
    return absl::StrCat("was interrupted by signal ", run.exit_status - 128, exit, "; ", next);
  }
  if (run.status == "killed" || run.status == "running") {
    return absl::StrCat("is still running, or was killed without a word; ", next);
  }
  return absl::StrCat("ended ", run.status, exit);
}

absl::StatusOr<std::unique_ptr<RunJournal>> RunJournal::Start(const RunStart& start) {
  absl::StatusOr<ResultsStore> store = ResultsStore::Open(start.db);
  if (!store.ok()) return store.status();
  return start.resume.empty() ? Make(start, *std::move(store)) : TakeBack(start, *std::move(store));
}

absl::StatusOr<std::unique_ptr<RunJournal>> RunJournal::Make(const RunStart& start, ResultsStore store) {
  const absl::Time now = absl::Now();
  RunRecord run{.id = NewRunId(start.command, now),
                .command = start.command,
                .command_line = start.command_line,
                .matload_version = MatloadVersion(),
                .git_commit = GitCommit(),
                .registry_digest = RegistryInForce().digest,
                .host = HostName(),
                .options = start.options,
                .parent = start.parent,
                .shard = ShardName(start),
                .started = absl::FromUnixMillis(absl::ToUnixMillis(now))};
  // Absolute, so that the run can be resumed from any working directory.
  std::error_code error;
  const std::string directory =
      AbsoluteDirectory(start.out.empty() ? absl::StrCat("runs/", run.id) : start.out, error).string();
  if (error) return absl::FailedPreconditionError(absl::StrCat("--out ", start.out, ": ", error.message()));
  run.directory = OutsideText(directory);
  if (absl::Status prepared = PrepareNewDirectory(directory); !prepared.ok()) return prepared;
  if (absl::Status claimed = ClaimDirectory(directory, run.id); !claimed.ok()) return claimed;
  if (absl::Status created = store.CreateRun(run); !created.ok()) return created;
  if (absl::Status claimed = store.ClaimRun(run.id); !claimed.ok()) return claimed;
  return std::unique_ptr<RunJournal>(new RunJournal(std::move(store), std::move(run), false, {}));
}

absl::StatusOr<std::unique_ptr<RunJournal>> RunJournal::TakeBack(const RunStart& start, ResultsStore store) {
  absl::StatusOr<RunRecord> run = store.FindRun(start.resume);
  if (!run.ok()) return run.status();
  if (absl::Status resumable = Resumable(*run, start); !resumable.ok()) return resumable;
  if (absl::Status claimed = store.ClaimRun(run->id); !claimed.ok()) return claimed;
  absl::StatusOr<std::vector<std::string>> ids = store.CaseIds(run->id);
  if (!ids.ok()) return ids.status();
  std::error_code error;
  std::filesystem::create_directories(RunDirectory(*run), error);
  if (error)
    return absl::FailedPreconditionError(absl::StrCat("cannot create ", run->directory, ": ", error.message()));
  run->status = "running";
  run->exit_status = -1;
  run->ended = absl::InfinitePast();
  if (absl::Status updated = store.UpdateRun(*run); !updated.ok()) return updated;
  return std::unique_ptr<RunJournal>(new RunJournal(std::move(store), *std::move(run), true,
                                                    absl::flat_hash_set<std::string>(ids->begin(), ids->end())));
}

bool RunJournal::Recorded(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (; indexed_ < written_.size(); ++indexed_) {
    for (const CaseRecord& record : written_[indexed_]) recorded_.insert(record.id);
  }
  return recorded_.contains(id);
}

absl::StatusOr<std::optional<std::string>> RunJournal::Artifact(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  return store_.Artifact(run_.id, key);
}

absl::Status RunJournal::Describe(const std::string& toolkits, const std::string& driver, const std::string& gpu_name,
                                  const std::string& gpu_uuid) {
  std::lock_guard<std::mutex> lock(mutex_);
  run_.toolkits = toolkits;
  run_.driver = driver;
  run_.gpu_name = gpu_name;
  run_.gpu_uuid = gpu_uuid;
  return store_.UpdateRun(run_);
}

absl::Status RunJournal::Record(absl::Span<const CaseRecord> cases,
                                const std::map<std::string, std::string>& artifacts) {
  // Sorted before the lock, so that threads sort their own batches at once.
  std::vector<CaseRecord> batch = resumed_ ? std::vector<CaseRecord>() : InIdOrder(cases);
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status committed = store_.Commit(run_.id, cases, artifacts); !committed.ok()) return committed;
  if (resumed_) {
    for (const CaseRecord& record : cases) recorded_.insert(record.id);
  } else {
    written_.push_back(std::move(batch));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<CaseRecord>> RunJournal::Cases() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (resumed_) return store_.Cases(run_.id);
  return MergedInIdOrder(written_);
}

RunRecord RunJournal::Ended(int exit_status, absl::Time now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  RunRecord ended = run_;
  ended.exit_status = exit_status;
  ended.status = RunStatusWord(exit_status);
  ended.ended = absl::FromUnixMillis(absl::ToUnixMillis(now));
  return ended;
}

absl::Status RunJournal::Finish(int exit_status, absl::Time now) {
  RunRecord ended = Ended(exit_status, now);
  std::lock_guard<std::mutex> lock(mutex_);
  run_ = std::move(ended);
  if (absl::Status updated = store_.UpdateRun(run_); !updated.ok()) return updated;
  if (absl::Status released = store_.ReleaseRun(run_.id); !released.ok()) return released;
  return ReadBack();
}

absl::Status RunJournal::ReadBack() const {
  absl::StatusOr<ResultsStore> fresh = ResultsStore::OpenReadOnly(store_.path());
  absl::StatusOr<RunRecord> stored = fresh.ok() ? fresh->FindRun(run_.id) : fresh.status();
  if (stored.ok() && *stored == run_) return absl::OkStatus();
  return absl::DataLossError(
      absl::StrCat("run ", run_.id, " is not in ", OutsideText(store_.path()), " as it was written (",
                   stored.ok() ? "it reads back otherwise" : stored.status().message(),
                   "): its -wal file was deleted or the store replaced while it ran; its files in ",
                   OutsideText(directory_), " are all that is left of it"));
}

}  // namespace matload
