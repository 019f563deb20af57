// The compile oracles against harness/testing/fake_ptxas.sh, one test per
// fault: a ptxas that crashed, hung, printed nothing or what cannot be read
// is an infrastructure outcome (infrastructure.h), never a verdict; a real
// rejection stays a verdict; extra lines change neither verdicts nor the
// number of runs.
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/source_tree.h"
#include "reference/enumerate.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Optional;

constexpr PtxVersion kPtx{9, 0};

const Target& Sm90() {
  static const Target target = *ParseTarget("sm_90");
  return target;
}

// OpenFake opens the fake ptxas in `mode` (fake_ptxas.sh lists them).
absl::StatusOr<Ptxas> OpenFake(const char* mode, std::chrono::milliseconds timeout = Ptxas::kDefaultTimeout) {
  setenv("MATLOAD_FAKE_PTXAS", mode, /*overwrite=*/1);
  return Ptxas::Open(SourceTreePath("harness/testing/fake_ptxas.sh"), timeout);
}

// AcceptedModule assembles with the real ptxas; RejectedModule does not.
constexpr absl::string_view kAcceptedModule =
    ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n";
constexpr absl::string_view kRejectedModule =
    ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 d; .reg .b64 a;\n"
    "ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];\nret;\n}\n";

// FewSnippets is one snippet ptxas accepts and one it rejects.
std::vector<Snippet> FewSnippets() {
  return {*ParseSnippet("ldmatrix.sync.aligned.m8n8.x1.b16 {d}, [a];"),
          *ParseSnippet("ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];")};
}

// ExpectCause checks that Assemble, CompileToCubin and CheckSnippets all
// end in `cause` with this fake.
void ExpectCause(const Ptxas& ptxas, InfrastructureCause cause) {
  EXPECT_THAT(InfrastructureCauseOf(ptxas.Assemble(kAcceptedModule, Sm90()).status()), Optional(cause));
  EXPECT_THAT(InfrastructureCauseOf(ptxas.CompileToCubin(kAcceptedModule, Sm90()).status()), Optional(cause));
  EXPECT_THAT(InfrastructureCauseOf(CheckSnippets(ptxas, FewSnippets(), kPtx, Sm90()).status()), Optional(cause));
}

TEST(FakePtxasTest, ACrashIsInfrastructureNotARejection) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("crash");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  ExpectCause(*ptxas, InfrastructureCause::kCompilerCrashed);
  EXPECT_THAT(std::string(ptxas->Assemble(kAcceptedModule, Sm90()).status().message()), HasSubstr("signal 11"));
}

// IsGone says whether process `pid` has ended (gone, or a zombie).
bool IsGone(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string id, name, state;
  return !(stat >> id >> name >> state) || state == "Z";
}

TEST(FakePtxasTest, AHangIsKilledWithItsChildrenAfterTheTimeout) {
  const std::string child_file = ::testing::TempDir() + "/fake_ptxas_hang_child.pid";
  setenv("MATLOAD_FAKE_PTXAS_CHILD_PID_FILE", child_file.c_str(), 1);
  absl::StatusOr<Ptxas> ptxas = OpenFake("hang", std::chrono::seconds(3));
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(InfrastructureCauseOf(ptxas->Assemble(kAcceptedModule, Sm90()).status()),
              Optional(InfrastructureCause::kCompilerHung));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  int child = 0;
  ASSERT_TRUE(std::ifstream(child_file) >> child) << "the fake wrote no child pid";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!IsGone(child) && std::chrono::steady_clock::now() < deadline) {
  }
  EXPECT_TRUE(IsGone(child)) << "the hung ptxas's own child outlived the timeout";
  unsetenv("MATLOAD_FAKE_PTXAS_CHILD_PID_FILE");
}

TEST(FakePtxasTest, AHangOnVersionIsInfrastructure) {
  EXPECT_THAT(InfrastructureCauseOf(OpenFake("hang-version", std::chrono::seconds(1)).status()),
              Optional(InfrastructureCause::kCompilerHung));
}

TEST(FakePtxasTest, SilenceIsNotAVerdict) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("silent");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  ExpectCause(*ptxas, InfrastructureCause::kCompilerOutputNotUnderstood);
}

TEST(FakePtxasTest, GarbageIsNotAVerdict) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("garbage");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  ExpectCause(*ptxas, InfrastructureCause::kCompilerOutputNotUnderstood);
}

