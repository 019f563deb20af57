// The registry's toolchain-misdiagnoses entries still reproduce: on every
// ptxas here that an entry was measured on, its example is rejected by the
// model and by ptxas, and ptxas still prints the message the entry quotes.
// An entry whose message changes (ptxas got a real diagnostic) fails here,
// so the registry stays exactly as long as the truth.
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"
#include "harness/judge/discrepancy_registry.h"
#include "reference/legality.h"
#include "reference/parser.h"

namespace matload {
namespace {

// kMeasuredAt is the PTX ISA version every example is assembled and judged
// at: the newest that ptxas 12.9 reads, and every entry's target exists in it.
constexpr PtxVersion kMeasuredAt{8, 8};

// PtxasPaths are the ptxas binaries to check: the toolkit's and, where
// fetched, 12.9.86 (scripts/fetch-cuda-tools.sh ptxas@12.9.86).
std::vector<std::string> PtxasPaths() {
  std::vector<std::string> paths = {Ptxas::DefaultPath()};
  const char* home = std::getenv("HOME");
  const std::string fetched = absl::StrCat(home == nullptr ? "" : home, "/.cache/matload/cuda-12.9.86/ptxas");
  if (std::filesystem::exists(fetched)) paths.push_back(fetched);
  return paths;
}

// CheckEntry holds one entry against one ptxas.
void CheckEntry(const DiscrepancyEntry& entry, const Ptxas& ptxas) {
  SCOPED_TRACE(absl::StrCat(entry.id, " on ", ptxas.Toolchain()));
  const Target target = entry.targets.front();
  EXPECT_TRUE(std::regex_search(entry.example, entry.compiled)) << "the pattern does not match the example";
  EXPECT_FALSE(JudgeText(entry.example, kMeasuredAt, target).legal()) << "the model accepts the example";
  absl::StatusOr<Snippet> snippet = ParseSnippet(entry.example);
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(ptxas, {*snippet}, kMeasuredAt, target);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  const CompilerVerdict& verdict = verdicts->front();
  EXPECT_FALSE(verdict.accepted) << "no longer reproduces: ptxas accepts the example";
  const bool quoted = std::any_of(verdict.messages.begin(), verdict.messages.end(), [&](const std::string& message) {
    return absl::StrContains(message, entry.toolchain_message);
  });
  EXPECT_TRUE(quoted) << "no longer reproduces: ptxas now says " << absl::StrJoin(verdict.messages, " | ");
}

TEST(ToolchainMisdiagnosisTest, EveryEntryStillReproduces) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  std::set<std::string> checked;
  for (const std::string& path : PtxasPaths()) {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
    ASSERT_TRUE(ptxas.ok()) << ptxas.status();
    for (const DiscrepancyEntry& entry : registry->entries()) {
      if (entry.direction != Direction::kToolchainMisdiagnoses ||
          !DiscrepancyRegistry::AppliesTo(entry, ptxas->Toolchain()) || !ptxas->Supports(entry.targets.front())) {
        continue;
      }
      CheckEntry(entry, *ptxas);
      checked.insert(entry.id);
    }
  }
  if (checked.empty()) GTEST_SKIP() << "no ptxas here is one the misdiagnoses were measured on";
  for (const DiscrepancyEntry& entry : registry->entries()) {
    if (entry.direction == Direction::kToolchainMisdiagnoses) {
      EXPECT_TRUE(checked.contains(entry.id)) << entry.id << " was checked on no ptxas here";
    }
  }
}

}  // namespace
}  // namespace matload
