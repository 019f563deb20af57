// The instruction model against ptxas: every enumerated legal form and every
// near-miss illegal form, for ten targets at PTX ISA 9.0. Each disagreement
// must be explained by corpora/known_discrepancies.json, and each entry there
// must still reproduce.
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/compile/fetched_ptxas.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/judge/discrepancy_registry.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

constexpr const char* kTargets[] = {"sm_75",   "sm_80",   "sm_90",   "sm_90a",  "sm_100a",
                                    "sm_100f", "sm_103a", "sm_110a", "sm_120a", "sm_121a"};

// Tally counts one target's comparison.
struct Tally {
  size_t legal = 0;
  size_t near_miss = 0;
  size_t both_illegal = 0;
  size_t reasons_agree = 0;
  std::map<std::string, int> explained;
};

TEST(ModelVsPtxasTest, VerdictsAgreeOrAreKnownDiscrepancies) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status() << " (run scripts/install-deps.sh; ptxas is required)";
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  const PtxVersion ptx{9, 0};
  const std::string toolchain = ptxas->Toolchain();
  std::set<std::string> used;
  int unexplained = 0;
  for (const char* name : kTargets) {
    const Target target = *ParseTarget(name);
    Tally tally;
    std::vector<Snippet> snippets;
    for (const Form& form : LegalForms(ptx, target)) {
      snippets.push_back({StandardRegisterFile(), ToRaw(form)});
      // The same form with its qualifiers rotated by one: ptxas takes any
      // order but the placements the table pins (measured).
      RawInstruction rotated = ToRaw(form);
      const auto first = rotated.opcode.begin() + static_cast<long>(SpecOf(form.family).mnemonic.size()) +
                         (SpecOf(form.family).axes[0].placement == Placement::kRightAfterMnemonic &&
                                  form.qualifiers.Present(0)
                              ? 1
                              : 0);
      std::rotate(first, first + 1, rotated.opcode.end());
      EXPECT_TRUE(Judge({StandardRegisterFile(), rotated}, ptx, target).legal()) << PrintRaw(rotated);
      snippets.push_back({StandardRegisterFile(), rotated});
    }
    tally.legal = snippets.size();
    for (RawInstruction& raw : NearMissInstructions(ptx, target)) snippets.push_back({StandardRegisterFile(), raw});
    tally.near_miss = snippets.size() - tally.legal;
    EXPECT_GE(tally.near_miss, 2000u) << name;

    // The model's verdicts guide the batching, as the support sweep's do: a
    // module never mixes snippets guessed legal and illegal, so few need
    // tracing one by one (batch_checker.h; batch_checker_exactness_test
    // holds guided verdicts to single-snippet ones).
    std::vector<Verdict> models;
    BatchOptions options;
    for (const Snippet& snippet : snippets) {
      models.push_back(Judge(snippet, ptx, target));
      options.predicted_legal.push_back(models.back().legal());
    }
    BatchReport report;
    options.report = &report;
    absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(*ptxas, snippets, ptx, target, options);
    ASSERT_TRUE(verdicts.ok()) << verdicts.status();
    // An unjudged snippet has no verdict to compare (batch_checker.h).
    ASSERT_EQ(report.unjudged, 0u) << name << ": the bisection bound was reached after " << report.bisection_runs
                                   << " runs";
    for (size_t i = 0; i < snippets.size(); ++i) {
      const Verdict& model = models[i];
      const CompilerVerdict& compiler = (*verdicts)[i];
      const std::string text = PrintRaw(snippets[i].instruction);
      if (model.legal() != compiler.accepted) {
        const Direction direction = compiler.accepted ? Direction::kToolchainAccepts : Direction::kToolchainRejects;
        if (const DiscrepancyEntry* entry = registry->Find(text, target, direction, toolchain); entry != nullptr) {
          ++tally.explained[entry->id];
          used.insert(entry->id);
        } else if (++unexplained <= 20) {
          ADD_FAILURE() << name << ": model says " << (model.legal() ? "legal" : "illegal") << ", ptxas "
                        << (compiler.accepted ? "accepts" : "rejects") << ": " << text
                        << (compiler.messages.empty() ? "" : absl::StrCat(" -- ", compiler.messages[0]));
        }
        continue;
      }
      if (model.legal()) continue;
      ++tally.both_illegal;
      std::set<ReasonCode> compiler_codes;
      for (const std::string& message : compiler.messages) {
        for (ReasonCode code : ClassifyPtxasMessage(message)) compiler_codes.insert(code);
      }
      for (const Reason& reason : model.reasons()) {
        if (compiler_codes.contains(reason.code)) {
          ++tally.reasons_agree;
          break;
        }
      }
    }
    std::string summary = absl::StrCat(name, ": ", tally.legal, " legal spellings and ", tally.near_miss,
                                       " near-miss forms; ", tally.both_illegal, " rejected by both, ",
                                       tally.reasons_agree, " of them for a matching reason; known discrepancies:");
    for (const auto& [id, count] : tally.explained) absl::StrAppend(&summary, " ", id, "=", count);
    std::cout << summary << "\n";
  }
  EXPECT_EQ(unexplained, 0) << "disagreements not in " << DefaultRegistryPath();
  for (const DiscrepancyEntry& entry : registry->entries()) {
    // Device faults are confirmed by `matload conform` on a GPU, and
    // misdiagnoses by toolchain_misdiagnosis_test, not here.
    if (entry.pattern.find(".target") != std::string::npos || entry.direction == Direction::kDeviceFaults ||
        entry.direction == Direction::kToolchainMisdiagnoses || !DiscrepancyRegistry::AppliesTo(entry, toolchain)) {
      continue;
    }
    EXPECT_TRUE(used.contains(entry.id)) << "registry entry " << entry.id << " no longer reproduces on " << toolchain;
  }
}