// A compiler that accepts everything gives plausible verdicts; the canary
// module is what catches it.
TEST(FakePtxasTest, ACompilerThatAcceptsEverythingIsCaughtByTheCanary) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("accept-all");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<AssembleResult> assembled = ptxas->Assemble(kRejectedModule, Sm90());
  ASSERT_TRUE(assembled.ok()) << assembled.status();
  EXPECT_TRUE(assembled->accepted);
  absl::Status checked = CheckSnippets(*ptxas, FewSnippets(), kPtx, Sm90()).status();
  EXPECT_THAT(InfrastructureCauseOf(checked), Optional(InfrastructureCause::kCompilerOutputNotUnderstood));
  EXPECT_THAT(std::string(checked.message()), HasSubstr("canary"));
}

// A rejection with a message in ptxas's format is a verdict. Of an empty
// module for a target that exists it means the compiler cannot judge; for a
// (PTX, target) that does not exist its errors belong to every snippet.
TEST(FakePtxasTest, ARealRejectionStaysAVerdict) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("reject");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<AssembleResult> assembled = ptxas->Assemble(kAcceptedModule, Sm90());
  ASSERT_TRUE(assembled.ok()) << assembled.status();
  EXPECT_FALSE(assembled->accepted);
  ASSERT_FALSE(assembled->diagnostics.empty());
  EXPECT_EQ(assembled->diagnostics[0].severity, Diagnostic::Severity::kFatal);
  absl::StatusOr<std::string> cubin = ptxas->CompileToCubin(kAcceptedModule, Sm90());
  EXPECT_EQ(cubin.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(cubin.status().message()), HasSubstr("matload_fake_rejection"));
  EXPECT_THAT(InfrastructureCauseOf(CheckSnippets(*ptxas, FewSnippets(), kPtx, Sm90()).status()),
              Optional(InfrastructureCause::kCompilerOutputNotUnderstood));
  absl::StatusOr<std::vector<CompilerVerdict>> absent_target = CheckSnippets(*ptxas, FewSnippets(), {7, 7}, Sm90());
  ASSERT_TRUE(absent_target.ok()) << absent_target.status();
  for (const CompilerVerdict& verdict : *absent_target) {
    EXPECT_FALSE(verdict.accepted);
    EXPECT_THAT(verdict.messages, ::testing::ElementsAre(HasSubstr("matload_fake_rejection")));
  }
}

// VerdictsOf is each verdict as "accepted" or its messages, for comparing.
std::vector<std::string> VerdictsOf(const std::vector<CompilerVerdict>& verdicts) {
  std::vector<std::string> spelled;
  for (const CompilerVerdict& verdict : verdicts) {
    spelled.push_back(verdict.accepted ? "accepted" : ::testing::PrintToString(verdict.messages));
  }
  return spelled;
}

// SweepSample is a slice of sm_90's sweep, legal forms and near misses, with
// the model's guesses, as the support sweep hands them over.
struct SweepSample {
  std::vector<Snippet> snippets;
  BatchOptions options;
};
SweepSample Sm90Sample() {
  SweepSample sample;
  for (const Form& form : LegalForms(kPtx, Sm90())) sample.snippets.push_back({{}, ToRaw(form)});
  sample.snippets.resize(std::min<size_t>(sample.snippets.size(), 600));
  std::vector<RawInstruction> near_misses = NearMissInstructions(kPtx, Sm90());
  near_misses.resize(std::min<size_t>(near_misses.size(), 1400));
  for (RawInstruction& raw : near_misses) sample.snippets.push_back({{}, std::move(raw)});
  for (const Snippet& snippet : sample.snippets) {
    sample.options.predicted_legal.push_back(Judge(snippet, kPtx, Sm90()).legal());
  }
  return sample;
}

// Runs that differ only by a line the compiler adds to its output give the
// same verdicts in the same number of runs (they used to split every module
// down to single snippets: ten times the runs).
void ExpectSameVerdictsAndRuns(const char* mode, absl::string_view expected_line) {
  absl::StatusOr<Ptxas> real = Ptxas::Open(Ptxas::DefaultPath());
  absl::StatusOr<Ptxas> fake = OpenFake(mode);
  ASSERT_TRUE(real.ok()) << real.status();
  ASSERT_TRUE(fake.ok()) << fake.status();
  EXPECT_EQ(fake->Version(), real->Version());
  SweepSample sample = Sm90Sample();
  BatchReport real_report;
  BatchReport fake_report;
  sample.options.jobs = 2;
  sample.options.report = &real_report;
  absl::StatusOr<std::vector<CompilerVerdict>> expected =
      CheckSnippets(*real, sample.snippets, kPtx, Sm90(), sample.options);
  sample.options.report = &fake_report;
  absl::StatusOr<std::vector<CompilerVerdict>> actual =
      CheckSnippets(*fake, sample.snippets, kPtx, Sm90(), sample.options);
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_TRUE(actual.ok()) << actual.status();
  EXPECT_EQ(VerdictsOf(*actual), VerdictsOf(*expected));
  EXPECT_LE(fake_report.runs, real_report.runs + 2) << "real ptxas: " << real_report.runs << " runs";
  EXPECT_EQ(fake_report.unjudged, 0u);
  EXPECT_THAT(fake_report.unrecognised_lines, ::testing::Contains(HasSubstr(expected_line)));
}

