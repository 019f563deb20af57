#include "harness/compile/cached_compiler.h"

#include <unistd.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/compile/sass_lowering.h"
#include "harness/compile/toolchain_identity.h"
#include "harness/platform/infrastructure.h"
#include "reference/parser.h"

namespace matload {
namespace {

constexpr absl::string_view kModule = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k() { ret; }\n";
constexpr char kIdentity[] = "fake 1.0@0123456789abcdef";

// FakeCompiler answers every module with `answer` (or fails with
// `failure`) and counts what it was asked.
class FakeCompiler : public CompileOracle {
 public:
  std::string Tool() const override { return "fake"; }
  std::string Version() const override { return "1.0"; }
  bool Supports(Target target) const override { return true; }
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override {
    ++asked;
    if (!failure.ok()) return failure;
    return answer;
  }

  AssembleResult answer{.accepted = false,
                        .diagnostics = {{Diagnostic::Severity::kError, 4, "unknown instruction"},
                                        {Diagnostic::Severity::kWarning, 0, "a warning"},
                                        {Diagnostic::Severity::kFatal, 0, "Ptx assembly aborted due to errors"},
                                        {Diagnostic::Severity::kUnrecognised, 0, "ERROR: ld.so: \"quoted\"\ttab"}}};
  absl::Status failure;
  mutable int asked = 0;
};

// ExpectSame compares two compiler answers field by field.
void ExpectSame(const AssembleResult& a, const AssembleResult& b) {
  EXPECT_EQ(a.accepted, b.accepted);
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].severity, b.diagnostics[i].severity) << i;
    EXPECT_EQ(a.diagnostics[i].line, b.diagnostics[i].line) << i;
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message) << i;
  }
}

class CachedCompilerTest : public testing::Test {
 protected:
  void SetUp() override {
    const std::string path =
        (std::filesystem::path(testing::TempDir()) /
         absl::StrCat("cached_compiler_", testing::UnitTest::GetInstance()->current_test_info()->name(), ".sqlite"))
            .string();
    std::filesystem::remove(path);
    absl::StatusOr<std::unique_ptr<VerdictCache>> opened = VerdictCache::Open(path);
    ASSERT_TRUE(opened.ok()) << opened.status();
    cache_ = *std::move(opened);
  }

  std::unique_ptr<VerdictCache> cache_;
  FakeCompiler compiler_;
};

// An answer kept by one sweep is the next sweep's, exactly, without compiling.
TEST_F(CachedCompilerTest, AKeptAnswerIsGivenWithoutCompiling) {
  CachedCompiler cold(compiler_, *cache_, kIdentity);
  absl::StatusOr<AssembleResult> asked = cold.Assemble(kModule, Target{90});
  ASSERT_TRUE(asked.ok()) << asked.status();
  ASSERT_TRUE(cold.KeepAnswers().ok());
  EXPECT_EQ(compiler_.asked, 1);

  CachedCompiler warm(compiler_, *cache_, kIdentity);
  absl::StatusOr<AssembleResult> found = warm.Assemble(kModule, Target{90});
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(compiler_.asked, 1);
  ExpectSame(*found, compiler_.answer);
  EXPECT_EQ(warm.Tool(), "fake");
  EXPECT_EQ(warm.Version(), "1.0");
}

// Another toolchain, another target or another byte of text is another question.
TEST_F(CachedCompilerTest, OnlyTheSameToolchainTargetAndTextMatch) {
  CachedCompiler cold(compiler_, *cache_, kIdentity);
  ASSERT_TRUE(cold.Assemble(kModule, Target{90}).ok());
  ASSERT_TRUE(cold.KeepAnswers().ok());
  CachedCompiler other_build(compiler_, *cache_, "fake 1.0@fedcba9876543210");
  ASSERT_TRUE(other_build.Assemble(kModule, Target{90}).ok());
  CachedCompiler same(compiler_, *cache_, kIdentity);
  ASSERT_TRUE(same.Assemble(kModule, Target{80}).ok());
  ASSERT_TRUE(same.Assemble(absl::StrCat(kModule, "\n"), Target{90}).ok());
  EXPECT_EQ(compiler_.asked, 4);
}

