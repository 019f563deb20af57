#include "harness/batch_checker.h"

#include <algorithm>
#include <functional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

// Check is the batch algorithm of CheckSnippets over `count` snippets.
absl::StatusOr<std::vector<CompilerVerdict>> Check(const CompileOracle& compiler, size_t count, const ModuleBuilder& build,
                                                   Target target) {
  std::vector<CompilerVerdict> verdicts(count);
  absl::StatusOr<RunOutcome> empty = RunOnce(compiler, build, {}, target, verdicts);
  if (!empty.ok()) return empty.status();
  if (!empty->accepted) {
    for (CompilerVerdict& verdict : verdicts) verdict.messages = empty->module_errors;
    return verdicts;
  }
  // Work items are runs still to make; bounded batches keep a bisection cheap.
  std::vector<std::vector<size_t>> work;
  for (size_t first = 0; first < count; first += kMaxBatch) {
    std::vector<size_t>& batch = work.emplace_back();
    for (size_t i = first; i < std::min(count, first + kMaxBatch); ++i) batch.push_back(i);
  }
  while (!work.empty()) {
    std::vector<size_t> pending = std::move(work.back());
    work.pop_back();
    if (pending.empty()) continue;
    absl::StatusOr<RunOutcome> outcome = RunOnce(compiler, build, pending, target, verdicts);
    if (!outcome.ok()) return outcome.status();
    const bool unattributed = !outcome->module_errors.empty();
    std::vector<size_t> judged(pending.begin(), pending.begin() + static_cast<long>(outcome->judged));
    std::vector<size_t> not_judged(pending.begin() + static_cast<long>(outcome->judged), pending.end());
    if (unattributed && judged.size() == 1) {
      std::vector<std::string>& messages = verdicts[judged[0]].messages;
      messages.insert(messages.end(), outcome->module_errors.begin(), outcome->module_errors.end());
    } else if (unattributed) {
      // Some snippet caused errors on no line: judge each half again from
      // scratch, so that every snippet ends with the messages of its own run.
      for (size_t index : judged) verdicts[index].messages.clear();
      const long half = static_cast<long>(judged.size() / 2);
      work.emplace_back(judged.begin(), judged.begin() + half);
      work.emplace_back(judged.begin() + half, judged.end());
    } else {
      if (!outcome->accepted) {
        bool any_attributed = false;
        for (size_t index : judged) any_attributed = any_attributed || !verdicts[index].messages.empty();
        if (!any_attributed) {
          return absl::InternalError(
              absl::StrCat(compiler.Tool(), " rejected a module for ", target.Name(), " without saying why"));
        }
      }
      std::vector<size_t> clean;
      for (size_t index : judged) {
        CompilerVerdict& verdict = verdicts[index];
        if (!verdict.messages.empty()) continue;  // rejected for its own errors
        if (outcome->accepted) {
          verdict.accepted = true;
        } else {
          clean.push_back(index);  // clean in a failed run: judge again
        }
      }
      work.push_back(std::move(clean));
    }
    work.push_back(std::move(not_judged));
  }
  return verdicts;
}

}  // namespace

absl::StatusOr<std::vector<CompilerVerdict>> CheckSnippets(const CompileOracle& compiler, const std::vector<Snippet>& snippets,
                                                            PtxVersion ptx, Target target) {
  return Check(compiler, snippets.size(), [&](const std::vector<size_t>& indices) {
    std::vector<Snippet> batch;
    for (size_t index : indices) batch.push_back(snippets[index]);
    return BuildModule(batch, ptx, target);
  }, target);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckTexts(const CompileOracle& compiler,
                                                                 const std::vector<std::string>& texts,
                                                                 PtxVersion ptx, Target target) {
  return Check(compiler, texts.size(), [&](const std::vector<size_t>& indices) {
    std::vector<std::string> batch;
    for (size_t index : indices) batch.push_back(texts[index]);
    return BuildTextModule(batch, ptx, target);
  }, target);
}

}  // namespace matload
