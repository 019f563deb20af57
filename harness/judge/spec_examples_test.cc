// The spec's own examples, copied by hand into each family's folder
// (families/<family>/<family>_spec_examples.txt): each is judged by the
// model for its intended target and must give the recorded verdict; and on
// ten targets the model's verdict, and its reason, must match ptxas's.
//
// The files hold one snippet per line as `matload check --file` reads them:
// the spec's declarations and instruction, line breaks joined and its //
// comments dropped, otherwise verbatim (the missing ';' of wmma.load example
// 3 stays). Before each snippet:
//   '# ## <section> example <n>: <spec comment>'
//   '# target: T'       a target the example is meant for
//   '# ptx: V'          the PTX ISA version it is judged at, where it needs a
//                       later one than 9.0 (the default)
//   '# expect: legal' or '# expect: illegal <reason-code> ...'
//   '# in-context: ...' the verdict with the undeclared address register
//                       declared .b64, as the spec's surrounding code would
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/compile/fetched_ptxas.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/source_tree.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/parser.h"

namespace matload {
namespace {

struct Example {
  std::string name;
  std::string target;
  PtxVersion ptx{9, 0};
  std::string expect;      // "legal" or "illegal code code..."
  std::string in_context;  // same, with `ptr` declared; empty if as written
  std::string text;
};

// ExampleFiles are every family folder's examples file, in path order.
std::vector<std::filesystem::path> ExampleFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& folder : std::filesystem::directory_iterator(SourceTreePath("families"))) {
    const std::filesystem::path file = folder.path() / (folder.path().filename().string() + "_spec_examples.txt");
    if (std::filesystem::exists(file)) files.push_back(file);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ReadExamples adds the examples of one file to `examples`.
void ReadExamples(const std::filesystem::path& path, std::vector<Example>& examples) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot read " << path;
  Example example;
  std::string text;
  while (std::getline(file, text)) {
    absl::string_view line = text;
    if (absl::ConsumePrefix(&line, "# ## ")) {
      example = Example{.name = std::string(line)};
    } else if (absl::ConsumePrefix(&line, "# target: ")) {
      example.target = std::string(line);
    } else if (absl::ConsumePrefix(&line, "# ptx: ")) {
      example.ptx = *ParsePtxVersion(line);
    } else if (absl::ConsumePrefix(&line, "# expect: ")) {
      example.expect = std::string(line);
    } else if (absl::ConsumePrefix(&line, "# in-context: ")) {
      example.in_context = std::string(line);
    } else if (!line.empty() && line[0] != '#') {
      example.text = std::string(line);
      examples.push_back(example);
    }
  }
}

// LoadExamples is every family's examples; every registered family has a
// file of them.
std::vector<Example> LoadExamples() {
  const std::vector<std::filesystem::path> files = ExampleFiles();
  EXPECT_EQ(files.size(), AllFamilies().size());
  std::vector<Example> examples;
  for (const std::filesystem::path& path : files) ReadExamples(path, examples);
  return examples;
}

// InContext declares an undeclared address register as .b64, as the spec's
// surrounding code would.
std::string InContext(const std::string& text) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(text);
  if (!snippet.ok() || snippet->declarations.empty()) return text;
  for (const Operand& operand : snippet->instruction.operands) {
    const auto* address = std::get_if<AddressOperand>(&operand);
    if (address != nullptr && snippet->FindDeclaration(address->base) == nullptr) {
      return absl::StrCat(".reg .b64 ", address->base, ";\n", text);
    }
  }
  return text;
}

std::string Describe(const Verdict& verdict) {
  if (verdict.legal()) return "legal";
  std::vector<std::string> codes;
  for (const Reason& reason : verdict.reasons()) codes.emplace_back(ReasonCodeName(reason.code));
  return absl::StrCat("illegal ", absl::StrJoin(codes, " "));
}

TEST(SpecExamplesTest, EveryExampleOfTheThreeSectionsIsThere) {
  std::vector<Example> examples = LoadExamples();
  ASSERT_EQ(examples.size(), 18u) << "7 ldmatrix (one of PTX 9.4), 7 wmma.load and 4 tcgen05.ld (one of PTX 9.4) "
                                     "examples";
}

TEST(SpecExamplesTest, ModelVerdictsAreTheRecordedOnes) {
  for (const Example& example : LoadExamples()) {
    const Target target = *ParseTarget(example.target);
    EXPECT_EQ(Describe(JudgeText(example.text, example.ptx, target)), example.expect) << example.name;
    if (!example.in_context.empty()) {
      EXPECT_EQ(Describe(JudgeText(InContext(example.text), example.ptx, target)), example.in_context) << example.name;
    }
  }
}

// Case is one text CompareOnTenTargets judges: an example as written, or
// as the spec's surrounding code would declare it, at the example's PTX
// version, parsed where it parses.
struct Case {
  std::string text;
  PtxVersion ptx;
  absl::StatusOr<Snippet> snippet;
};

// Cases are every example `dialect` speaks the PTX version of, each as
// written and in context.
std::vector<Case> Cases(const PtxDialect& dialect) {
  std::vector<Case> cases;
  for (const Example& example : LoadExamples()) {
    if (dialect.spoken < example.ptx) continue;
    for (const std::string& text : {example.text, InContext(example.text)}) {
      cases.push_back({.text = text, .ptx = example.ptx, .snippet = ParseSnippet(text)});
    }
  }
  return cases;
}