// CompareTargetTable holds the target table to `ptxas`: which .version
// accepts which .target, for every version `ptxas` speaks. It returns how
// many it compared.
int CompareTargetTable(const Ptxas& ptxas) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  EXPECT_TRUE(registry.ok()) << registry.status();
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(ptxas);
  EXPECT_TRUE(dialect.ok()) << dialect.status();
  if (!registry.ok() || !dialect.ok()) return 0;
  int compared = 0;
  std::set<std::string> used;
  for (const TargetInfo& info : AllTargets()) {
    if (!ptxas.Supports(info.target)) continue;
    for (PtxVersion ptx : AllPtxVersions()) {
      if (dialect->spoken < ptx) continue;
      absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
          CheckSnippets(ptxas, {*ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];")}, ptx, info.target);
      EXPECT_TRUE(verdicts.ok()) << verdicts.status();
      if (!verdicts.ok()) return compared;
      // ldmatrix needs PTX 6.5; below that only the .target line matters.
      const bool ptxas_accepts_target =
          (*verdicts)[0].accepted ||
          std::none_of((*verdicts)[0].messages.begin(), (*verdicts)[0].messages.end(),
                       [](const std::string& m) { return m.find("does not support .target") != std::string::npos; });
      ++compared;
      if (ptxas_accepts_target == TargetExistsIn(info.target, ptx)) continue;
      const std::string case_text = absl::StrCat(".version ", ptx.ToString(), " .target ", info.target.Name());
      const DiscrepancyEntry* entry = registry->Find(
          case_text, info.target, ptxas_accepts_target ? Direction::kToolchainAccepts : Direction::kToolchainRejects,
          ptxas.Toolchain());
      EXPECT_NE(entry, nullptr) << case_text << ": model says "
                                << (TargetExistsIn(info.target, ptx) ? "exists" : "does not exist") << ", "
                                << ptxas.Toolchain() << " disagrees";
      if (entry != nullptr) used.insert(entry->id);
    }
  }
  for (const DiscrepancyEntry& entry : registry->entries()) {
    if (entry.pattern.find(".target") == std::string::npos ||
        !DiscrepancyRegistry::AppliesTo(entry, ptxas.Toolchain())) {
      continue;
    }
    EXPECT_TRUE(used.contains(entry.id)) << "registry entry " << entry.id << " no longer reproduces";
  }
  return compared;
}

// The toolkit's ptxas: 23 targets at 6.0 to 9.0 (CUDA 13.0).
TEST(TargetTableVsPtxasTest, TargetIntroductionsAgreeOrAreKnown) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_GT(CompareTargetTable(*ptxas), 500);
}

// The newest ptxas the fetch script knows: up to PTX 9.5, sm_107 (9.4) too.
TEST(TargetTableVsPtxasTest, TargetIntroductionsAgreeWithTheNewestFetchedPtxas) {
  absl::StatusOr<Ptxas> ptxas = OpenNewestFetchedPtxas();
  if (absl::IsNotFound(ptxas.status())) GTEST_SKIP() << ptxas.status().message();
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_GT(CompareTargetTable(*ptxas), 700);
}

}  // namespace
}  // namespace matload
