#include "harness/compile/cached_check.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/compile/cached_compiler.h"
#include "harness/platform/infrastructure.h"
#include "harness/compile/ptxas.h"
#include "reference/declaration_index.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {
namespace {

constexpr char kIdentity[] = "ptxas under test@0123456789abcdef";

// CountingCompiler passes every question to `compiler` and counts them,
// or fails each with `failure` when it is set.
class CountingCompiler : public CompileOracle {
 public:
  explicit CountingCompiler(const CompileOracle& compiler) : compiler_(compiler) {}
  std::string Tool() const override { return compiler_.Tool(); }
  std::string Version() const override { return compiler_.Version(); }
  bool Supports(Target target) const override { return compiler_.Supports(target); }
  size_t MaxModulesPerRun() const override { return compiler_.MaxModulesPerRun(); }
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override {
    ++asked;
    if (!failure.ok()) return failure;
    return compiler_.Assemble(module_text, target);
  }
  absl::StatusOr<AssembleResult> AssembleModules(const std::vector<std::string>& modules,
                                                 Target target) const override {
    ++asked;
    if (!failure.ok()) return failure;
    return compiler_.AssembleModules(modules, target);
  }

  absl::Status failure;
  mutable int asked = 0;

 private:
  const CompileOracle& compiler_;
};

class CachedCheckTest : public testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    ASSERT_TRUE(ptxas.ok()) << ptxas.status();
    ptxas_.emplace(*std::move(ptxas));
    counting_.emplace(*ptxas_);
    const std::string path =
        (std::filesystem::path(testing::TempDir()) /
         absl::StrCat("cached_check_", testing::UnitTest::GetInstance()->current_test_info()->name(), ".sqlite"))
            .string();
    std::filesystem::remove(path);
    absl::StatusOr<std::unique_ptr<VerdictCache>> opened = VerdictCache::Open(path);
    ASSERT_TRUE(opened.ok()) << opened.status();
    cache_ = *std::move(opened);
    // sm_90's ldmatrix forms, legal and near misses, with the model's guesses.
    for (const Form& form : LegalForms({9, 0}, target_)) {
      if (form.family == Family::kLdmatrix) forms_.push_back(ToRaw(form));
    }
    for (RawInstruction& raw : NearMissInstructions({9, 0}, target_)) {
      if (raw.opcode.front() == "ldmatrix") forms_.push_back(std::move(raw));
    }
    for (const RawInstruction& form : forms_) {
      texts_.push_back(PrintRaw(form));
      options_.predicted_legal.push_back(JudgedLegal(form, StandardDeclarationIndex(), {9, 0}, target_));
    }
  }

  // Check is CheckSharedCached of the forms, its report in `report`.
  absl::StatusOr<std::vector<CompilerVerdict>> Check(BatchReport& report) {
    BatchOptions options = options_;
    options.report = &report;
    return CheckSharedCached(*counting_, *cache_, kIdentity, StandardRegisterFile(), texts_, {9, 0}, target_, options);
  }

  const Target target_ = *ParseTarget("sm_90");
  std::optional<Ptxas> ptxas_;
  std::optional<CountingCompiler> counting_;
  std::unique_ptr<VerdictCache> cache_;
  std::vector<RawInstruction> forms_;
  std::vector<std::string> texts_;
  BatchOptions options_;
};

// ExpectSame compares two checks' verdicts and reports.
void ExpectSame(const std::vector<CompilerVerdict>& a, const BatchReport& a_report,
                const std::vector<CompilerVerdict>& b, const BatchReport& b_report) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].accepted, b[i].accepted) << i;
    EXPECT_EQ(a[i].judged, b[i].judged) << i;
    EXPECT_EQ(a[i].messages, b[i].messages) << i;
    EXPECT_EQ(a[i].unplaced, b[i].unplaced) << i;
  }
  EXPECT_EQ(a_report.runs, b_report.runs);
  EXPECT_EQ(a_report.bisection_runs, b_report.bisection_runs);
  EXPECT_EQ(a_report.unjudged, b_report.unjudged);
  EXPECT_EQ(a_report.unrecognised_lines, b_report.unrecognised_lines);
}

