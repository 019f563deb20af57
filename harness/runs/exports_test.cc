#include "harness/runs/exports.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ResultsCsvTest, WritesAHeaderAndOneLinePerCaseQuotingAsRfc4180) {
  const std::vector<CaseRecord> cases = {
      {.id = "ldmatrix.x4.driver_jit", .outcome = "pass", .seconds = 0.25},
      {.id = "a,b", .outcome = "say \"hi\"", .seconds = 1},
      {.id = "line\nbreak", .outcome = "cr\rhere", .seconds = 12.3456},
      {.id = "plain'<&>", .outcome = "mismatch"},
  };
  EXPECT_EQ(ResultsCsv(cases),
            "case,outcome,duration_s\n"
            "ldmatrix.x4.driver_jit,pass,0.250\n"
            "\"a,b\",\"say \"\"hi\"\"\",1.000\n"
            "\"line\nbreak\",\"cr\rhere\",12.346\n"
            "plain'<&>,mismatch,0.000\n");
}

TEST(ResultsCsvTest, NoCasesIsTheHeaderAlone) { EXPECT_EQ(ResultsCsv({}), "case,outcome,duration_s\n"); }

}  // namespace
}  // namespace matload
