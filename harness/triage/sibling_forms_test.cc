#include "harness/triage/sibling_forms.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::FieldsAre;

std::unique_ptr<TestProgram> Program(const char* opcode, int address_bits = 64) {
  return *TestProgram::ForOpcode(opcode, *ParseTarget("sm_90"), *ParsePtxVersion("9.0"),
                                 {.shared_address_bits = address_bits});
}

// Changes lists each sibling as (change, its form).
std::vector<std::pair<std::string, std::string>> Changes(const TestProgram& program) {
  std::vector<std::pair<std::string, std::string>> changes;
  for (const SiblingForm& sibling : SiblingForms(program))
    changes.emplace_back(sibling.change, sibling.program->opcode());
  return changes;
}

TEST(SiblingFormsTest, AnLdmatrixX4HasItsGenericAndSmallerSiblings) {
  EXPECT_THAT(Changes(*Program("ldmatrix.sync.aligned.m8n8.x4.shared.b16")),
              ElementsAre(FieldsAre("without .shared", "ldmatrix.sync.aligned.m8n8.x4.b16"),
                          FieldsAre(".x2 for .x4", "ldmatrix.sync.aligned.m8n8.x2.shared.b16"),
                          FieldsAre(".x1 for .x4", "ldmatrix.sync.aligned.m8n8.x1.shared.b16")));
}

TEST(SiblingFormsTest, ASharedWmmaLoadHasItsGenericSibling) {
  EXPECT_THAT(Changes(*Program("wmma.load.a.sync.aligned.row.m16n16k16.shared::cta.s8", 32)),
              ElementsAre(FieldsAre("without .shared::cta", "wmma.load.a.sync.aligned.row.m16n16k16.s8")));
}

TEST(SiblingFormsTest, AGenericX1HasNone) {
  EXPECT_THAT(Changes(*Program("ldmatrix.sync.aligned.m8n8.x1.b16")), ElementsAre());
}

}  // namespace
}  // namespace matload
