#include "harness/batch_checker.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "harness/diagnostic_classifier.h"
#include "harness/ptx_module.h"

namespace matload {

namespace {

// kMaxBatch bounds the snippets in one module. Measured on this project's
// 2-core machine: large enough that process start-up is amortised, small
// enough that bisecting an unattributed error re-assembles little.
constexpr size_t kMaxBatch = 512;

// RunOutcome is what one ptxas run established about its snippets.
struct RunOutcome {
  bool accepted = false;                    // the module assembled
  size_t judged = 0;                        // snippets before ptxas stopped
  std::vector<std::string> module_errors;  // errors on no snippet's lines
};

// RunOnce assembles `indices` of `snippets` in one module and appends each
// line-attributed error to its snippet's verdict.
// ModuleBuilder writes a module holding the snippets at `indices`.
using ModuleBuilder = std::function<PtxModule(const std::vector<size_t>& indices)>;

absl::StatusOr<RunOutcome> RunOnce(const CompileOracle& compiler, const ModuleBuilder& build, const std::vector<size_t>& indices,
                                   Target target, std::vector<CompilerVerdict>& verdicts) {
  PtxModule module = build(indices);
  absl::StatusOr<AssembleResult> result = compiler.Assemble(module.text, target);
  if (!result.ok()) return result.status();
  RunOutcome outcome{.accepted = result->accepted, .judged = indices.size()};
  for (const Diagnostic& diagnostic : result->diagnostics) {
    if (diagnostic.severity == Diagnostic::Severity::kWarning || IsSummaryMessage(diagnostic.message)) continue;
    const int position = diagnostic.line > 0 ? module.SnippetAt(diagnostic.line) : -1;
    if (position < 0) {
      outcome.module_errors.push_back(diagnostic.message);
      continue;
    }
    verdicts[indices[position]].messages.push_back(diagnostic.message);
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

// Judge makes one run of `pending` and says which runs it leads to.
absl::StatusOr<std::vector<std::vector<size_t>>> Judge(const CompileOracle& compiler, const ModuleBuilder& build,
                                                       const std::vector<size_t>& pending, Target target,
                                                       std::vector<CompilerVerdict>& verdicts) {
  absl::StatusOr<RunOutcome> outcome = RunOnce(compiler, build, pending, target, verdicts);
  if (!outcome.ok()) return outcome.status();
  std::vector<std::vector<size_t>> more;
  const bool unattributed = !outcome->module_errors.empty();
  std::vector<size_t> judged(pending.begin(), pending.begin() + static_cast<long>(outcome->judged));
  more.emplace_back(pending.begin() + static_cast<long>(outcome->judged), pending.end());  // not judged
  if (unattributed && judged.size() == 1) {
    std::vector<std::string>& messages = verdicts[judged[0]].messages;
    messages.insert(messages.end(), outcome->module_errors.begin(), outcome->module_errors.end());
  } else if (unattributed) {
    // Some snippet caused errors on no line: judge each half again from
    // scratch, so that every snippet ends with the messages of its own run.
    for (size_t index : judged) verdicts[index].messages.clear();
    const long half = static_cast<long>(judged.size() / 2);
    more.emplace_back(judged.begin(), judged.begin() + half);
    more.emplace_back(judged.begin() + half, judged.end());
  } else {
    if (!outcome->accepted) {
      bool any_attributed = false;
      for (size_t index : judged) any_attributed = any_attributed || !verdicts[index].messages.empty();
      if (!any_attributed) {
        return absl::InternalError(
            absl::StrCat(compiler.Tool(), " rejected a module for ", target.Name(), " without saying why"));
      }
    }
    std::vector<size_t>& clean = more.emplace_back();
    for (size_t index : judged) {
      CompilerVerdict& verdict = verdicts[index];
      if (!verdict.messages.empty()) continue;  // rejected for its own errors
      if (outcome->accepted) {
        verdict.accepted = true;
      } else {
        clean.push_back(index);  // clean in a failed run: judge again
      }
    }
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

// Check is the batch algorithm of CheckSnippets over `count` snippets.
absl::StatusOr<std::vector<CompilerVerdict>> Check(const CompileOracle& compiler, size_t count, const ModuleBuilder& build,
                                                   Target target, const BatchOptions& options) {
  if (!options.predicted_legal.empty() && options.predicted_legal.size() != count) {
    return absl::InvalidArgumentError(absl::StrCat("predicted_legal holds ", options.predicted_legal.size(),
                                                   " guesses for ", count, " snippets"));
  }
  std::vector<CompilerVerdict> verdicts(count);
  absl::StatusOr<RunOutcome> empty = RunOnce(compiler, build, {}, target, verdicts);
  if (!empty.ok()) return empty.status();
  if (!empty->accepted) {
    for (CompilerVerdict& verdict : verdicts) verdict.messages = empty->module_errors;
    return verdicts;
  }
  // Bounded batches keep a bisection cheap.
  WorkQueue queue(FirstBatches(count, options.predicted_legal));
  const auto work = [&] {
    while (std::optional<std::vector<size_t>> pending = queue.Take()) {
      absl::StatusOr<std::vector<std::vector<size_t>>> more = Judge(compiler, build, *pending, target, verdicts);
      if (more.ok()) {
        queue.Done(*std::move(more));
      } else {
        queue.Fail(more.status());
      }
    }
  };
  std::vector<std::thread> threads;
  for (int job = 1; job < options.jobs; ++job) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  if (absl::Status status = queue.status(); !status.ok()) return status;
  return verdicts;
}

}  // namespace

absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler,
                                                           const std::vector<Snippet>& snippets, PtxVersion ptx,
                                                           Target target, const BatchOptions& options) {
  return Check(compiler, snippets.size(), [&](const std::vector<size_t>& indices) {
    std::vector<Snippet> batch;
    for (size_t index : indices) batch.push_back(snippets[index]);
    return BuildModule(batch, ptx, target);
  }, target, options);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                        const std::vector<std::string>& texts, PtxVersion ptx,
                                                        Target target, const BatchOptions& options) {
  return Check(compiler, texts.size(), [&](const std::vector<size_t>& indices) {
    std::vector<std::string> batch;
    for (size_t index : indices) batch.push_back(texts[index]);
    return BuildTextModule(batch, ptx, target);
  }, target, options);
}

}  // namespace matload
