#include "harness/compile/ptxas.h"

#include <stdlib.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(PtxasDiagnosticsTest, ParsesLineErrorsAndFatals) {
  std::vector<Diagnostic> diagnostics = ParsePtxasDiagnostics(
      "ptxas /tmp/a.ptx, line 6; error   : Unknown modifier '.x3'\n"
      "ptxas /tmp/a.ptx, line 9; warning : something odd\n"
      "ptxas /tmp/a.ptx, line 12; fatal   : Parsing error near 'ldmatrix': syntax error\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n"
      "an unexpected line\n");
  ASSERT_EQ(diagnostics.size(), 5u);
  EXPECT_EQ(diagnostics[0].line, 6);
  EXPECT_EQ(diagnostics[0].severity, Diagnostic::Severity::kError);
  EXPECT_EQ(diagnostics[0].message, "Unknown modifier '.x3'");
  EXPECT_EQ(diagnostics[1].severity, Diagnostic::Severity::kWarning);
  EXPECT_EQ(diagnostics[2].severity, Diagnostic::Severity::kFatal);
  EXPECT_EQ(diagnostics[2].line, 12);
  EXPECT_EQ(diagnostics[3].line, 0);
  EXPECT_EQ(diagnostics[4].message, "an unexpected line") << "unrecognised lines are kept, never dropped";
  EXPECT_EQ(diagnostics[4].severity, Diagnostic::Severity::kUnrecognised);
}

TEST(PtxasTest, OpensTheToolkitPtxas) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_THAT(ptxas->Version(), ::testing::MatchesRegex("[0-9]+\\.[0-9]+\\.[0-9]+"));
  EXPECT_TRUE(ptxas->Supports(*ParseTarget("sm_90")));
}

TEST(PtxasTest, AssemblesAndRejects) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target sm90 = *ParseTarget("sm_90");
  absl::StatusOr<AssembleResult> good = ptxas->Assemble(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n", sm90);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_TRUE(good->accepted);
  absl::StatusOr<AssembleResult> bad = ptxas->Assemble(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 d; .reg .b64 a;\n"
      "ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];\nret;\n}\n",
      sm90);
  ASSERT_TRUE(bad.ok()) << bad.status();
  EXPECT_FALSE(bad->accepted);
  ASSERT_FALSE(bad->diagnostics.empty());
  EXPECT_EQ(bad->diagnostics[0].line, 7);
  EXPECT_THAT(bad->diagnostics[0].message, HasSubstr("Unknown modifier '.x3'"));
}

// The offline path's cubin is an ELF file; a rejected module says why.
TEST(PtxasTest, CompilesToACubinOrSaysWhyNot) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target sm90 = *ParseTarget("sm_90");
  absl::StatusOr<std::string> cubin =
      ptxas->CompileToCubin(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n", sm90);
  ASSERT_TRUE(cubin.ok()) << cubin.status();
  EXPECT_EQ(cubin->substr(0, 4), "\x7f" "ELF");
  absl::StatusOr<std::string> rejected = ptxas->CompileToCubin(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nbogus;\nret;\n}\n", sm90);
  EXPECT_EQ(rejected.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(rejected.status().message(), HasSubstr("rejected the module"));
}

TEST(PtxasTest, ReportsWhatItCannotDo) {
  EXPECT_EQ(Ptxas::Open("/nonexistent/ptxas").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Ptxas::Open("/bin/true").status().code(), absl::StatusCode::kFailedPrecondition);
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok());
  // CUDA 13 dropped offline compilation for Volta (CUDA 13.0 release notes).
  absl::StatusOr<AssembleResult> volta = ptxas->Assemble("", *ParseTarget("sm_70"));
  EXPECT_EQ(volta.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(volta.status().message()), HasSubstr("cannot assemble for sm_70"));
}

// Runs write their module files over an earlier run's, in one directory
// under $TMPDIR, and each run's verdicts are its own modules': a shorter
// module or fewer modules than the last run's, and no earlier cubin.
TEST(PtxasTest, RunsWriteTheirModulesOverEarlierRunsFiles) {
  const std::filesystem::path scratch = std::filesystem::path(testing::TempDir()) / "ptxas_scratch_test";
  std::filesystem::remove_all(scratch);
  std::filesystem::create_directories(scratch);
  const char* tmpdir = std::getenv("TMPDIR");
  const std::string saved = tmpdir == nullptr ? "" : tmpdir;
  setenv("TMPDIR", scratch.c_str(), 1);
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target sm90 = *ParseTarget("sm_90");
  const std::string good = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n";
  const std::string bad =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 d; .reg .b64 a;\n"
      "ldmatrix.sync.aligned.m8n8.x3.b16 {d}, [a];\nret;\n}\n";
  auto directories = [&] {
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::directory_iterator(scratch)) found.push_back(entry.path());
    return found;
  };

  absl::StatusOr<AssembleResult> first = ptxas->AssembleModules({bad, good}, sm90);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE(first->accepted);
  ASSERT_FALSE(first->diagnostics.empty());
  EXPECT_EQ(first->diagnostics[0].module, 0);
  ASSERT_EQ(directories().size(), 1u);
  absl::StatusOr<AssembleResult> second = ptxas->AssembleModules({good}, sm90);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(second->accepted);
  absl::StatusOr<AssembleResult> third = ptxas->AssembleModules({good, bad}, sm90);
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_FALSE(third->accepted);
  ASSERT_FALSE(third->diagnostics.empty());
  EXPECT_EQ(third->diagnostics[0].module, 1);
  ASSERT_EQ(directories().size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(directories()[0] / "out.cubin"));
  if (tmpdir == nullptr) {
    unsetenv("TMPDIR");
  } else {
    setenv("TMPDIR", saved.c_str(), 1);
  }
}

