// Batched verdicts against single-module runs on a real ptxas: every legal
// and near-miss form the support sweep compiles for sm_90 at PTX 9.0, judged
// by CheckSnippets as the sweep does (the model's guesses keep legal and
// illegal forms apart; many snippets per module) and each in a module of its
// own, as one ptxas run of that module alone judges it. Verdicts and
// messages must be identical. The modules of one snippet are assembled many
// to a run by Ptxas::AssembleEach, which gives each what a run of it alone
// gives (ptxas 13.0.88 on 2 cores: 28 CPU s, against 220 s for 17,427 runs
// of one module); a deterministic sample, every 16th form, is also
// assembled in runs of its own, one each, and must agree with it.
#include <iostream>

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

// AloneVerdict is what `result`, a run of `module` (one snippet) alone,
// says of its snippet: its errors on its line, in order (up to a fatal
// one), then its errors on no line; warnings and summaries aside.
CompilerVerdict AloneVerdict(const AssembleResult& result, const PtxModule& module) {
  CompilerVerdict verdict{.accepted = result.accepted};
  std::vector<std::string> on_no_line;
  for (const Diagnostic& diagnostic : result.diagnostics) {
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

// kSampleEvery: every kSampleEvery-th form is also assembled in a run of
// its own.
constexpr size_t kSampleEvery = 16;

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

  // Each snippet in a module of its own; the modules of one AssembleEach
  // share a program, so each names its kernel apart.
  std::vector<PtxModule> modules;
  std::vector<std::string> texts;
  for (size_t i = 0; i < snippets.size(); ++i) {
    modules.push_back(BuildModule({snippets[i]}, ptx, target, absl::StrCat(kModuleEntry, "_", i)));
    texts.push_back(modules.back().text);
  }
  absl::StatusOr<std::vector<AssembleResult>> each = ptxas->AssembleEach(texts, target);
  ASSERT_TRUE(each.ok()) << each.status();
  ASSERT_EQ(each->size(), snippets.size());
  std::vector<CompilerVerdict> alone;
  for (size_t i = 0; i < snippets.size(); ++i) alone.push_back(AloneVerdict((*each)[i], modules[i]));
  // The sample, each form in a run of its own, as a run of one module.
  size_t sampled = 0;
  for (size_t i = 0; i < snippets.size(); i += kSampleEvery) {
    const PtxModule module = BuildModule({snippets[i]}, ptx, target);
    absl::StatusOr<AssembleResult> result = ptxas->Assemble(module.text, target);
    ASSERT_TRUE(result.ok()) << result.status();
    const CompilerVerdict single = AloneVerdict(*result, module);
    const std::string form = PrintRaw(snippets[i].instruction);
    EXPECT_EQ(single.accepted, alone[i].accepted) << form << " (a run of its own against AssembleEach)";
    EXPECT_EQ(single.messages, alone[i].messages) << form << " (a run of its own against AssembleEach)";
    ++sampled;
  }
  size_t accepted = 0;
  size_t rejected = 0;
  for (size_t i = 0; i < snippets.size(); ++i) {
    const std::string form = PrintRaw(snippets[i].instruction);
    EXPECT_EQ((*batched)[i].accepted, alone[i].accepted) << form;
    EXPECT_EQ((*batched)[i].messages, alone[i].messages) << form;
    ((*batched)[i].accepted ? accepted : rejected)++;
  }
  // The sweep's forms at PTX 9.0 on sm_90 (ptxas 13.0.88): 3,222 legal
  // forms and 14,169 near misses; both verdicts are among them.
  EXPECT_GT(snippets.size(), 10000u);
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(rejected, 1000u);
  std::cout << snippets.size() << " forms, " << accepted << " accepted, " << rejected << " rejected; batched in "
            << report.runs << " ptxas runs (" << report.bisection_runs << " bisecting); each alone by AssembleEach, "
            << sampled << " of them also in runs of their own\n";
}

}  // namespace
}  // namespace matload
