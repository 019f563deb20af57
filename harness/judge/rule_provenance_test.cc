#include "harness/judge/rule_provenance.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::set<std::string> Ids(const std::vector<SpecRef>& rules) {
  std::set<std::string> ids;
  for (const SpecRef& rule : rules) ids.emplace(rule.id);
  return ids;
}

// The inferences issue 20 names, the ptxas 12.9.86 .aligned measurement and
// the ptxas 13.0.88 f64 accumulator measurement are listed; rules the PTX
// text states (the wmma.load syntax, the 8x8 row alignment) are not.
TEST(RuleProvenanceTest, UnstatedRulesAreTheMeasuredInferredAndSecondaryOnes) {
  const std::set<std::string> ids = Ids(UnstatedRules());
  for (const char* id : {"ldmatrix.infer.m16n16-address-lanes", "ldmatrix.infer.m16n16-row-pairing",
                         "ldmatrix.infer.decompress-padding", "ldmatrix.infer.decompress-zero-extension",
                         "ldmatrix.infer.row-alignment-m8n16-m16n16", "tcgen05.ld.infer.pack-16b-halves",
                         "tcgen05.ld.infer.red-nan", "tcgen05.ld.infer.red-abs", "wmma.ptx.aligned",
                         "wmma.fragments.f64-c", "syntax.qualifier-order", "operand.register-class",
                         "wmma.layout.sm70", "wmma.layout.sm90.measured"}) {
    EXPECT_TRUE(ids.contains(id)) << id;
  }
  EXPECT_FALSE(ids.contains("wmma.syntax"));
  EXPECT_FALSE(ids.contains("ldmatrix.ub.row-alignment"));
}

TEST(RuleProvenanceTest, SupportMarkdownShowsMisdiagnosesAndSources) {
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  ASSERT_TRUE(registry.ok()) << registry.status();
  const std::string md = RuleProvenanceMarkdown(*registry, "ptxas 13.0.88");
  EXPECT_THAT(md, HasSubstr("## Toolchain misdiagnoses"));
  EXPECT_THAT(md, HasSubstr("### ptxas-calls-wmma-unknown-for-a-bad-matrix"));
  EXPECT_THAT(md, HasSubstr("Compiler says: `Not a name of any known instruction: 'wmma'`"));
  EXPECT_THAT(md, HasSubstr("| `ldmatrix.infer.m16n16-row-pairing` | inferred |"));
  EXPECT_THAT(md, HasSubstr("| `wmma.ptx.aligned` | measured |"));
  // Misdiagnoses are per toolchain: none was measured on nvJitLink.
  EXPECT_THAT(RuleProvenanceMarkdown(*registry, "nvJitLink 13.0"), Not(HasSubstr("### ptxas-")));
  nlohmann::json json;
  AddRuleProvenance(*registry, "ptxas 13.0.88", json);
  EXPECT_EQ(json["misdiagnoses"].size(), Misdiagnoses(*registry, "ptxas 13.0.88").size());
  EXPECT_GE(json["misdiagnoses"].size(), 6u);
  EXPECT_EQ(json["unstated_rules"].size(), UnstatedRules().size());
}

}  // namespace
}  // namespace matload
