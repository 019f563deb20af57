#include "harness/batch_checker.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "harness/diagnostic_classifier.h"
#include "harness/infrastructure.h"
#include "harness/ptx_module.h"

namespace matload {

namespace {

// kMaxBatch bounds the snippets in one module. Measured on this project's
// 2-core machine: large enough that process start-up is amortised, small
// enough that bisecting an unattributed error re-assembles little.
constexpr size_t kMaxBatch = 512;

// kCanary is the canary module's one instruction: no compiler knows it,
// so every compiler must reject it with an error on its line.
constexpr absl::string_view kCanary = "matload_canary_must_be_rejected;";

// RunOutcome is what one ptxas run established about its snippets.
struct RunOutcome {
  bool accepted = false;                    // the module assembled
  size_t judged = 0;                        // snippets before ptxas stopped
  std::vector<std::string> module_errors;  // errors on no snippet's lines
};

// Tally gathers the BatchReport from every thread and spends the bisection
// budget.
class Tally {
 public:
  explicit Tally(size_t max_bisection_runs) : max_bisection_runs_(max_bisection_runs) {}

  void CountRun() {
    absl::MutexLock lock(&mutex_);
    ++report_.runs;
  }
  // NoteUnrecognised keeps `line` for the report, once.
  void NoteUnrecognised(const std::string& line) {
    absl::MutexLock lock(&mutex_);
    std::vector<std::string>& lines = report_.unrecognised_lines;
    const bool known = std::find(lines.begin(), lines.end(), line) != lines.end();
    if (!known && lines.size() < BatchReport::kMaxUnrecognisedLines) lines.push_back(line);
  }
  // SpendBisection takes one bisection's two runs from the budget; false
  // when they are not left.
  bool SpendBisection() {
    absl::MutexLock lock(&mutex_);
    if (report_.bisection_runs + 2 > max_bisection_runs_) return false;
    report_.bisection_runs += 2;
    return true;
  }
  void CountUnjudged(size_t count) {
    absl::MutexLock lock(&mutex_);
    report_.unjudged += count;
  }
  BatchReport report() {
    absl::MutexLock lock(&mutex_);
    return report_;
  }

 private:
  const size_t max_bisection_runs_;
  absl::Mutex mutex_;
  BatchReport report_ ABSL_GUARDED_BY(mutex_);
};

// ModuleBuilder writes a module holding the snippets at `indices`.
using ModuleBuilder = std::function<PtxModule(const std::vector<size_t>& indices)>;

// Batch is what every run of one CheckSnippets call shares.
struct Batch {
  const CompileOracle& compiler;
  const ModuleBuilder& build;
  Target target;
  std::vector<CompilerVerdict>& verdicts;
  Tally& tally;
};

// RunOnce assembles `indices` of the snippets in one module and appends
// each line-attributed error to its snippet's verdict.
absl::StatusOr<RunOutcome> RunOnce(const Batch& batch, const std::vector<size_t>& indices) {
  PtxModule module = batch.build(indices);
  batch.tally.CountRun();
  absl::StatusOr<AssembleResult> result = batch.compiler.Assemble(module.text, batch.target);
  if (!result.ok()) return result.status();
  RunOutcome outcome{.accepted = result->accepted, .judged = indices.size()};
  for (const Diagnostic& diagnostic : result->diagnostics) {
    if (diagnostic.severity == Diagnostic::Severity::kUnrecognised) {
      batch.tally.NoteUnrecognised(diagnostic.message);
      continue;
    }
    if (diagnostic.severity == Diagnostic::Severity::kWarning || IsSummaryMessage(diagnostic.message)) continue;
    const int position = diagnostic.line > 0 ? module.SnippetAt(diagnostic.line) : -1;
    if (position < 0) {
      outcome.module_errors.push_back(diagnostic.message);
      continue;
    }
    batch.verdicts[indices[position]].messages.push_back(diagnostic.message);
    if (diagnostic.severity == Diagnostic::Severity::kFatal) {
      outcome.judged = static_cast<size_t>(position) + 1;
      break;
    }
  }
  return outcome;
}

// WorkQueue holds the runs still to make. `jobs` threads take runs from it;
// a run may add runs (the halves of a bisection, the snippets to judge
// again). Each snippet belongs to one run at a time, so runs never touch
// the same verdicts.
class WorkQueue {
 public:
  explicit WorkQueue(std::vector<std::vector<size_t>> runs) : runs_(std::move(runs)) {}