// Answers are held until KeepAnswers: a sweep that found its compiler
// unable to judge drops them with the CachedCompiler.
TEST_F(CachedCompilerTest, NothingIsKeptBeforeKeepAnswers) {
  {
    CachedCompiler dropped(compiler_, *cache_, kIdentity);
    ASSERT_TRUE(dropped.Assemble(kModule, Target{90}).ok());
  }
  CachedCompiler next(compiler_, *cache_, kIdentity);
  ASSERT_TRUE(next.Assemble(kModule, Target{90}).ok());
  EXPECT_EQ(compiler_.asked, 2);
  EXPECT_EQ(cache_->kept(), 0u);
}

// A compiler that crashed gave no answer, and none is kept.
TEST_F(CachedCompilerTest, AFailureToAskIsNeverKept) {
  compiler_.failure = InfrastructureError(InfrastructureCause::kCompilerCrashed, "fake died of signal 11");
  CachedCompiler crashed(compiler_, *cache_, kIdentity);
  absl::StatusOr<AssembleResult> result = crashed.Assemble(kModule, Target{90});
  EXPECT_EQ(InfrastructureCauseOf(result.status()), InfrastructureCause::kCompilerCrashed);
  ASSERT_TRUE(crashed.KeepAnswers().ok());
  EXPECT_EQ(cache_->kept(), 0u);
}

// A kept answer that does not read as one (a row from a future matload,
// say) is asked again, and the new answer replaces it.
TEST_F(CachedCompilerTest, AnUnreadableAnswerIsAskedAgain) {
  const std::string question = absl::StrCat("assemble/1 sm_90\n", kModule);
  for (const char* unreadable : {"not json", R"({"accepted": true})", R"({"accepted": 1, "diagnostics": []})",
                                 R"({"accepted": false, "diagnostics": [["loud", 0, "x"]]})"}) {
    ASSERT_TRUE(cache_->Keep(kIdentity, {{question, unreadable}}).ok());
    CachedCompiler compiler(compiler_, *cache_, kIdentity);
    absl::StatusOr<AssembleResult> result = compiler.Assemble(kModule, Target{90});
    ASSERT_TRUE(result.ok()) << result.status();
    ExpectSame(*result, compiler_.answer);
  }
  EXPECT_EQ(compiler_.asked, 4);
}

// With the real ptxas (and cuobjdump, where installed): the warm answer is
// the cold one, and the SASS lowering is kept too.
TEST_F(CachedCompilerTest, RealPtxasAnswersAndSassLoweringsComeBackTheSame) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<std::string> identity = ToolchainIdentity(ptxas->Toolchain(), {ptxas->path()});
  ASSERT_TRUE(identity.ok()) << identity.status();
  constexpr absl::string_view kBroken = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k() { bogus; }\n";
  CachedCompiler cold(*ptxas, *cache_, *identity);
  absl::StatusOr<AssembleResult> compiled = cold.Assemble(kBroken, Target{90});
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ASSERT_TRUE(cold.KeepAnswers().ok());
  CachedCompiler warm(*ptxas, *cache_, *identity);
  absl::StatusOr<AssembleResult> found = warm.Assemble(kBroken, Target{90});
  ASSERT_TRUE(found.ok()) << found.status();
  ExpectSame(*found, *compiled);
  EXPECT_EQ(cache_->found(), 1u);

  const std::string cuobjdump = DefaultCuobjdumpPath();
  if (access(cuobjdump.c_str(), X_OK) != 0) GTEST_SKIP() << "no cuobjdump at " << cuobjdump;
  const std::vector<RawInstruction> forms = {
      ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];")->instruction};
  absl::StatusOr<std::vector<std::string>> lowered =
      LowerToSassCached(*cache_, *identity, *ptxas, cuobjdump, forms, PtxVersion{9, 0}, Target{90});
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  absl::StatusOr<std::vector<std::string>> again =
      LowerToSassCached(*cache_, *identity, *ptxas, cuobjdump, forms, PtxVersion{9, 0}, Target{90});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *lowered);
  EXPECT_EQ(cache_->found(), 2u);
}

}  // namespace
}  // namespace matload
