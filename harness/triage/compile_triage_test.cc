#include "harness/triage/compile_triage.h"

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/compile/fetched_ptxas.h"
#include "harness/platform/source_tree.h"
#include "harness/triage/compile_triage_report.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A near miss every ptxas accepts (ptxas-accepts-repeated-sync).
constexpr char kRepeatedSync[] = "sm_90.ldmatrix.sync.sync.aligned.m8n8.x1.shared.b16.raw_57ba0920";

class CompileTriageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> older = FetchedPtxasPath("12.4.99");
    absl::StatusOr<Ptxas> toolkit = Ptxas::Open(Ptxas::DefaultPath());
    if (!older.ok() || !toolkit.ok()) {
      GTEST_SKIP() << "needs the toolkit's ptxas and ptxas 12.4.99 (scripts/fetch-cuda-tools.sh ptxas@12.4.99): "
                   << older.status() << "; " << toolkit.status();
    }
    releases_.push_back(*Ptxas::Open(*older));
    releases_.push_back(*std::move(toolkit));
    const char* source = std::getenv("MATLOAD_SOURCE_DIR");
    absl::StatusOr<DiscrepancyRegistry> registry =
        DiscrepancyRegistry::Load(std::string(source ? source : ".") + "/corpora/known_discrepancies.json");
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = *std::move(registry);
  }

  std::vector<Ptxas> releases_;
  DiscrepancyRegistry registry_;
};

TEST_F(CompileTriageTest, ARegisteredCaseNamesItsEntryOnEveryRelease) {
  absl::StatusOr<CompileTriage> triage = TriageCompileCase(kRepeatedSync, releases_, registry_, nullptr);
  ASSERT_TRUE(triage.ok()) << triage.status();
  EXPECT_EQ(triage->instruction, "ldmatrix.sync.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];");
  ASSERT_EQ(triage->releases.size(), 2u);
  for (const ReleaseVerdict& release : triage->releases) {
    EXPECT_TRUE(release.present && release.accepted && !release.model_legal) << release.toolchain;
    EXPECT_EQ(release.registry_id, "ptxas-accepts-repeated-sync") << release.toolchain;
  }
  EXPECT_THAT(triage->Transitions(), ElementsAre("ptxas 12.4.99 (the oldest that has it) accepts it"));
  EXPECT_THAT(triage->RegistryIds(), ElementsAre("ptxas-accepts-repeated-sync"));
}

TEST_F(CompileTriageTest, AnUnexplainedCaseGetsADraftEntryThatMatchesIt) {
  absl::StatusOr<DiscrepancyRegistry> empty = DiscrepancyRegistry::Parse(R"({"about": "", "discrepancies": []})");
  ASSERT_TRUE(empty.ok()) << empty.status();
  absl::StatusOr<CompileTriage> triage = TriageCompileCase(kRepeatedSync, releases_, *empty, nullptr);
  ASSERT_TRUE(triage.ok()) << triage.status();
  EXPECT_THAT(triage->RegistryIds(), ElementsAre());
  const nlohmann::json draft = triage->DraftEntry();
  EXPECT_EQ(draft["direction"], "toolchain-accepts");
  EXPECT_EQ(draft["toolchains"], nlohmann::json({"ptxas 12.4.99", "ptxas 13.0.88"}));
  EXPECT_TRUE(std::regex_search(triage->instruction, std::regex(draft["pattern"].get<std::string>())));
  EXPECT_THAT(draft["judgement"].get<std::string>(), HasSubstr("TO WRITE"));

  const std::filesystem::path out =
      std::filesystem::path(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp") / "compile-triage-draft";
  std::filesystem::remove_all(out);
  ASSERT_TRUE(WriteCompileTriage(out, *triage).ok());
  EXPECT_TRUE(std::filesystem::exists(out / "draft-entry.json"));
  EXPECT_THAT(DescribeCompileTriage(*triage).summary, HasSubstr("No registry entry explains it."));
}

// A crash is a disagreement whatever the model says (here it says
// illegal): the draft entry says the toolchain crashes.
TEST_F(CompileTriageTest, ACrashDraftsAToolchainCrashesEntry) {
  setenv("MATLOAD_FAKE_PTXAS", "crash-on-untyped-m16n16k8", 1);
  absl::StatusOr<Ptxas> crashing = Ptxas::Open(SourceTreePath("harness/testing/fake_ptxas.sh"));
  ASSERT_TRUE(crashing.ok()) << crashing.status();
  absl::StatusOr<DiscrepancyRegistry> empty = DiscrepancyRegistry::Parse(R"({"about": "", "discrepancies": []})");
  absl::StatusOr<CompileTriage> triage =
      TriageCompileCase("sm_80.wmma_load.a.sync.aligned.row.m16n16k8.ops_342ba7cc", {*crashing}, *empty, nullptr);
  unsetenv("MATLOAD_FAKE_PTXAS");
  ASSERT_TRUE(triage.ok()) << triage.status();
  ASSERT_EQ(triage->releases.size(), 1u);
  EXPECT_TRUE(triage->releases[0].crashed);
  EXPECT_FALSE(triage->releases[0].model_legal);
  EXPECT_EQ(triage->DraftEntry()["direction"], "toolchain-crashes");
}

TEST_F(CompileTriageTest, ACaseNoReleaseHasIsNotFound) {
  EXPECT_EQ(TriageCompileCase("sm_90.ldmatrix.no.such.form", releases_, registry_, nullptr).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(TriageCompileCase("sm_999.ldmatrix.x", releases_, registry_, nullptr).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace matload
