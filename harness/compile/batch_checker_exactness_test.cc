// Batched verdicts against single-module runs on a real ptxas: every legal
// and near-miss form the support sweep compiles for sm_90 at PTX 9.0, judged
// by CheckSnippets as the sweep does (the model's guesses keep legal and
// illegal forms apart; many modules per ptxas run) and each in a module of
// its own, one ptxas run each. Verdicts and messages must be identical.
#include <atomic>
#include <iostream>
#include <thread>

#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/compile/ptx_module.h"
#include "harness/compile/ptxas.h"
#include "reference/enumerate.h"
#include "reference/legality.h"
#include "reference/printer.h"

namespace matload {
namespace {

// AloneVerdict is what one ptxas run of `snippet` in a module of its own
// says: its errors on its line, in order (up to a fatal one), then its
// errors on no line; warnings and summaries aside.
absl::StatusOr<CompilerVerdict> AloneVerdict(const Ptxas& ptxas, const Snippet& snippet, PtxVersion ptx,
                                             Target target) {
  const PtxModule module = BuildModule({snippet}, ptx, target);
  absl::StatusOr<AssembleResult> result = ptxas.Assemble(module.text, target);
  if (!result.ok()) return result.status();
  CompilerVerdict verdict{.accepted = result->accepted};
  std::vector<std::string> on_no_line;
  for (const Diagnostic& diagnostic : result->diagnostics) {
    if (diagnostic.severity == Diagnostic::Severity::kUnrecognised ||
        diagnostic.severity == Diagnostic::Severity::kWarning || IsSummaryMessage(diagnostic.message)) {
      continue;
    }
    if (diagnostic.line <= 0 || module.SnippetAt(diagnostic.line) != 0) {
      on_no_line.push_back(diagnostic.message);
      continue;
    }
    verdict.messages.push_back(diagnostic.message);
    if (diagnostic.severity == Diagnostic::Severity::kFatal) break;
  }
  verdict.messages.insert(verdict.messages.end(), on_no_line.begin(), on_no_line.end());
  return verdict;
}

TEST(BatchCheckerExactnessTest, EverySm90FormBatchedAsAlone) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status() << " (run scripts/install-deps.sh; ptxas is required)";
  const PtxVersion ptx{9, 0};
  const Target target = *ParseTarget("sm_90");
  std::vector<Snippet> snippets;
  for (const Form& form : LegalForms(ptx, target)) snippets.push_back({StandardRegisterFile(), ToRaw(form)});
  for (RawInstruction& raw : NearMissInstructions(ptx, target)) snippets.push_back({StandardRegisterFile(), raw});
  BatchOptions options;
  for (const Snippet& snippet : snippets) options.predicted_legal.push_back(Judge(snippet, ptx, target).legal());
  BatchReport report;
  options.report = &report;
  absl::StatusOr<std::vector<CompilerVerdict>> batched = CheckSnippets(*ptxas, snippets, ptx, target, options);
  ASSERT_TRUE(batched.ok()) << batched.status();
  EXPECT_EQ(report.unjudged, 0u);

  std::vector<absl::StatusOr<CompilerVerdict>> alone(snippets.size(), absl::UnknownError("not run"));
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next++; i < snippets.size(); i = next++) alone[i] = AloneVerdict(*ptxas, snippets[i], ptx, target);
  };
  std::thread helper(work);
  work();
  helper.join();
  size_t accepted = 0;
  size_t rejected = 0;
  for (size_t i = 0; i < snippets.size(); ++i) {
    ASSERT_TRUE(alone[i].ok()) << alone[i].status();
    const std::string form = PrintRaw(snippets[i].instruction);
    EXPECT_EQ((*batched)[i].accepted, alone[i]->accepted) << form;
    EXPECT_EQ((*batched)[i].messages, alone[i]->messages) << form;
    ((*batched)[i].accepted ? accepted : rejected)++;
  }
  // The sweep's forms at PTX 9.0 on sm_90 (ptxas 13.0.88): 3,222 legal
  // forms and 14,169 near misses; both verdicts are among them.
  EXPECT_GT(snippets.size(), 10000u);
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(rejected, 1000u);
  std::cout << snippets.size() << " forms, " << accepted << " accepted, " << rejected << " rejected; batched in "
            << report.runs << " ptxas runs (" << report.bisection_runs << " bisecting), alone in " << snippets.size()
            << "\n";
}

}  // namespace
}  // namespace matload
