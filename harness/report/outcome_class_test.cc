#include "harness/report/outcome_class.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(OutcomeClassTest, AgreementIsNoDisagreement) {
  for (const char* word : {"pass", "illegal_rejected", "expected_fault"}) {
    EXPECT_EQ(ClassOf(word, false), OutcomeClass::kAgree) << word;
    EXPECT_FALSE(IsDisagreement(ClassOf(word, false))) << word;
  }
}

TEST(OutcomeClassTest, ExplainedDisagreementsAreStillDisagreements) {
  // A support sweep's near miss that ptxas accepts, explained by the registry, is no finding.
  for (const char* word : {"known_fault", "legal_rejected", "illegal_accepted"}) {
    EXPECT_EQ(ClassOf(word, false), OutcomeClass::kKnown) << word;
    EXPECT_TRUE(IsDisagreement(ClassOf(word, false))) << word;
  }
}

TEST(OutcomeClassTest, FindingsAndFlakesAreDisagreements) {
  EXPECT_EQ(ClassOf("mismatch", true), OutcomeClass::kFinding);
  EXPECT_EQ(ClassOf("crash", true), OutcomeClass::kFinding);
  EXPECT_EQ(ClassOf("flake", true), OutcomeClass::kFlake);
  EXPECT_TRUE(IsDisagreement(OutcomeClass::kFinding));
  EXPECT_TRUE(IsDisagreement(OutcomeClass::kFlake));
}

TEST(OutcomeClassTest, UndefinedAndNotRunAreNoDisagreements) {
  EXPECT_FALSE(IsDisagreement(ClassOf("undefined_ran", false)));
  EXPECT_FALSE(IsDisagreement(ClassOf("not_compiled", false)));
  EXPECT_FALSE(IsDisagreement(ClassOf("unsupported", false)));
}

TEST(OutcomeClassTest, AnUnknownWordIsShownAsAnother) {
  EXPECT_EQ(ClassOf("new_word", false), OutcomeClass::kOther);
}

TEST(OutcomeClassTest, EveryClassHasItsOwnColour) {
  std::set<std::string> colours;
  for (const LegendEntry& entry : Legend()) EXPECT_TRUE(colours.insert(entry.css).second) << entry.css;
  EXPECT_EQ(colours.size(), 8u);
}

}  // namespace
}  // namespace matload
