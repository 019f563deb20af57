#include "harness/report/outcome_class.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(OutcomeClassTest, AgreementIsNoDisagreement) {
  for (const CaseOutcome outcome : {CaseOutcome::kPass, CaseOutcome::kIllegalRejected, CaseOutcome::kExpectedFault}) {
    EXPECT_EQ(ClassOf(outcome, false), OutcomeClass::kAgree) << CaseOutcomeWord(outcome);
    EXPECT_FALSE(IsDisagreement(ClassOf(outcome, false))) << CaseOutcomeWord(outcome);
  }
}

TEST(OutcomeClassTest, ExplainedDisagreementsAreStillDisagreements) {
  // A support sweep's near miss that ptxas accepts, explained by the registry, is no finding.
  for (const CaseOutcome outcome :
       {CaseOutcome::kKnownFault, CaseOutcome::kLegalRejected, CaseOutcome::kIllegalAccepted}) {
    EXPECT_EQ(ClassOf(outcome, false), OutcomeClass::kKnown) << CaseOutcomeWord(outcome);
    EXPECT_TRUE(IsDisagreement(ClassOf(outcome, false))) << CaseOutcomeWord(outcome);
  }
}

TEST(OutcomeClassTest, FindingsAndFlakesAreDisagreements) {
  EXPECT_EQ(ClassOf(CaseOutcome::kMismatch, true), OutcomeClass::kFinding);
  EXPECT_EQ(ClassOf(CaseOutcome::kCrash, true), OutcomeClass::kFinding);
  EXPECT_EQ(ClassOf(CaseOutcome::kFlake, true), OutcomeClass::kFlake);
  EXPECT_TRUE(IsDisagreement(OutcomeClass::kFinding));
  EXPECT_TRUE(IsDisagreement(OutcomeClass::kFlake));
}

TEST(OutcomeClassTest, UndefinedAndNotRunAreNoDisagreements) {
  EXPECT_FALSE(IsDisagreement(ClassOf(CaseOutcome::kUndefinedRan, false)));
  EXPECT_FALSE(IsDisagreement(ClassOf(CaseOutcome::kNotCompiled, false)));
  EXPECT_FALSE(IsDisagreement(ClassOf(CaseOutcome::kUnsupported, false)));
}

TEST(OutcomeClassTest, AFindingsOutcomeOnNoFindingIsShownAsAnother) {
  for (const CaseOutcome outcome : {CaseOutcome::kMismatch, CaseOutcome::kTimeout, CaseOutcome::kCrash}) {
    EXPECT_EQ(ClassOf(outcome, false), OutcomeClass::kOther) << CaseOutcomeWord(outcome);
  }
}

TEST(OutcomeClassTest, EveryClassHasItsOwnColour) {
  std::set<std::string> colours;
  for (const LegendEntry& entry : Legend()) EXPECT_TRUE(colours.insert(entry.css).second) << entry.css;
  EXPECT_EQ(colours.size(), 8u);
}

}  // namespace
}  // namespace matload