// CheckCases gives each of `cases` the verdict `ptxas` gives it on `target`
// in a module of its own. Parsed cases go in as snippets (implicit
// declarations where the spec gives none); text that does not parse goes in
// verbatim. The cases of one PTX version go in one CheckSnippets or
// CheckTexts call, which gives each what a module of its own would get
// (batch_checker.h, held to that by batch_checker_exactness_test) in a few
// ptxas runs, where a call per case took three runs each.
absl::StatusOr<std::vector<CompilerVerdict>> CheckCases(const Ptxas& ptxas, const std::vector<Case>& cases,
                                                        Target target) {
  std::map<std::pair<PtxVersion, bool>, std::vector<size_t>> groups;  // by PTX version and parsed or not
  for (size_t i = 0; i < cases.size(); ++i) groups[{cases[i].ptx, cases[i].snippet.ok()}].push_back(i);
  std::vector<CompilerVerdict> verdicts(cases.size());
  for (const auto& [key, indices] : groups) {
    const auto& [ptx, parsed] = key;
    std::vector<Snippet> snippets;
    std::vector<std::string> texts;
    for (size_t i : indices) {
      if (parsed) {
        snippets.push_back(*cases[i].snippet);
      } else {
        texts.push_back(cases[i].text);
      }
    }
    absl::StatusOr<std::vector<CompilerVerdict>> checked =
        parsed ? CheckSnippets(ptxas, snippets, ptx, target) : CheckTexts(ptxas, texts, ptx, target);
    if (!checked.ok()) return checked.status();
    for (size_t k = 0; k < indices.size(); ++k) verdicts[indices[k]] = std::move((*checked)[k]);
  }
  return verdicts;
}

// CompareOnTenTargets holds the model to `ptxas` on ten targets, each
// example at its own PTX version where `ptxas` speaks it (and as the spec's
// surrounding code would declare it), and returns how many it compared.
int CompareOnTenTargets(const Ptxas& ptxas) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  EXPECT_TRUE(registry.ok()) << registry.status();
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(ptxas);
  EXPECT_TRUE(dialect.ok()) << dialect.status();
  if (!registry.ok() || !dialect.ok()) return 0;
  const std::vector<Case> cases = Cases(*dialect);
  int compared = 0;
  for (const char* name :
       {"sm_75", "sm_80", "sm_90", "sm_90a", "sm_100a", "sm_100f", "sm_103a", "sm_110a", "sm_120a", "sm_121a"}) {
    const Target target = *ParseTarget(name);
    absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckCases(ptxas, cases, target);
    EXPECT_TRUE(verdicts.ok()) << verdicts.status();
    if (!verdicts.ok()) return compared;
    for (size_t i = 0; i < cases.size(); ++i) {
      const std::string& text = cases[i].text;
      const CompilerVerdict& compiler = (*verdicts)[i];
      EXPECT_TRUE(compiler.judged) << name << ": ptxas's errors were not traced to\n" << text;
      const Verdict model = JudgeText(text, cases[i].ptx, target);
      ++compared;
      if (model.legal() != compiler.accepted) {
        EXPECT_NE(registry->Find(cases[i].snippet.ok() ? text : "", target,
                                 compiler.accepted ? Direction::kToolchainAccepts : Direction::kToolchainRejects,
                                 ptxas.Toolchain()),
                  nullptr)
            << name << ": model " << Describe(model) << ", " << ptxas.Toolchain() << " "
            << (compiler.accepted ? "accepts" : "rejects") << ":\n"
            << text;
        continue;
      }
      if (model.legal()) continue;
      std::set<ReasonCode> compiler_codes;
      for (const std::string& message : compiler.messages) {
        for (ReasonCode code : ClassifyPtxasMessage(message)) compiler_codes.insert(code);
      }
      bool shared_reason = false;
      for (const Reason& reason : model.reasons()) {
        shared_reason = shared_reason || compiler_codes.contains(reason.code);
      }
      EXPECT_TRUE(shared_reason) << name << ": model " << Describe(model) << " but " << ptxas.Toolchain() << " says "
                                 << absl::StrJoin(compiler.messages, " | ") << "\n"
                                 << text;
    }
  }
  return compared;
}

// The toolkit's ptxas (CUDA 13.0: PTX 9.0) judges the 16 examples of PTX 9.0.
TEST(SpecExamplesTest, ModelAgreesWithTheToolkitPtxasOnTenTargets) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_GE(CompareOnTenTargets(*ptxas), 320);
}

// The newest ptxas the fetch script knows judges every example, those of
// later PTX versions too (the 9.4 .s8.s4 and .spcompress examples: 18 x 2 x
// 10).
TEST(SpecExamplesTest, ModelAgreesWithTheNewestFetchedPtxasOnTenTargets) {
  absl::StatusOr<Ptxas> ptxas = OpenNewestFetchedPtxas();
  if (absl::IsNotFound(ptxas.status())) GTEST_SKIP() << ptxas.status().message();
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  EXPECT_EQ(CompareOnTenTargets(*ptxas), 360);
}

// matload's tables know every PTX ISA version the newest ptxas that
// scripts/fetch-cuda-tools.sh knows speaks: a new toolkit in the script
// with a new version fails here until the tables have it
// (docs/adding-a-ptx-version.md).
TEST(SpecExamplesTest, TheTablesKnowEveryVersionTheNewestFetchablePtxasSpeaks) {
  absl::StatusOr<Ptxas> ptxas = OpenNewestFetchedPtxas();
  if (absl::IsNotFound(ptxas.status())) GTEST_SKIP() << ptxas.status().message();
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(*ptxas);
  ASSERT_TRUE(dialect.ok()) << dialect.status();
  EXPECT_FALSE(dialect->AheadOfTables()) << DialectNote(ptxas->Toolchain(), *dialect)
                                         << "; add it (docs/adding-a-ptx-version.md)";
}

}  // namespace
}  // namespace matload
