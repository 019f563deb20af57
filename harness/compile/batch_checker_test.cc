#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"

#include <algorithm>
#include <mutex>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

class BatchCheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    ASSERT_TRUE(ptxas.ok()) << ptxas.status();
    ptxas_.emplace(*std::move(ptxas));
  }
  std::optional<Ptxas> ptxas_;
};

TEST_F(BatchCheckerTest, AttributesEachErrorToItsSnippet) {
  std::vector<Snippet> snippets = {
      *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
      *ParseSnippet("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];"),
      *ParseSnippet("ldmatrix.sync.aligned.m8n8.x2.b16 {d0, d1}, [a];"),
  };
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(*ptxas_, snippets, {9, 0}, *ParseTarget("sm_90"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_TRUE((*verdicts)[0].accepted);
  EXPECT_FALSE((*verdicts)[1].accepted);
  EXPECT_THAT((*verdicts)[1].messages[0], HasSubstr("Unknown modifier '.x3'"));
  EXPECT_TRUE((*verdicts)[2].accepted);
}

TEST_F(BatchCheckerTest, ModuleLevelErrorsBelongToEverySnippet) {
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(
      *ptxas_, {*ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];")}, {7, 7}, *ParseTarget("sm_90"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_FALSE((*verdicts)[0].accepted);
  EXPECT_THAT((*verdicts)[0].messages[0], HasSubstr("does not support .target sm_90"));
  EXPECT_EQ((*verdicts)[0].unplaced, (*verdicts)[0].messages.size()) << "the .target line is not the snippet's";
}

// A syntax error stops ptxas; the snippets after it must still be judged.
TEST_F(BatchCheckerTest, ContinuesAfterAFatalError) {
  Snippet broken = *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];");
  broken.instruction.operands.push_back(RegisterOperand{"{"});  // prints as a syntax error
  std::vector<Snippet> snippets = {*ParseSnippet("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];"), broken,
                                   *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
                                   *ParseSnippet("ldmatrix.sync.aligned.m8n8.x4.b16 {d}, [a];")};
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(*ptxas_, snippets, {9, 0}, *ParseTarget("sm_90"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_FALSE((*verdicts)[0].accepted);
  EXPECT_FALSE((*verdicts)[1].accepted);
  EXPECT_THAT((*verdicts)[1].messages[0], HasSubstr("syntax error"));
  EXPECT_TRUE((*verdicts)[2].accepted);
  EXPECT_FALSE((*verdicts)[3].accepted);
}

// Errors ptxas reports only for an otherwise clean module (operand lowering)
// or on no line at all (wmma helper calls) still reach the right snippet.
TEST_F(BatchCheckerTest, FindsLatePhaseAndUnattributedErrors) {
  std::vector<Snippet> snippets = {
      *ParseSnippet("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];"),
      *ParseSnippet(".reg .b16 h; .reg .b32 d; ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [h];"),
      *ParseSnippet("wmma.load.c.sync.aligned.row.m16n16k8.f16 {x0, x1, x2, x3}, [p];"),
      *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
  };
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(*ptxas_, snippets, {9, 0}, *ParseTarget("sm_80"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_FALSE((*verdicts)[0].accepted);
  EXPECT_FALSE((*verdicts)[1].accepted);
  EXPECT_THAT((*verdicts)[1].messages[0], HasSubstr("Arguments mismatch for instruction 'mov'"));
  EXPECT_EQ((*verdicts)[1].unplaced, 0u) << "on the snippet's line";
  EXPECT_FALSE((*verdicts)[2].accepted);
  EXPECT_THAT((*verdicts)[2].messages[0], HasSubstr("__cuda_sm7x_wmma_m16n16k8_acc_f16"));
  // Two calls to the helper on the snippet's line, then four errors on <builtin>'s lines (ptxas 13.0.88).
  EXPECT_EQ((*verdicts)[2].unplaced, 4u) << absl::StrJoin((*verdicts)[2].messages, " | ");
  EXPECT_TRUE((*verdicts)[3].accepted);
}

// Sample is `size` of the legal and near-miss forms of `target` at PTX 9.0,
// shuffled with `seed`.
std::vector<Snippet> Sample(Target target, unsigned seed, size_t size) {
  std::vector<Snippet> pool;
  for (const Form& form : LegalForms({9, 0}, target)) pool.push_back({StandardRegisterFile(), ToRaw(form)});
  for (RawInstruction& raw : NearMissInstructions({9, 0}, target)) pool.push_back({StandardRegisterFile(), raw});
  std::mt19937 random(seed);
  std::shuffle(pool.begin(), pool.end(), random);
  pool.resize(size);
  return pool;
}

// Batch verdicts equal one-snippet verdicts on a random sample of legal and
// near-miss forms.
TEST_F(BatchCheckerTest, BatchVerdictsEqualSingleSnippetVerdicts) {
  for (const char* name : {"sm_80", "sm_100a"}) {
    const Target target = *ParseTarget(name);
    const std::vector<Snippet> pool = Sample(target, 7, 120);
    absl::StatusOr<std::vector<CompilerVerdict>> batch = CheckSnippets(*ptxas_, pool, {9, 0}, target);
    ASSERT_TRUE(batch.ok()) << batch.status();
    for (size_t i = 0; i < pool.size(); ++i) {
      absl::StatusOr<std::vector<CompilerVerdict>> single = CheckSnippets(*ptxas_, {pool[i]}, {9, 0}, target);
      ASSERT_TRUE(single.ok()) << single.status();
      EXPECT_EQ((*batch)[i].accepted, (*single)[0].accepted) << name << ": " << PrintRaw(pool[i].instruction);
      EXPECT_EQ((*batch)[i].messages, (*single)[0].messages) << name << ": " << PrintRaw(pool[i].instruction);
    }
  }
}

// CheckShared gives the verdicts CheckSnippets gives the same forms, each
// with the declarations they share.
TEST_F(BatchCheckerTest, SharedDeclarationsGiveTheSameVerdicts) {
  const Target target = *ParseTarget("sm_90");
  const std::vector<Snippet> pool = Sample(target, 5, 300);
  std::vector<std::string> instructions;
  for (const Snippet& snippet : pool) instructions.push_back(PrintRaw(snippet.instruction));
  absl::StatusOr<std::vector<CompilerVerdict>> snippets = CheckSnippets(*ptxas_, pool, {9, 0}, target);
  absl::StatusOr<std::vector<CompilerVerdict>> shared =
      CheckShared(*ptxas_, StandardRegisterFile(), instructions, {9, 0}, target);
  ASSERT_TRUE(snippets.ok()) << snippets.status();
  ASSERT_TRUE(shared.ok()) << shared.status();
  for (size_t i = 0; i < pool.size(); ++i) {
    EXPECT_EQ((*shared)[i].accepted, (*snippets)[i].accepted) << instructions[i];
    EXPECT_EQ((*shared)[i].messages, (*snippets)[i].messages) << instructions[i];
  }
}

// Several runs at once give the very verdicts one run at a time gives, on
// enough legal and near-miss forms for several batches and bisections.
TEST_F(BatchCheckerTest, ParallelRunsGiveTheSameVerdicts) {
  const Target target = *ParseTarget("sm_90");
  const std::vector<Snippet> pool = Sample(target, 11, 1600);
  absl::StatusOr<std::vector<CompilerVerdict>> sequential = CheckSnippets(*ptxas_, pool, {9, 0}, target, {.jobs = 1});
  absl::StatusOr<std::vector<CompilerVerdict>> parallel = CheckSnippets(*ptxas_, pool, {9, 0}, target, {.jobs = 3});
  ASSERT_TRUE(sequential.ok()) << sequential.status();
  ASSERT_TRUE(parallel.ok()) << parallel.status();
  int accepted = 0;
  for (size_t i = 0; i < pool.size(); ++i) {
    accepted += (*sequential)[i].accepted ? 1 : 0;
    EXPECT_EQ((*parallel)[i].accepted, (*sequential)[i].accepted) << PrintRaw(pool[i].instruction);
    EXPECT_EQ((*parallel)[i].messages, (*sequential)[i].messages) << PrintRaw(pool[i].instruction);
  }
  // Both kinds are in the sample.
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, static_cast<int>(pool.size()));
}

// CountingCompiler passes every module to ptxas and counts the wmma.load
// instructions it was given, whose expansion is most of a run's work.
class CountingCompiler : public CompileOracle {
 public:
  explicit CountingCompiler(const CompileOracle& compiler) : compiler_(compiler) {}
  std::string Tool() const override { return compiler_.Tool(); }
  std::string Version() const override { return compiler_.Version(); }
  bool Supports(Target target) const override { return compiler_.Supports(target); }
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override {
    for (size_t at = module_text.find("wmma.load"); at != absl::string_view::npos;
         at = module_text.find("wmma.load", at + 1)) {
      ++wmma_given_;
    }
    return compiler_.Assemble(module_text, target);
  }
  int wmma_given() const { return wmma_given_; }

 private:
  const CompileOracle& compiler_;
  mutable int wmma_given_ = 0;
};

// Predictions change how many runs it takes, never a verdict: not when they
// are the model's, and not when every one of them is wrong.
TEST_F(BatchCheckerTest, PredictionsChangeRunsNotVerdicts) {
  const Target target = *ParseTarget("sm_90");
  const std::vector<Snippet> pool = Sample(target, 13, 600);
  BatchOptions model;
  BatchOptions wrong;
  for (const Snippet& snippet : pool) {
    model.predicted_legal.push_back(Judge(snippet, {9, 0}, target).legal());
    wrong.predicted_legal.push_back(!model.predicted_legal.back());
  }
  CountingCompiler unguided(*ptxas_);
  CountingCompiler guided(*ptxas_);
  CountingCompiler misguided(*ptxas_);
  absl::StatusOr<std::vector<CompilerVerdict>> plain = CheckSnippets(unguided, pool, {9, 0}, target);
  absl::StatusOr<std::vector<CompilerVerdict>> predicted = CheckSnippets(guided, pool, {9, 0}, target, model);
  absl::StatusOr<std::vector<CompilerVerdict>> mispredicted = CheckSnippets(misguided, pool, {9, 0}, target, wrong);
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_TRUE(predicted.ok()) << predicted.status();
  ASSERT_TRUE(mispredicted.ok()) << mispredicted.status();
  for (size_t i = 0; i < pool.size(); ++i) {
    EXPECT_EQ((*predicted)[i].accepted, (*plain)[i].accepted) << PrintRaw(pool[i].instruction);
    EXPECT_EQ((*predicted)[i].messages, (*plain)[i].messages) << PrintRaw(pool[i].instruction);
    EXPECT_EQ((*mispredicted)[i].accepted, (*plain)[i].accepted) << PrintRaw(pool[i].instruction);
    EXPECT_EQ((*mispredicted)[i].messages, (*plain)[i].messages) << PrintRaw(pool[i].instruction);
  }
  // With the model's guesses the legal forms sit in modules no near miss
  // stops, so they are handed to ptxas far less often (700 against 1,287
  // times with ptxas 13.0.88).
  EXPECT_LT(guided.wmma_given() * 3, unguided.wmma_given() * 2)
      << guided.wmma_given() << " wmma.load given with predictions, " << unguided.wmma_given() << " without";
}

TEST_F(BatchCheckerTest, RejectsPredictionsOfTheWrongCount) {
  BatchOptions options{.predicted_legal = {true}};
  const Snippet snippet = *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];");
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
      CheckSnippets(*ptxas_, {snippet, snippet}, {9, 0}, *ParseTarget("sm_90"), options);
  EXPECT_EQ(verdicts.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(verdicts.status().message(), HasSubstr("1 guesses for 2 snippets"));
}

// UnattributingCompiler passes a module without ldmatrix (the empty one), rejects the canary on its
// line as ptxas does, and rejects every other module with one error on no
// line: the worst case for bisection.
class UnattributingCompiler : public CompileOracle {
 public:
  std::string Tool() const override { return "unattributing"; }
  std::string Version() const override { return "1"; }
  bool Supports(Target) const override { return true; }
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target) const override {
    if (!absl::StrContains(module_text, "ldmatrix") && !absl::StrContains(module_text, "matload_canary")) {
      return AssembleResult{.accepted = true};
    }
    const size_t canary = module_text.find("matload_canary");
    if (canary != absl::string_view::npos) {
      const int line = 1 + static_cast<int>(std::count(module_text.begin(), module_text.begin() + canary, '\n'));
      return AssembleResult{.diagnostics = {{Diagnostic::Severity::kError, line, "unknown instruction"}}};
    }
    return AssembleResult{.diagnostics = {{Diagnostic::Severity::kError, 0, "error on no line"}}};
  }
};

// Bisection stops at its bound, and the snippets it could not reach are
// reported unjudged, never given a verdict.
TEST(BatchCheckerBoundTest, BisectionStopsAtItsBoundAndLeavesSnippetsUnjudged) {
  const std::vector<Snippet> snippets(64, *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"));
  BatchReport report;
  BatchOptions bounded{.max_bisection_runs = 8, .report = &report};
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
      CheckSnippets(UnattributingCompiler(), snippets, {9, 0}, *ParseTarget("sm_90"), bounded);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_EQ(report.bisection_runs, 8u);
  EXPECT_EQ(report.runs, 2u + 1u + 8u);  // the two probes, the batch, the bisection
  EXPECT_EQ(report.unjudged, 64u);
  for (const CompilerVerdict& verdict : *verdicts) {
    EXPECT_FALSE(verdict.judged);
    EXPECT_FALSE(verdict.accepted);
    EXPECT_THAT(verdict.messages, ::testing::ElementsAre("error on no line"));
    EXPECT_EQ(verdict.unplaced, 1u);
  }
  BatchOptions unbounded{.max_bisection_runs = 1000, .report = &report};
  verdicts = CheckSnippets(UnattributingCompiler(), snippets, {9, 0}, *ParseTarget("sm_90"), unbounded);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_EQ(report.unjudged, 0u);
  EXPECT_EQ(report.bisection_runs, 126u);  // every split of 64 down to single snippets
  EXPECT_TRUE(std::all_of(verdicts->begin(), verdicts->end(), [](const CompilerVerdict& v) { return v.judged; }));
}

// BatchOptions::judged hears of every snippet once, run after run: here as
// bisection settles the halves, on three threads.
TEST(BatchCheckerJudgedTest, TellsEverySnippetOnceAsRunsSettleIt) {
  const std::vector<Snippet> snippets(64, *ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"));
  std::mutex mutex;
  std::vector<int> told(snippets.size(), 0);
  size_t calls = 0;
  BatchOptions options{.jobs = 3, .max_bisection_runs = 1000};
  options.judged = [&](const std::vector<size_t>& settled) {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls;
    for (size_t index : settled) ++told.at(index);
  };
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
      CheckSnippets(UnattributingCompiler(), snippets, {9, 0}, *ParseTarget("sm_90"), options);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_THAT(told, ::testing::Each(1));
  EXPECT_EQ(calls, snippets.size());  // bisection settles one snippet per run, at its leaves
}

}  // namespace
}  // namespace matload