// A check kept whole is the next one's, verdicts and report, with one
// lookup and no compiler run; and it is CheckShared's.
TEST_F(CachedCheckTest, AWholeCheckIsFoundWithOneLookup) {
  BatchReport cold_report;
  absl::StatusOr<std::vector<CompilerVerdict>> cold = Check(cold_report);
  ASSERT_TRUE(cold.ok()) << cold.status();
  EXPECT_GT(counting_->asked, 2);
  EXPECT_GT(cache_->kept(), 1u);

  const int asked = counting_->asked;
  const size_t found = cache_->found();
  BatchReport warm_report;
  absl::StatusOr<std::vector<CompilerVerdict>> warm = Check(warm_report);
  ASSERT_TRUE(warm.ok()) << warm.status();
  EXPECT_EQ(counting_->asked, asked);
  EXPECT_EQ(cache_->found(), found + 1);
  ExpectSame(*warm, warm_report, *cold, cold_report);

  BatchReport plain_report;
  BatchOptions options = options_;
  options.report = &plain_report;
  absl::StatusOr<std::vector<CompilerVerdict>> plain =
      CheckShared(*ptxas_, StandardRegisterFile(), texts_, {9, 0}, target_, options);
  ASSERT_TRUE(plain.ok()) << plain.status();
  ExpectSame(*plain, plain_report, *cold, cold_report);
}

// Without a whole answer, the runs' answers kept one by one still answer
// every run, and the whole answer is kept then.
TEST_F(CachedCheckTest, TheRunsAnswerWhereNoWholeCheckIsKept) {
  CachedCompiler runs(*counting_, *cache_, kIdentity);
  ASSERT_TRUE(CheckShared(runs, StandardRegisterFile(), texts_, {9, 0}, target_, options_).ok());
  ASSERT_TRUE(runs.KeepAnswers().ok());
  const int asked = counting_->asked;

  BatchReport report;
  ASSERT_TRUE(Check(report).ok());
  EXPECT_EQ(counting_->asked, asked);
  EXPECT_EQ(cache_->found(), report.runs);
  ASSERT_TRUE(Check(report).ok());
  EXPECT_EQ(cache_->found(), report.runs + 1);
}

// A compiler that could not judge keeps nothing, whole or run by run.
TEST_F(CachedCheckTest, AFailedCheckKeepsNothing) {
  counting_->failure = InfrastructureError(InfrastructureCause::kCompilerCrashed, "ptxas crashed");
  BatchReport report;
  EXPECT_FALSE(Check(report).ok());
  EXPECT_EQ(cache_->kept(), 0u);
}

// A whole answer reads back as it was written, messages and lines with
// quotes, escapes and non-ASCII text included; text of another shape, or of
// another count of forms, does not read.
TEST(WholeAnswerTest, ReadsBackWhatWasWrittenAndNothingElse) {
  const std::vector<CompilerVerdict> verdicts = {
      {.accepted = true},
      {.accepted = false, .messages = {"a \"quoted\" message", "ünï\n\ttab"}, .unplaced = 1},
      {.accepted = false, .messages = {"kept recurring"}, .judged = false, .unplaced = 1}};
  const BatchReport report = {.runs = 3, .bisection_runs = 1, .unjudged = 1, .unrecognised_lines = {"odd\\line"}};
  const std::string text = WholeAnswer(verdicts, report);
  BatchReport read_report;
  const std::optional<std::vector<CompilerVerdict>> read = ReadWholeAnswer(text, verdicts.size(), read_report);
  ASSERT_TRUE(read.has_value()) << text;
  ExpectSame(*read, read_report, verdicts, report);

  BatchReport untouched{.runs = 99};
  EXPECT_FALSE(ReadWholeAnswer(text, verdicts.size() - 1, untouched).has_value());
  for (const std::string& other : {
           std::string(""),
           std::string("[]"),
           std::string("{}"),
           text + " x",
           std::string(R"({"verdicts":[[true,true,[],0]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[]]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[],true]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[],0,0]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[1,true,[],0]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[1],0]]})"),
           std::string(R"({"report":[1,0,[]],"verdicts":[[true,true,[],0]]})"),
           std::string(R"({"report":[1,0,-1,[]],"verdicts":[[true,true,[],0]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[],-1]]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[[true,true,[],0]],"more":[]})"),
           std::string(R"({"report":[1,0,0,[]],"verdicts":[{"accepted":true}]})"),
       }) {
    EXPECT_FALSE(ReadWholeAnswer(other, 1, untouched).has_value()) << other;
  }
  EXPECT_EQ(untouched.runs, 99u);
  const std::optional<std::vector<CompilerVerdict>> reordered =
      ReadWholeAnswer(R"({"verdicts":[[false,true,["m"],0]],"report":[2,0,0,[]]})", 1, untouched);
  ASSERT_TRUE(reordered.has_value());
  EXPECT_EQ((*reordered)[0].messages, std::vector<std::string>{"m"});
  EXPECT_EQ(untouched.runs, 2u);
}

}  // namespace
}  // namespace matload
