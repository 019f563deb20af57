#include "harness/compile/batch_checker.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "harness/compile/compiler_run.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/compile/ptx_module.h"
#include "harness/platform/infrastructure.h"
#include "reference/printer.h"

namespace matload {

namespace {

// kCanary is the canary module's one instruction: no compiler knows it,
// so every compiler must reject it with an error on its line.
constexpr absl::string_view kCanary = "matload_canary_must_be_rejected;";

// Group is the snippets of one module, by index; a Run is the modules of
// one compiler run (CompileOracle::AssembleModules).
using Group = std::vector<size_t>;
using Run = std::vector<Group>;

// RunOutcome is what one compiler run established about its snippets.
struct RunOutcome {
  bool accepted = false;                   // every module assembled
  Run judged;                              // per module, the snippets judged
  Run not_judged;                          // those after a fatal error
  std::vector<std::string> module_errors;  // errors on no snippet's lines
  // suspects are the snippets with errors in the module whose messages came
  // last before an error on no snippet's line: ptxas prints the errors of
  // its "<builtin>" helpers right after those of the module that called
  // them. `placed` is false when an error on no line came first.
  std::vector<size_t> suspects;
  bool placed = true;
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

// ModuleBuilder writes a module holding the snippets at `indices`, with its
// kernel named `entry`.
using ModuleBuilder = std::function<PtxModule(const std::vector<size_t>& indices, absl::string_view entry)>;

// Batch is what every run of one CheckSnippets call shares.
struct Batch {
  const CompileOracle& compiler;
  const ModuleBuilder& build;
  Target target;
  std::vector<CompilerVerdict>& verdicts;
  const std::vector<bool>& predicted_legal;  // empty: no guesses
  Tally& tally;
  const std::function<void(const std::vector<size_t>&)>& judged;  // BatchOptions::judged
};

// EntryName names the kernel of a run's module `index`: the modules of one
// run must not define the same kernel.
std::string EntryName(size_t index) {
  return index == 0 ? std::string(kModuleEntry) : absl::StrCat(kModuleEntry, "_", index);
}

// Place splits `run` into the snippets judged and those not: all of them,
// but for the others of the module where a fatal error on `stop` (module,
// position) ended the run. Those after it were never read; those before it
// may lack the errors ptxas prints only at the end of a module ("Unknown
// symbol '%x'"), which the fatal error skips, so they are judged again.
void Place(const Run& run, std::optional<std::pair<size_t, size_t>> stop, RunOutcome& outcome) {
  for (size_t module = 0; module < run.size(); ++module) {
    Group& judged = outcome.judged.emplace_back();
    Group& not_judged = outcome.not_judged.emplace_back();
    for (size_t position = 0; position < run[module].size(); ++position) {
      const bool complete =
          !stop.has_value() || module < stop->first || (module == stop->first && position == stop->second);
      (complete ? judged : not_judged).push_back(run[module][position]);
    }
  }
}

// Suspects are the snippets of `group` with messages.
std::vector<size_t> Suspects(const Batch& batch, const Group& group) {
  std::vector<size_t> suspects;
  for (size_t index : group) {
    if (!batch.verdicts[index].messages.empty()) suspects.push_back(index);
  }
  return suspects;
}

// RunOnce assembles the modules of `run` in one compiler run and appends
// each line-attributed error to its snippet's verdict.
absl::StatusOr<RunOutcome> RunOnce(const Batch& batch, const Run& run) {
  std::vector<PtxModule> modules;
  std::vector<std::string> texts;
  for (size_t module = 0; module < run.size(); ++module) {
    modules.push_back(batch.build(run[module], EntryName(module)));
    texts.push_back(std::move(modules.back().text));
  }
  batch.tally.CountRun();
  absl::StatusOr<AssembleResult> result = batch.compiler.AssembleModules(texts, batch.target);
  if (!result.ok()) return result.status();
  RunOutcome outcome{.accepted = result->accepted};
  std::optional<std::pair<size_t, size_t>> stop;
  std::optional<size_t> last_module;  // of the last message on a snippet's line
  absl::flat_hash_set<size_t> suspect_modules;
  for (const Diagnostic& diagnostic : result->diagnostics) {
    if (diagnostic.severity == Diagnostic::Severity::kUnrecognised) {
      batch.tally.NoteUnrecognised(diagnostic.message);
      continue;
    }
    if (diagnostic.severity == Diagnostic::Severity::kWarning || IsSummaryMessage(diagnostic.message)) continue;
    const bool in_a_module = diagnostic.module >= 0 && static_cast<size_t>(diagnostic.module) < modules.size();
    const int position = in_a_module && diagnostic.line > 0 ? modules[diagnostic.module].SnippetAt(diagnostic.line) : -1;
    if (position < 0) {
      outcome.module_errors.push_back(diagnostic.message);
      if (last_module.has_value()) {
        suspect_modules.insert(*last_module);
      } else {
        outcome.placed = false;
      }
      continue;
    }
    const size_t module = static_cast<size_t>(diagnostic.module);
    batch.verdicts[run[module][position]].messages.push_back(diagnostic.message);
    last_module = module;
    if (diagnostic.severity == Diagnostic::Severity::kFatal) {
      stop = {module, static_cast<size_t>(position)};
      break;
    }
  }
  Place(run, stop, outcome);
  for (const Group& group : outcome.not_judged) {
    for (size_t index : group) batch.verdicts[index].messages.clear();  // judged again from scratch
  }
  for (size_t module : suspect_modules) {
    for (size_t index : Suspects(batch, outcome.judged[module])) outcome.suspects.push_back(index);
  }
  return outcome;
}

// AddRuns adds new runs holding `groups` (the empty ones left out) to
// `more`, as many modules in each as the compiler takes.
void AddRuns(const Batch& batch, const Run& groups, std::vector<Run>& more) {
  const size_t most = std::max<size_t>(1, batch.compiler.MaxModulesPerRun());
  Run run;
  for (const Group& group : groups) {
    if (group.empty()) continue;
    run.push_back(group);
    if (run.size() == most) {
      more.push_back(std::move(run));
      run.clear();
    }
  }
  if (!run.empty()) more.push_back(std::move(run));
}

// Flatten lists the snippets of `run`, module after module.
std::vector<size_t> Flatten(const Run& run) {
  std::vector<size_t> flat;
  for (const Group& group : run) flat.insert(flat.end(), group.begin(), group.end());
  return flat;
}

// PendingRuns holds the runs still to make. `jobs` threads take runs from it;
// a run may add runs (the halves of a bisection, the snippets to judge
// again). Each snippet belongs to one run at a time, so runs never touch
// the same verdicts.
class PendingRuns {
 public:
  explicit PendingRuns(std::vector<Run> runs) : runs_(std::move(runs)) {}

