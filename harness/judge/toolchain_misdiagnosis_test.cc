// The registry's toolchain-misdiagnoses entries still reproduce: each
// entry's example is rejected by the model and by ptxas, and ptxas still
// prints the message the entry quotes, on the toolkit's ptxas where the
// entry is in force there, and on every release the entry names that
// scripts/fetch-cuda-tools.sh has fetched. An entry whose message changes
// (ptxas got a real diagnostic) fails here, so the registry stays exactly
// as long as the truth; one fixed before the toolkit's release is checked
// only on the releases it names, and skipped, saying so, where none of them
// is fetched.
#include <algorithm>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/fetched_ptxas.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptxas.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/judge/toolchain_release.h"
#include "reference/legality.h"
#include "reference/parser.h"

namespace matload {
namespace {

// kMeasuredAt is the PTX ISA version every example is assembled and judged
// at: the newest that ptxas 12.9 reads, and every entry's target exists in
// it. A ptxas that speaks an older one assembles at the newest it speaks.
constexpr PtxVersion kMeasuredAt{8, 8};

// OpenedPtxas is one ptxas to check entries on, and the PTX ISA version
// its examples are assembled at.
struct OpenedPtxas {
  Ptxas ptxas;
  PtxVersion ptx;
};

// Open opens the ptxas at `path` and asks which version it speaks.
absl::StatusOr<OpenedPtxas> Open(const std::string& path) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
  if (!ptxas.ok()) return ptxas.status();
  absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(*ptxas);
  if (!dialect.ok()) return dialect.status();
  return OpenedPtxas{.ptxas = *std::move(ptxas), .ptx = std::min(kMeasuredAt, dialect->Judged())};
}

// FetchedReleases are the ptxas releases `entry` was measured on, spelled as
// scripts/fetch-cuda-tools.sh asks for them ("12.9.86"): those named in
// full, of ptxas.
std::vector<std::string> FetchedReleases(const DiscrepancyEntry& entry) {
  std::vector<std::string> releases;
  for (const std::string& toolchain : entry.toolchains) {
    const std::optional<ToolchainRelease> parsed = ParseToolchainRelease(toolchain);
    if (parsed.has_value() && parsed->tool == "ptxas" && parsed->release.size() == 3) {
      releases.push_back(absl::StrJoin(parsed->release, "."));
    }
  }
  return releases;
}

// CheckEntry holds one entry against one ptxas.
void CheckEntry(const DiscrepancyEntry& entry, const OpenedPtxas& opened) {
  SCOPED_TRACE(absl::StrCat(entry.id, " on ", opened.ptxas.Toolchain(), " at PTX ", opened.ptx.ToString()));
  const Target target = entry.targets.front();
  EXPECT_TRUE(std::regex_search(entry.example, entry.compiled)) << "the pattern does not match the example";
  EXPECT_FALSE(JudgeText(entry.example, opened.ptx, target).legal()) << "the model accepts the example";
  absl::StatusOr<Snippet> snippet = ParseSnippet(entry.example);
  ASSERT_TRUE(snippet.ok()) << snippet.status();
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts = CheckSnippets(opened.ptxas, {*snippet}, opened.ptx, target);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  const CompilerVerdict& verdict = verdicts->front();
  EXPECT_FALSE(verdict.accepted) << "no longer reproduces: ptxas accepts the example";
  const bool quoted = std::any_of(verdict.messages.begin(), verdict.messages.end(), [&](const std::string& message) {
    return absl::StrContains(message, entry.toolchain_message);
  });
  EXPECT_TRUE(quoted) << "no longer reproduces: ptxas now says " << absl::StrJoin(verdict.messages, " | ");
}

// FetchedPtxases opens each fetched ptxas release once, by release; a
// release not fetched is nullopt.
class FetchedPtxases {
 public:
  // Find is `release`'s ptxas, opened on first use.
  const std::optional<OpenedPtxas>& Find(const std::string& release) {
    auto [found, added] = opened_.try_emplace(release);
    if (!added) return found->second;
    absl::StatusOr<std::string> path = FetchedPtxasPath(release);
    if (!path.ok()) return found->second;
    absl::StatusOr<OpenedPtxas> opened = Open(*path);
    EXPECT_TRUE(opened.ok()) << "fetched ptxas " << release << ": " << opened.status();
    if (opened.ok()) found->second = *std::move(opened);
    return found->second;
  }

 private:
  absl::flat_hash_map<std::string, std::optional<OpenedPtxas>> opened_;
};

// CheckOnReleases checks `entry` on every release it names that is fetched
// and is not the toolkit's, and says how many it checked it on; it prints
// the releases not fetched.
size_t CheckOnReleases(const DiscrepancyEntry& entry, const OpenedPtxas& toolkit, FetchedPtxases& fetched) {
  size_t checked = 0;
  std::vector<std::string> missing;
  for (const std::string& release : FetchedReleases(entry)) {
    if (toolkit.ptxas.Toolchain() == absl::StrCat("ptxas ", release)) continue;
    const std::optional<OpenedPtxas>& opened = fetched.Find(release);
    if (!opened.has_value()) {
      missing.push_back(release);
    } else if (opened->ptxas.Supports(entry.targets.front())) {
      CheckEntry(entry, *opened);
      ++checked;
    }
  }
  if (!missing.empty()) {
    std::cout << entry.id << ": not checked on ptxas " << absl::StrJoin(missing, ", ")
              << ", not fetched (scripts/fetch-cuda-tools.sh ptxas@RELEASE)\n";
  }
  return checked;
}

TEST(ToolchainMisdiagnosisTest, EveryEntryStillReproduces) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  absl::StatusOr<OpenedPtxas> toolkit = Open(Ptxas::DefaultPath());
  ASSERT_TRUE(toolkit.ok()) << toolkit.status();
  FetchedPtxases fetched;
  for (const DiscrepancyEntry& entry : registry->entries()) {
    if (entry.direction != Direction::kToolchainMisdiagnoses) continue;
    const bool in_force = DiscrepancyRegistry::AppliesTo(entry, toolkit->ptxas.Toolchain());
    const size_t checked = CheckOnReleases(entry, *toolkit, fetched);
    if (in_force) {
      EXPECT_TRUE(toolkit->ptxas.Supports(entry.targets.front()))
          << entry.id << " is in force on " << toolkit->ptxas.Toolchain() << ", which lacks its target";
      if (toolkit->ptxas.Supports(entry.targets.front())) CheckEntry(entry, *toolkit);
    } else if (checked == 0) {
      std::cout << entry.id << ": skipped, not in force on " << toolkit->ptxas.Toolchain()
                << " and none of the releases it names is fetched\n";
    }
  }
}

}  // namespace
}  // namespace matload
