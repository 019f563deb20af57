// The classifier's table, held to messages ptxas printed: which of the
// model's reasons each can stand for.
#include "harness/compile/diagnostic_classifier.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::Contains;
using ::testing::IsEmpty;

TEST(DiagnosticClassifierTest, SummariesNameNoReason) {
  EXPECT_THAT(ClassifyPtxasMessage("Ptx assembly aborted due to errors"), IsEmpty());
  EXPECT_THAT(ClassifyPtxasMessage("a message never seen"), IsEmpty());
}

TEST(DiagnosticClassifierTest, OneMessageStandsForEveryCauseItIsPrintedFor) {
  EXPECT_THAT(ClassifyPtxasMessage("Arguments mismatch for instruction 'ldmatrix'"),
              Contains(ReasonCode::kRegisterType));
  EXPECT_THAT(ClassifyPtxasMessage("Unknown modifier '.x3'"), Contains(ReasonCode::kUnknownQualifier));
}

// ptxas 13.4.92 and 13.5.37 say this of ldmatrix .m8n16 with .s4.s8, the
// types of .s8.s4 in the wrong order (the model's ldmatrix.s8-s4-order).
TEST(DiagnosticClassifierTest, UnexpectedTypesIncludeTypesOutOfOrder) {
  const std::vector<ReasonCode> codes = ClassifyPtxasMessage("Unexpected instruction types specified for 'ldmatrix'");
  EXPECT_THAT(codes, Contains(ReasonCode::kMisplacedQualifier));
  EXPECT_THAT(codes, Contains(ReasonCode::kDuplicateQualifier)) << "'.f16' after '.b16' is one type too many";
}

}  // namespace
}  // namespace matload