  // Take waits for a run; it is nullopt once no run is left or in flight,
  // or after Fail.
  std::optional<std::vector<size_t>> Take() {
    absl::MutexLock lock(&mutex_);
    mutex_.Await(absl::Condition(this, &WorkQueue::Ready));
    if (runs_.empty() || !status_.ok()) return std::nullopt;
    std::vector<size_t> run = std::move(runs_.back());
    runs_.pop_back();
    ++in_flight_;
    return run;
  }
  // Done ends a run taken by Take, adding the runs it leads to.
  void Done(std::vector<std::vector<size_t>> more) {
    absl::MutexLock lock(&mutex_);
    for (std::vector<size_t>& run : more) {
      if (!run.empty()) runs_.push_back(std::move(run));
    }
    --in_flight_;
  }
  // Fail ends a run with an error, which stops every thread.
  void Fail(absl::Status status) {
    absl::MutexLock lock(&mutex_);
    if (status_.ok()) status_ = std::move(status);
    --in_flight_;
  }
  absl::Status status() {
    absl::MutexLock lock(&mutex_);
    return status_;
  }

 private:
  bool Ready() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return !runs_.empty() || in_flight_ == 0 || !status_.ok();
  }

  absl::Mutex mutex_;
  std::vector<std::vector<size_t>> runs_ ABSL_GUARDED_BY(mutex_);
  int in_flight_ ABSL_GUARDED_BY(mutex_) = 0;
  absl::Status status_ ABSL_GUARDED_BY(mutex_);
};

// Unattributed handles a run of several snippets with errors on no line:
// each half is judged again from scratch, so that every snippet ends with
// the messages of its own run, while the bisection budget lasts; after it,
// the snippets are left unjudged.
void Unattributed(const Batch& batch, const std::vector<size_t>& judged, const std::vector<std::string>& module_errors,
                  std::vector<std::vector<size_t>>& more) {
  if (!batch.tally.SpendBisection()) {
    for (size_t index : judged) batch.verdicts[index] = {.accepted = false, .messages = module_errors, .judged = false};
    batch.tally.CountUnjudged(judged.size());
    return;
  }
  for (size_t index : judged) batch.verdicts[index].messages.clear();
  const long half = static_cast<long>(judged.size() / 2);
  more.emplace_back(judged.begin(), judged.begin() + half);
  more.emplace_back(judged.begin() + half, judged.end());
}

// Attributed handles a run whose errors all name a snippet's line: a
// snippet with errors is rejected, and the clean ones are accepted if the
// module assembled, else judged again.
absl::Status Attributed(const Batch& batch, const std::vector<size_t>& judged, bool accepted,
                        std::vector<std::vector<size_t>>& more) {
  const auto has_messages = [&batch](size_t index) { return !batch.verdicts[index].messages.empty(); };
  if (!accepted && std::none_of(judged.begin(), judged.end(), has_messages)) {
    return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                               absl::StrCat(batch.compiler.Toolchain(), " rejected a module for ",
                                            batch.target.Name(), " without an error message in its format"));
  }
  std::vector<size_t>& clean = more.emplace_back();
  for (size_t index : judged) {
    if (has_messages(index)) continue;  // rejected for its own errors
    if (accepted) {
      batch.verdicts[index].accepted = true;
    } else {
      clean.push_back(index);  // clean in a failed run: judge again
    }
  }
  return absl::OkStatus();
}

// Judge makes one run of `pending` and says which runs it leads to.
absl::StatusOr<std::vector<std::vector<size_t>>> Judge(const Batch& batch, const std::vector<size_t>& pending) {
  absl::StatusOr<RunOutcome> outcome = RunOnce(batch, pending);
  if (!outcome.ok()) return outcome.status();
  std::vector<std::vector<size_t>> more;
  const bool unattributed = !outcome->module_errors.empty();
  std::vector<size_t> judged(pending.begin(), pending.begin() + static_cast<long>(outcome->judged));
  more.emplace_back(pending.begin() + static_cast<long>(outcome->judged), pending.end());  // not judged
  if (unattributed && judged.size() == 1) {
    std::vector<std::string>& messages = batch.verdicts[judged[0]].messages;
    messages.insert(messages.end(), outcome->module_errors.begin(), outcome->module_errors.end());
  } else if (unattributed) {
    Unattributed(batch, judged, outcome->module_errors, more);
  } else if (absl::Status status = Attributed(batch, judged, outcome->accepted, more); !status.ok()) {
    return status;
  }
  return more;
}

// FirstBatches deals snippets 0..count-1 into batches of at most kMaxBatch,
// in order, keeping the snippets guessed legal apart from the others.
std::vector<std::vector<size_t>> FirstBatches(size_t count, const std::vector<bool>& predicted_legal) {
  std::vector<std::vector<size_t>> batches;
  for (const bool legal : {true, false}) {
    std::vector<size_t> group;
    for (size_t i = 0; i < count; ++i) {
      if (predicted_legal.empty() ? legal : predicted_legal[i] == legal) group.push_back(i);
    }
    for (size_t first = 0; first < group.size(); first += kMaxBatch) {
      batches.emplace_back(group.begin() + static_cast<long>(first),
                           group.begin() + static_cast<long>(std::min(group.size(), first + kMaxBatch)));
    }
  }
  return batches;
}