// A compiler that crashes on one form, in a batch of many, crashes on that
// form alone: the checker traces the crash to it, which gets the crash as
// its verdict, and every other form keeps the real ptxas's verdict.
TEST(FakePtxasTest, ACrashOnOneFormIsThatFormsVerdictAlone) {
  absl::StatusOr<Ptxas> real = Ptxas::Open(Ptxas::DefaultPath());
  absl::StatusOr<Ptxas> fake = OpenFake("crash-on-untyped-m16n16k8");
  ASSERT_TRUE(real.ok()) << real.status();
  ASSERT_TRUE(fake.ok()) << fake.status();
  SweepSample sample = Sm90Sample();
  const size_t crashing = sample.snippets.size() / 2;
  sample.snippets.insert(sample.snippets.begin() + crashing,
                         *ParseSnippet("wmma.load.a.sync.aligned.row.m16n16k8 {r0, r1, r2, r3}, [a];"));
  sample.options.predicted_legal.insert(sample.options.predicted_legal.begin() + crashing, false);
  absl::StatusOr<std::vector<CompilerVerdict>> expected =
      CheckSnippets(*real, sample.snippets, kPtx, Sm90(), sample.options);
  absl::StatusOr<std::vector<CompilerVerdict>> actual =
      CheckSnippets(*fake, sample.snippets, kPtx, Sm90(), sample.options);
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_TRUE(actual.ok()) << actual.status();
  for (size_t i = 0; i < sample.snippets.size(); ++i) {
    const std::string form = PrintRaw(sample.snippets[i].instruction);
    if (i == crashing) {
      EXPECT_TRUE((*actual)[i].crashed) << form;
      EXPECT_FALSE((*actual)[i].accepted);
      EXPECT_THAT((*actual)[i].messages, ::testing::ElementsAre("the compiler died of signal 11 (Segmentation fault)"));
      EXPECT_FALSE((*expected)[i].crashed) << "the real ptxas rejects it: " << form;
    } else {
      EXPECT_FALSE((*actual)[i].crashed) << form;
      EXPECT_EQ(VerdictsOf({(*actual)[i]}), VerdictsOf({(*expected)[i]})) << form;
    }
  }
}

// A crash that does not come again when the form is run alone a second
// time is no verdict (it would be kept in the verdict cache): it stays an
// infrastructure outcome.
TEST(FakePtxasTest, ACrashThatDoesNotComeAgainIsNoVerdict) {
  const std::string state = ::testing::TempDir() + "/fake_ptxas_crash_once";
  std::remove(state.c_str());
  setenv("MATLOAD_FAKE_PTXAS_STATE", state.c_str(), 1);
  absl::StatusOr<Ptxas> fake = OpenFake("crash-once-on-untyped-m16n16k8");
  ASSERT_TRUE(fake.ok()) << fake.status();
  const absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(
      *fake, {*ParseSnippet("wmma.load.a.sync.aligned.row.m16n16k8 {r0, r1, r2, r3}, [a];")}, kPtx, Sm90());
  unsetenv("MATLOAD_FAKE_PTXAS_STATE");
  EXPECT_THAT(InfrastructureCauseOf(verdicts.status()), Optional(InfrastructureCause::kCompilerCrashed));
  EXPECT_THAT(std::string(verdicts.status().message()), HasSubstr("not reproducible"));
}

TEST(FakePtxasTest, AnExtraStderrLineChangesNoVerdictAndNoRunCount) {
  ExpectSameVerdictsAndRuns("extra-line", "LD_PRELOAD cannot be preloaded");
}

TEST(FakePtxasTest, AHundredKilobyteLineIsReadWithoutOverflowingTheStack) {
  absl::StatusOr<Ptxas> ptxas = OpenFake("long-line");
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<AssembleResult> accepted = ptxas->Assemble(kAcceptedModule, Sm90());
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  EXPECT_TRUE(accepted->accepted);
  ASSERT_FALSE(accepted->diagnostics.empty());
  EXPECT_EQ(accepted->diagnostics.back().severity, Diagnostic::Severity::kWarning);
  EXPECT_EQ(accepted->diagnostics.back().message.size(), 102400u);
  absl::StatusOr<AssembleResult> rejected = ptxas->Assemble(kRejectedModule, Sm90());
  ASSERT_TRUE(rejected.ok()) << rejected.status();
  EXPECT_FALSE(rejected->accepted);
  EXPECT_THAT(rejected->diagnostics[0].message, HasSubstr("Unknown modifier '.x3'"));
}

}  // namespace
}  // namespace matload