// Said is what `result` says, file names aside (a module's file is named
// apart in every run): acceptance, and each line's severity, line and text.
std::vector<std::string> Said(const AssembleResult& result) {
  std::vector<std::string> said = {result.accepted ? "accepted" : "rejected"};
  for (const Diagnostic& diagnostic : result.diagnostics) {
    said.push_back(absl::StrCat(static_cast<int>(diagnostic.severity), " ", diagnostic.module, " ",
                                diagnostic.file == "<builtin>" ? "<builtin> " : "", diagnostic.line, ": ",
                                diagnostic.message));
  }
  return said;
}

// A module of one instruction for sm_90, its kernel named k`index`.
std::string OneInstruction(size_t index, absl::string_view instruction) {
  return absl::StrCat(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k", index,
                      "()\n{\n.reg .b32 %r<8>;\n.reg .b64 %addr;\n", instruction, "\nret;\n}\n");
}

// AssembleEach gives each module what a run of it alone gives, where one
// module of a shared run changes another's verdict too: measured with
// ptxas 13.0.88, the module after a fatal parsing error gets "Multiple
// .aligned modifiers specified" (a clean ldmatrix here), and the errors of
// the wmma helpers name "<builtin>", not the module that called them.
TEST(PtxasTest, AssembleEachGivesEveryModuleWhatItsRunAloneGives) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target sm90 = *ParseTarget("sm_90");
  const std::vector<std::string> instructions = {
      "wmma.load.a.sync.aligned.row.m8n32k16.shared.bf16.sp::2:4 {%r0, %r1}, [%addr];",  // fatal
      "ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];",
      "wmma.load.c.sync.aligned.row.m16n16k8.f16 {%r0, %r1, %r2, %r3}, [%addr];",  // <builtin> errors
      "wmma.load.c.sync.aligned.row.m16n16k8.s32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%addr];",
      "ldmatrix.sync.aligned.m8n8.x3.b16 {%r0}, [%addr];",  // errors of its own
      "ldmatrix.sync.aligned.m8n8.x2.b16 {%r0, %r1}, [%addr];",
  };
  std::vector<std::string> modules;
  for (size_t i = 0; i < instructions.size(); ++i) modules.push_back(OneInstruction(i, instructions[i]));
  absl::StatusOr<std::vector<AssembleResult>> each = ptxas->AssembleEach(modules, sm90);
  ASSERT_TRUE(each.ok()) << each.status();
  ASSERT_EQ(each->size(), modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    absl::StatusOr<AssembleResult> alone = ptxas->Assemble(modules[i], sm90);
    ASSERT_TRUE(alone.ok()) << alone.status();
    EXPECT_EQ(Said((*each)[i]), Said(*alone)) << instructions[i];
  }
  EXPECT_TRUE((*each)[1].accepted);
  EXPECT_TRUE((*each)[5].accepted);
  EXPECT_THAT(Said((*each)[2]), ::testing::Contains(HasSubstr("<builtin>")));
  EXPECT_TRUE(ptxas->AssembleEach({}, sm90)->empty());
}

// More modules than one run takes, clean ones among rejected ones: each
// ends with its own verdict, the clean ones of rejected runs assembled
// again in runs that pass.
TEST(PtxasTest, AssembleEachJudgesManyRunsOfModules) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const Target sm90 = *ParseTarget("sm_90");
  std::vector<std::string> modules;
  for (size_t i = 0; i < 3 * Ptxas::kModulesPerEachRun + 5; ++i) {
    modules.push_back(OneInstruction(i, i % 7 == 3 ? "ldmatrix.sync.aligned.m8n8.x3.b16 {%r0}, [%addr];"
                                                   : "ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];"));
  }
  absl::StatusOr<std::vector<AssembleResult>> each = ptxas->AssembleEach(modules, sm90);
  ASSERT_TRUE(each.ok()) << each.status();
  ASSERT_EQ(each->size(), modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    EXPECT_EQ((*each)[i].accepted, i % 7 != 3) << i;
    if (i % 7 != 3) continue;
    ASSERT_FALSE((*each)[i].diagnostics.empty()) << i;
    EXPECT_EQ((*each)[i].diagnostics[0].module, 0);
    EXPECT_EQ((*each)[i].diagnostics[0].line, 8);
    EXPECT_THAT((*each)[i].diagnostics[0].message, HasSubstr("Unknown modifier '.x3'"));
  }
}

}  // namespace
}  // namespace matload