// ProbeCanary assembles the canary module, which must be rejected with an
// error on the canary's line.
absl::Status ProbeCanary(const Batch& batch, PtxVersion ptx) {
  const PtxModule module = BuildTextModule({std::string(kCanary)}, ptx, batch.target);
  batch.tally.CountRun();
  absl::StatusOr<AssembleResult> canary = batch.compiler.Assemble(module.text, batch.target);
  if (!canary.ok()) return canary.status();
  const auto names_the_canary = [&module](const Diagnostic& d) {
    return d.severity != Diagnostic::Severity::kWarning && d.severity != Diagnostic::Severity::kUnrecognised &&
           d.line > 0 && module.SnippetAt(d.line) == 0;
  };
  const bool on_its_line = std::any_of(canary->diagnostics.begin(), canary->diagnostics.end(), names_the_canary);
  if (!canary->accepted && on_its_line) return absl::OkStatus();
  return InfrastructureError(
      InfrastructureCause::kCompilerOutputNotUnderstood,
      absl::StrCat(batch.compiler.Toolchain(), (canary->accepted ? " accepted" : " rejected without naming its line"),
                   " a module for ", batch.target.Name(), " holding only '", kCanary,
                   "', which must be rejected: its verdicts cannot be trusted"));
}

// ProbeEmptyModule assembles a module with no snippet. It is true when the
// snippets are to be judged; false when the module was rejected for a
// (ptx, target) that does not exist, whose errors then belong to every
// snippet.
absl::StatusOr<bool> ProbeEmptyModule(const Batch& batch, PtxVersion ptx) {
  absl::StatusOr<RunOutcome> empty = RunOnce(batch, {});
  if (!empty.ok()) return empty.status();
  if (empty->accepted) return true;
  if (TargetExistsIn(batch.target, ptx)) {
    return InfrastructureError(
        InfrastructureCause::kCompilerOutputNotUnderstood,
        absl::StrCat(batch.compiler.Toolchain(), " rejected an empty module for ", batch.target.Name(), " at PTX ",
                     ptx.ToString(), ", which exists there (", absl::StrJoin(empty->module_errors, "; "),
                     "): it cannot judge any snippet"));
  }
  for (CompilerVerdict& verdict : batch.verdicts) verdict.messages = empty->module_errors;
  return false;
}

// JudgeAll makes every run, on `jobs` threads, starting from `batches`.
absl::Status JudgeAll(const Batch& batch, std::vector<std::vector<size_t>> batches, int jobs) {
  WorkQueue queue(std::move(batches));
  const auto work = [&] {
    while (std::optional<std::vector<size_t>> pending = queue.Take()) {
      absl::StatusOr<std::vector<std::vector<size_t>>> more = Judge(batch, *pending);
      if (more.ok()) {
        queue.Done(*std::move(more));
      } else {
        queue.Fail(more.status());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int job = 1; job < jobs; ++job) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  return queue.status();
}

// Check is the batch algorithm of CheckSnippets over `count` snippets.
absl::StatusOr<std::vector<CompilerVerdict>> Check(const CompileOracle& compiler, size_t count,
                                                   const ModuleBuilder& build, PtxVersion ptx, Target target,
                                                   const BatchOptions& options) {
  if (!options.predicted_legal.empty() && options.predicted_legal.size() != count) {
    return absl::InvalidArgumentError(absl::StrCat("predicted_legal holds ", options.predicted_legal.size(),
                                                   " guesses for ", count, " snippets"));
  }
  std::vector<CompilerVerdict> verdicts(count);
  Tally tally(options.max_bisection_runs);
  const Batch batch{.compiler = compiler, .build = build, .target = target, .verdicts = verdicts, .tally = tally};
  absl::StatusOr<bool> to_judge = ProbeEmptyModule(batch, ptx);
  if (!to_judge.ok()) return to_judge.status();
  if (*to_judge) {
    if (absl::Status canary = ProbeCanary(batch, ptx); !canary.ok()) return canary;
    // Bounded batches keep a bisection cheap.
    if (absl::Status judged = JudgeAll(batch, FirstBatches(count, options.predicted_legal), options.jobs);
        !judged.ok()) {
      return judged;
    }
  }
  if (options.report != nullptr) *options.report = tally.report();
  return verdicts;
}

}  // namespace

absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler,
                                                           const std::vector<Snippet>& snippets, PtxVersion ptx,
                                                           Target target, const BatchOptions& options) {
  return Check(
      compiler, snippets.size(),
      [&](const std::vector<size_t>& indices) {
        std::vector<Snippet> batch;
        for (size_t index : indices) batch.push_back(snippets[index]);
        return BuildModule(batch, ptx, target);
      },
      ptx, target, options);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                        const std::vector<std::string>& texts, PtxVersion ptx,
                                                        Target target, const BatchOptions& options) {
  return Check(
      compiler, texts.size(),
      [&](const std::vector<size_t>& indices) {
        std::vector<std::string> batch;
        for (size_t index : indices) batch.push_back(texts[index]);
        return BuildTextModule(batch, ptx, target);
      },
      ptx, target, options);
}

}  // namespace matload