  // Take waits for a run; it is nullopt once no run is left or in flight,
  // or after Fail.
  std::optional<Run> Take() {
    absl::MutexLock lock(&mutex_);
    mutex_.Await(absl::Condition(this, &PendingRuns::Ready));
    if (runs_.empty() || !status_.ok()) return std::nullopt;
    Run run = std::move(runs_.back());
    runs_.pop_back();
    ++in_flight_;
    return run;
  }
  // Done ends a run taken by Take, adding the runs it leads to.
  void Done(std::vector<Run> more) {
    absl::MutexLock lock(&mutex_);
    for (Run& run : more) {
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
  std::vector<Run> runs_ ABSL_GUARDED_BY(mutex_);
  int in_flight_ ABSL_GUARDED_BY(mutex_) = 0;
  absl::Status status_ ABSL_GUARDED_BY(mutex_);
};

// Unattributed handles a run of several snippets with errors on no line:
// each half is judged again from scratch, in its modules, so that every
// snippet ends with the messages of its own run, while the bisection budget
// lasts; after it, the snippets are left unjudged.
void Unattributed(const Batch& batch, const Run& judged, const std::vector<std::string>& module_errors,
                  std::vector<Run>& more) {
  const std::vector<size_t> snippets = Flatten(judged);
  if (!batch.tally.SpendBisection()) {
    for (size_t index : snippets) {
      batch.verdicts[index] = {
          .accepted = false, .messages = module_errors, .judged = false, .unplaced = module_errors.size()};
    }
    batch.tally.CountUnjudged(snippets.size());
    return;
  }
  for (size_t index : snippets) batch.verdicts[index] = {};
  // Each half keeps the module boundaries of `judged`.
  const size_t half = snippets.size() / 2;
  Run first;
  Run second;
  size_t seen = 0;
  for (const Group& group : judged) {
    Group& low = first.emplace_back();
    Group& high = second.emplace_back();
    for (size_t index : group) (seen++ < half ? low : high).push_back(index);
  }
  AddRuns(batch, first, more);
  AddRuns(batch, second, more);
}

// PredictedIllegal says whether the guesses call snippet `index` illegal.
bool PredictedIllegal(const Batch& batch, size_t index) {
  return !batch.predicted_legal.empty() && !batch.predicted_legal[index];
}

// Attributed handles a run whose errors all name a snippet's line (but
// those of the `isolated` snippets, judged again on their own): a snippet
// with errors is rejected, and the clean ones are accepted if the run
// assembled, else judged again. A clean snippet guessed illegal from a
// module of several with errors gets a module of its own, so that an error
// the compiler reports only once per module (ptxas 13.0.88: the wmma
// operand lowering's "Arguments mismatch for instruction 'mov'") is not
// hidden again; clean snippets that had a module of their own share
// modules again, as no such error is left to hide.
absl::Status Attributed(const Batch& batch, const Run& judged, bool accepted, const std::vector<size_t>& isolated,
                        std::vector<Run>& more) {
  const auto has_messages = [&batch](size_t index) { return !batch.verdicts[index].messages.empty(); };
  const std::vector<size_t> snippets = Flatten(judged);
  if (!accepted && isolated.empty() && std::none_of(snippets.begin(), snippets.end(), has_messages)) {
    return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                               absl::StrCat(batch.compiler.Toolchain(), " rejected a module for ",
                                            batch.target.Name(), " without an error message in its format"));
  }
  for (size_t index : isolated) {
    batch.verdicts[index] = {};
    more.push_back({{index}});
  }
  Run again;
  Run alone;
  Group were_alone;
  for (const Group& group : judged) {
    const bool failed = std::any_of(group.begin(), group.end(), has_messages);
    Group& kept_together = again.emplace_back();
    for (size_t index : group) {
      if (std::find(isolated.begin(), isolated.end(), index) != isolated.end()) continue;
      if (has_messages(index)) continue;  // rejected for its own errors
      if (accepted) {
        batch.verdicts[index].accepted = true;
      } else if (group.size() == 1) {
        were_alone.push_back(index);
      } else if (failed && PredictedIllegal(batch, index)) {
        alone.push_back({index});
      } else {
        kept_together.push_back(index);  // clean in a failed run: judge again
      }
    }
  }
  for (size_t first = 0; first < were_alone.size(); first += kMaxSnippetsPerModule) {
    again.emplace_back(
        were_alone.begin() + static_cast<long>(first),
        were_alone.begin() + static_cast<long>(std::min(were_alone.size(), first + kMaxSnippetsPerModule)));
  }
  again.insert(again.end(), alone.begin(), alone.end());
  AddRuns(batch, again, more);
  return absl::OkStatus();
}

// CrashedAlone judges a snippet the compiler died of a fault on in a run
// of its own: crashed, once a second run of it dies of the same signal. A
// crash that does not come again was the environment's (memory, a signal
// from outside), not the compiler's on this snippet, and stays the error it
// is: a crashed verdict is kept in the verdict cache.
absl::Status CrashedAlone(const Batch& batch, const Run& pending, const absl::Status& crash, int signal) {
  const size_t index = pending.front().front();
  absl::StatusOr<RunOutcome> again = RunOnce(batch, pending);
  batch.verdicts[index].messages.clear();
  if (again.ok() || CompilerFaultSignal(again.status()) != signal) {
    return InfrastructureError(
        InfrastructureCause::kCompilerCrashed,
        absl::StrCat(crash.message(), " (run again alone, it did not crash so: not reproducible)"));
  }
  batch.verdicts[index] = {.messages = {CompilerFaultMessage(signal)}, .unplaced = 1, .crashed = true};
  return absl::OkStatus();
}

// Crashed handles a run the compiler died of a fault on: a snippet alone
// is judged by CrashedAlone; a run of several modules is split into two
// runs of half the modules each, a module of several snippets into two
// modules, each run again from scratch. Every split halves what crashed,
// so a crash costs two runs per halving and one to confirm: bounded by the
// crashes found, not by the bisection budget, which a crash does not spend.
absl::StatusOr<std::vector<Run>> Crashed(const Batch& batch, const Run& pending, const absl::Status& crash,
                                         int signal) {
  for (const Group& group : pending) {
    for (size_t index : group) batch.verdicts[index].messages.clear();
  }
  if (pending.size() > 1) {
    const auto middle = pending.begin() + pending.size() / 2;
    return std::vector<Run>{Run(pending.begin(), middle), Run(middle, pending.end())};
  }
  const Group& snippets = pending.front();
  if (snippets.size() == 1) {
    if (absl::Status confirmed = CrashedAlone(batch, pending, crash, signal); !confirmed.ok()) return confirmed;
    return std::vector<Run>{};
  }
  const auto middle = snippets.begin() + snippets.size() / 2;
  return std::vector<Run>{{Group(snippets.begin(), middle)}, {Group(middle, snippets.end())}};
}

// Judge makes one run and says which runs it leads to.
absl::StatusOr<std::vector<Run>> Judge(const Batch& batch, const Run& pending) {
  absl::StatusOr<RunOutcome> outcome = RunOnce(batch, pending);
  if (!outcome.ok()) {
    const std::optional<int> signal = CompilerFaultSignal(outcome.status());
    if (!signal.has_value()) return outcome.status();
    return Crashed(batch, pending, outcome.status(), *signal);
  }
  std::vector<Run> more;
  AddRuns(batch, outcome->not_judged, more);
  const std::vector<size_t> judged = Flatten(outcome->judged);
  if (outcome->module_errors.empty()) {
    if (absl::Status status = Attributed(batch, outcome->judged, outcome->accepted, {}, more); !status.ok()) {
      return status;
    }
  } else if (judged.size() == 1) {
    CompilerVerdict& verdict = batch.verdicts[judged[0]];
    verdict.messages.insert(verdict.messages.end(), outcome->module_errors.begin(), outcome->module_errors.end());
    verdict.unplaced = outcome->module_errors.size();
  } else if (outcome->placed && !outcome->suspects.empty()) {
    // Each suspect is judged on its own, where every error is its own.
    if (absl::Status status = Attributed(batch, outcome->judged, false, outcome->suspects, more); !status.ok()) {
      return status;
    }
  } else {
    Unattributed(batch, outcome->judged, outcome->module_errors, more);
  }
  return more;
}

// FirstBatches deals snippets 0..count-1 into modules of at most kMaxSnippetsPerModule,
// in order, and the modules into runs, keeping the snippets guessed legal
// apart from the others.
std::vector<Run> FirstBatches(const Batch& batch, size_t count) {
  std::vector<Run> runs;
  for (const bool legal : {true, false}) {
    Group group;
    for (size_t i = 0; i < count; ++i) {
      if (batch.predicted_legal.empty() ? legal : batch.predicted_legal[i] == legal) group.push_back(i);
    }
    Run modules;
    for (size_t first = 0; first < group.size(); first += kMaxSnippetsPerModule) {
      modules.emplace_back(group.begin() + static_cast<long>(first),
                           group.begin() + static_cast<long>(std::min(group.size(), first + kMaxSnippetsPerModule)));
    }
    std::vector<Run> legal_or_not;
    AddRuns(batch, modules, legal_or_not);
    runs.insert(runs.end(), legal_or_not.begin(), legal_or_not.end());
  }
  return runs;
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
  absl::StatusOr<RunOutcome> empty = RunOnce(batch, {Group{}});
  if (!empty.ok()) return empty.status();
  if (empty->accepted) return true;
  if (TargetExistsIn(batch.target, ptx)) {
    return InfrastructureError(
        InfrastructureCause::kCompilerOutputNotUnderstood,
        absl::StrCat(batch.compiler.Toolchain(), " rejected an empty module for ", batch.target.Name(), " at PTX ",
                     ptx.ToString(), ", which exists there (", absl::StrJoin(empty->module_errors, "; "),
                     "): it cannot judge any snippet"));
  }
  for (CompilerVerdict& verdict : batch.verdicts) {
    verdict.messages = empty->module_errors;
    verdict.unplaced = empty->module_errors.size();
  }
  return false;
}

// TellSettled tells BatchOptions::judged the snippets of `run` that none
// of the runs it leads to (`more`) holds: their verdicts are final.
void TellSettled(const Batch& batch, const Run& run, const std::vector<Run>& more) {
  if (!batch.judged) return;
  absl::flat_hash_set<size_t> again;
  for (const Run& next : more) {
    for (const Group& group : next) again.insert(group.begin(), group.end());
  }
  std::vector<size_t> settled;
  for (size_t index : Flatten(run)) {
    if (!again.contains(index)) settled.push_back(index);
  }
  if (!settled.empty()) batch.judged(settled);
}

// JudgeAll makes every run, on `jobs` threads, starting from `batches`.
absl::Status JudgeAll(const Batch& batch, std::vector<Run> batches, int jobs) {
  PendingRuns queue(std::move(batches));
  const auto work = [&] {
    while (std::optional<Run> pending = queue.Take()) {
      absl::StatusOr<std::vector<Run>> more = Judge(batch, *pending);
      if (more.ok()) {
        TellSettled(batch, *pending, *more);
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
  const Batch batch{.compiler = compiler,
                    .build = build,
                    .target = target,
                    .verdicts = verdicts,
                    .predicted_legal = options.predicted_legal,
                    .tally = tally,
                    .judged = options.judged};
  absl::StatusOr<bool> to_judge = ProbeEmptyModule(batch, ptx);
  if (!to_judge.ok()) return to_judge.status();
  if (*to_judge) {
    if (absl::Status canary = ProbeCanary(batch, ptx); !canary.ok()) return canary;
    // Bounded batches keep a bisection cheap.
    if (absl::Status judged = JudgeAll(batch, FirstBatches(batch, count), options.jobs);
        !judged.ok()) {
      return judged;
    }
  } else {
    Group every(count);  // each has the empty module's errors
    std::iota(every.begin(), every.end(), 0);
    TellSettled(batch, {every}, {});
  }
  if (options.report != nullptr) *options.report = tally.report();
  return verdicts;
}

// CheckStrings is Check of snippets kept as strings (instructions or
// texts), each module written by `build` from its snippets' strings.
absl::StatusOr<std::vector<CompilerVerdict>> CheckStrings(
    const CompileOracle& compiler, const std::vector<std::string>& strings,
    const std::function<PtxModule(const std::vector<std::string>&, absl::string_view entry)>& build, PtxVersion ptx,
    Target target, const BatchOptions& options) {
  return Check(
      compiler, strings.size(),
      [&](const std::vector<size_t>& indices, absl::string_view entry) {
        std::vector<std::string> batch;
        for (size_t index : indices) batch.push_back(strings[index]);
        return build(batch, entry);
      },
      ptx, target, options);
}

}  // namespace

absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler,
                                                           const std::vector<Snippet>& snippets, PtxVersion ptx,
                                                           Target target, const BatchOptions& options) {
  // Snippets that all have the same declarations (every form of a sweep has
  // the standard register file) are CheckShared's: BuildModule writes any
  // of their modules as BuildSharedModule would, and each instruction is
  // printed once rather than copied, declarations and all, into every
  // module that holds it (two fifths of ModelVsPtxasTest's CPU time).
  const bool shared = !snippets.empty() && !snippets.front().declarations.empty() &&
                      std::all_of(snippets.begin(), snippets.end(), [&](const Snippet& snippet) {
                        return snippet.declarations == snippets.front().declarations;
                      });
  if (shared) {
    std::vector<std::string> instructions;
    instructions.reserve(snippets.size());
    for (const Snippet& snippet : snippets) instructions.push_back(PrintRaw(snippet.instruction));
    return CheckShared(compiler, snippets.front().declarations, instructions, ptx, target, options);
  }
  return Check(
      compiler, snippets.size(),
      [&](const std::vector<size_t>& indices, absl::string_view entry) {
        std::vector<Snippet> batch;
        for (size_t index : indices) batch.push_back(snippets[index]);
        return BuildModule(batch, ptx, target, entry);
      },
      ptx, target, options);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckShared(const CompileOracle& compiler,
                                                         const std::vector<Declaration>& declarations,
                                                         const std::vector<std::string>& instructions, PtxVersion ptx,
                                                         Target target, const BatchOptions& options) {
  return CheckStrings(
      compiler, instructions,
      [&](const std::vector<std::string>& batch, absl::string_view entry) {
        return BuildSharedModule(declarations, batch, ptx, target, entry);
      },
      ptx, target, options);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                        const std::vector<std::string>& texts, PtxVersion ptx,
                                                        Target target, const BatchOptions& options) {
  return CheckStrings(
      compiler, texts,
      [&](const std::vector<std::string>& batch, absl::string_view entry) {
        return BuildTextModule(batch, ptx, target, entry);
      },
      ptx, target, options);
}

}  // namespace matload
