#include "reference/qualifier_rules.h"

#include <functional>

#include "gtest/gtest.h"
#include "reference/families.h"
#include "reference/legality.h"

namespace matload {
namespace {

// ForEachSet calls `visit` with every qualifier set of `spec`: each axis
// absent or one of its values.
void ForEachSet(const FamilySpec& spec, const std::function<void(const QualifierSet&)>& visit) {
  QualifierSet current;
  std::function<void(size_t)> walk = [&](size_t axis) {
    if (axis == spec.axes.size()) {
      visit(current);
      return;
    }
    for (int value = kAbsent; value < static_cast<int>(spec.axes[axis].spellings.size()); ++value) {
      current.Set(static_cast<int>(axis), value);
      walk(axis + 1);
    }
    current.Set(static_cast<int>(axis), kAbsent);
  };
  walk(0);
}

// Without reasons, the rules say what QualifierReasons says of every
// qualifier set: legal exactly when it gives no reason. With reasons, they
// add QualifierReasons' reasons after those already there.
TEST(QualifierRulesTest, AgreesWithQualifierReasonsOnEveryQualifierSet) {
  size_t legal = 0;
  for (const char* name : {"sm_70", "sm_90", "sm_100a"}) {
    const Target target = *ParseTarget(name);
    for (PtxVersion ptx : {PtxVersion{7, 0}, PtxVersion{9, 0}}) {
      for (const FamilySpec* spec : AllFamilies()) {
        ForEachSet(*spec, [&](const QualifierSet& qualifiers) {
          const std::vector<Reason> expected = QualifierReasons(*spec, qualifiers, ptx, target);
          EXPECT_EQ(CheckQualifierRules(*spec, qualifiers, ptx, target, nullptr), expected.empty());
          std::vector<Reason> reasons = {{ReasonCode::kSyntax, {}, "already there"}};
          EXPECT_EQ(CheckQualifierRules(*spec, qualifiers, ptx, target, &reasons), expected.empty());
          ASSERT_EQ(reasons.size(), expected.size() + 1);
          for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(reasons[i + 1].message, expected[i].message);
          legal += expected.empty() ? 1 : 0;
        });
      }
    }
  }
  EXPECT_GT(legal, 0u);
}

}  // namespace
}  // namespace matload
