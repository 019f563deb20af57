#include "harness/triage/culprit.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

// Evidence has the four builds, each failing or passing as `fails` says.
CulpritEvidence Evidence(bool jit, bool o3, bool o0, bool linked) {
  CulpritEvidence evidence;
  const std::pair<const char*, bool> builds[] = {
      {"driver JIT", jit}, {"ptxas -O3", o3}, {"ptxas -O0", o0}, {"nvJitLink", linked}};
  for (const auto& [name, fails] : builds) {
    evidence.builds.push_back({.name = name, .built = true, .fails = fails, .passes = !fails});
  }
  return evidence;
}

TEST(CulpritTest, FailingAtO3AndPassingAtO0BlamesTheOptimizer) {
  CulpritEvidence evidence = Evidence(true, true, false, true);
  evidence.builds[1].loads = "LDSM.16.M88.2";
  evidence.builds[2].loads = "LDS.U16 x8";
  const Culprit culprit = BlameStage(evidence);
  EXPECT_EQ(culprit.stage, "ptxas optimizer");
  EXPECT_THAT(culprit.because, HasSubstr("LDSM.16.M88.2 against LDS.U16 x8"));
  EXPECT_THAT(culprit.evidence, Contains("ptxas -O0: passes; loads LDS.U16 x8"));
}

TEST(CulpritTest, OnlyTheJitFailingBlamesTheJit) {
  EXPECT_EQ(BlameStage(Evidence(true, false, false, false)).stage, "driver JIT");
}

TEST(CulpritTest, OnlyNvJitLinkFailingBlamesNvJitLink) {
  EXPECT_EQ(BlameStage(Evidence(false, false, false, true)).stage, "nvJitLink");
}

TEST(CulpritTest, EveryBuildFailingWithAGoodOlderToolkitBlamesPtxas) {
  CulpritEvidence evidence = Evidence(true, true, true, true);
  evidence.range_last_good = "ptxas 12.3.107";
  evidence.range_first_bad = "ptxas 12.4.99";
  const Culprit culprit = BlameStage(evidence);
  EXPECT_EQ(culprit.stage, "ptxas");
  EXPECT_THAT(culprit.because, HasSubstr("changed at ptxas 12.4.99"));
}

TEST(CulpritTest, EveryBuildFailingAndNoGoodToolkitCannotTellTheGpuFromTheLowering) {
  EXPECT_EQ(BlameStage(Evidence(true, true, true, true)).stage, "GPU or code generation");
}

// What the H100 showed for shared-wmma-load-ab-needs-16-byte-rows
// (reports/triage/h100-2026-11-27): every build loads with LDSM and
// faults, the generic form loads with LD and passes.
TEST(CulpritTest, APassingGenericSiblingBlamesTheFormsCodeGeneration) {
  CulpritEvidence evidence = Evidence(true, true, true, true);
  evidence.builds[1].loads = "LDSM.16.M88.2";
  evidence.siblings.push_back(
      {.change = "without .shared", .generic_address = true, .passes = true, .loads = "LD.E x2"});
  const Culprit culprit = BlameStage(evidence);
  EXPECT_EQ(culprit.stage, "code generation of the form");
  EXPECT_THAT(culprit.because, HasSubstr("(LD.E x2 against LDSM.16.M88.2)"));
  EXPECT_THAT(culprit.evidence, Contains("sibling without .shared: passes; loads LD.E x2"));
}

TEST(CulpritTest, AGenericSiblingThatAlsoFailsBlamesNothingNew) {
  CulpritEvidence evidence = Evidence(true, true, true, true);
  evidence.siblings.push_back({.change = "without .shared", .generic_address = true, .passes = false, .loads = "LD.E"});
  EXPECT_EQ(BlameStage(evidence).stage, "GPU or code generation");
}

TEST(CulpritTest, NoFailingBuildDoesNotReproduce) {
  EXPECT_EQ(BlameStage(Evidence(false, false, false, false)).stage, "none (does not reproduce)");
}

TEST(CulpritTest, AKernelMatloadDidNotBuildBlamesTheHarness) {
  CulpritEvidence evidence = Evidence(true, true, true, true);
  evidence.kernel_is_matloads = false;
  EXPECT_EQ(BlameStage(evidence).stage, "harness");
}

TEST(CulpritTest, UnbuiltBuildsAreNeitherFailingNorPassing) {
  CulpritEvidence evidence = Evidence(true, true, true, true);
  evidence.builds[3] = {.name = "nvJitLink", .built = false};
  EXPECT_EQ(BlameStage(evidence).stage, "GPU or code generation");
  EXPECT_THAT(BlameStage(evidence).evidence, Contains("nvJitLink: not built"));
}

}  // namespace
}  // namespace matload
