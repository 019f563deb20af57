#include "harness/runs/exports.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ResultsCsvTest, WritesAHeaderAndOneLinePerCaseQuotingAsRfc4180) {
  const std::vector<CaseRecord> cases = {
      {.id = "ldmatrix.x4.driver_jit", .outcome = CaseOutcome::kPass, .seconds = 0.25},
      {.id = "a,b", .outcome = CaseOutcome::kFlake, .seconds = 1},
      {.id = "say \"hi\"", .outcome = CaseOutcome::kNotCompiled, .seconds = 12.3456},
      {.id = "line\nbre\rak", .outcome = CaseOutcome::kMismatch},
  };
  EXPECT_EQ(ResultsCsv(cases),
            "case,outcome,duration_s\n"
            "ldmatrix.x4.driver_jit,pass,0.250\n"
            "\"a,b\",flake,1.000\n"
            "\"say \"\"hi\"\"\",not_compiled,12.346\n"
            "\"line\nbre\rak\",mismatch,0.000\n");
}

TEST(ResultsCsvTest, NoCasesIsTheHeaderAlone) { EXPECT_EQ(ResultsCsv({}), "case,outcome,duration_s\n"); }

}  // namespace
}  // namespace matload
