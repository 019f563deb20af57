#include "harness/support/registry_standing.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/parser.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The registry: a leniency measured on 12.9.86 and 13.0.88, one measured on
// 12.9.86 only, and one of nvJitLink.
constexpr absl::string_view kRegistry = R"json({"discrepancies": [
  {"id": "dup-sync", "pattern": "\\.sync\\.sync\\.", "direction": "toolchain-accepts", "rule": "syntax.duplicate-qualifier",
   "toolchains": ["ptxas 12.9.86", "ptxas 13.0.88"], "toolchain_message": "(accepted)", "judgement": "lenient", "example": "x"},
  {"id": "no-type", "pattern": "^ldmatrix(?![^ ]*\\.b16)", "direction": "toolchain-accepts", "rule": "ldmatrix.syntax",
   "toolchains": ["ptxas 12.9.86"], "toolchain_message": "(accepted)", "judgement": "lenient", "example": "x"},
  {"id": "jit-only", "pattern": "^ldmatrix", "direction": "toolchain-rejects", "rule": "ldmatrix.syntax",
   "toolchains": ["nvJitLink 13.0"], "toolchain_message": "no", "judgement": "strict", "example": "x"}]})json";

// The forms, all of sm_80, each illegal by the model.
const char* const kForms[] = {
    "ldmatrix.sync.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];",
    "ldmatrix.sync.aligned.m8n8.x1 {%r0}, [%addr];",
};

class RegistryStandingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(kRegistry);
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_.emplace(*std::move(registry));
    for (const char* text : kForms) {
      instructions_.push_back(ParseSnippet(text)->instruction);
      texts_.push_back(text);
    }
  }

  // Unshown is UnshownEntries on `toolchain`'s sweep of kForms, whose verdicts
  // `accepts` gives, with `disagreements` its disagreements.
  std::vector<std::string> Unshown(const std::string& toolchain, std::vector<bool> accepts,
                                   const std::vector<Disagreement>& disagreements) const {
    std::vector<CompilerVerdict> verdicts;
    for (bool accepted : accepts) verdicts.push_back({.accepted = accepted});
    const std::vector<bool> model_legal(texts_.size(), false);
    return UnshownEntries(*registry_, toolchain,
                          {*ParseTarget("sm_80"), 0, instructions_, texts_, model_legal, verdicts}, disagreements);
  }

  std::optional<DiscrepancyRegistry> registry_;
  std::vector<RawInstruction> instructions_;
  std::vector<std::string> texts_;
};

// 13.6.1 rejects the untyped ldmatrix, which the entry measured on 12.9.86
// says it accepts: that entry is unshown. The entry it shows is not, and
// neither is nvJitLink's, which is not in force on ptxas.
TEST_F(RegistryStandingTest, AnEntryInForceWhoseFormsNowAgreeIsUnshown) {
  const Disagreement shown{.target = "sm_80", .instruction = kForms[0], .registry_id = "dup-sync"};
  EXPECT_THAT(Unshown("ptxas 13.6.1", {true, false}, {shown}), ElementsAre("no-type"));
  EXPECT_THAT(Unshown("ptxas 13.6.1", {true, true}, {shown}), ElementsAre()) << "no form under no-type agrees";
  EXPECT_THAT(Unshown("ptxas 12.8.93", {false, false}, {}), ElementsAre()) << "neither entry is in force on 12.8";
}

// A sweep's news: the entries it shows that were measured on earlier
// releases only, and those in force that some target does not show and
// none shows.
TEST_F(RegistryStandingTest, ASweepSaysWhatIsAlsoSeenAndWhatIsFixed) {
  SupportSweep sweep{.compiler = "ptxas 13.6.1"};
  sweep.disagreements.push_back({.target = "sm_80", .instruction = kForms[0], .registry_id = "dup-sync"});
  sweep.disagreements.push_back({.target = "sm_80", .instruction = kForms[1]});
  sweep.unshown = {"dup-sync", "no-type"};
  const RegistryStanding standing = StandingOf(*registry_, sweep);
  ASSERT_EQ(standing.also_seen.size(), 1u);
  EXPECT_EQ(standing.also_seen[0]->id, "dup-sync");
  ASSERT_EQ(standing.fixed.size(), 1u) << "dup-sync is shown on another target";
  EXPECT_EQ(standing.fixed[0]->id, "no-type");
  const std::string lines = StandingLines("ptxas-13.6.1", standing, sweep.compiler);
  EXPECT_THAT(lines, HasSubstr("ptxas-13.6.1\tknown, also seen on ptxas 13.6.1: dup-sync ("));
  EXPECT_THAT(lines, HasSubstr("ptxas-13.6.1\tfixed in ptxas 13.6.1: no-type (no form disagrees under them now; "
                               "record ptxas 13.6.1 in their fixed_in)\n"));
  EXPECT_EQ(MeasuredOn(*standing.also_seen[0]), "measured on ptxas 12.9.86, ptxas 13.0.88");
}

// A sweep on a release where every entry was measured has no news.
TEST_F(RegistryStandingTest, ASweepOnAMeasuredReleaseHasNoNews) {
  SupportSweep sweep{.compiler = "ptxas 13.0.88"};
  sweep.disagreements.push_back({.target = "sm_80", .instruction = kForms[0], .registry_id = "dup-sync"});
  const RegistryStanding standing = StandingOf(*registry_, sweep);
  EXPECT_TRUE(standing.also_seen.empty());
  EXPECT_TRUE(standing.fixed.empty());
  EXPECT_EQ(StandingLines("ptxas", standing, sweep.compiler), "");
}

}  // namespace
}  // namespace matload
