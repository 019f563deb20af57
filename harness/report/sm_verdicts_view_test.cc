#include "harness/report/sm_verdicts_view.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

SmVerdicts TwoGpus() {
  SmVerdicts verdicts;
  verdicts[{1, 0}] = {.blocks = 5};
  verdicts[{0, 0}] = {.blocks = 3729617};
  verdicts[{0, 2}] = {.blocks = 3750150, .disagreed = 2};
  return verdicts;
}

TEST(SmVerdictsViewTest, EachGpuInOrderWithItsSmsSaid) {
  const std::vector<GpuSms> gpus = ByGpu(TwoGpus());
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].gpu, 0);
  EXPECT_EQ(SmSentence(gpus[0]),
            "GPU 0: 2 SMs gave verdicts, 3,729,617 to 3,750,150 blocks each; SMs that called blocks wrong: SM 2 (2).");
  EXPECT_EQ(SmSentence(gpus[1]), "GPU 1: 1 SM gave verdicts, 5 to 5 blocks each; SMs that called blocks wrong: none.");
}

// One cell per SM up to the highest, SM 1 grey for no verdict, SM 2 red.
TEST(SmVerdictsViewTest, TheStripHasACellPerSmAndMarksTheOnesThatDisagreed) {
  const std::string svg = SmStripSvg(ByGpu(TwoGpus())[0]);
  EXPECT_THAT(svg, HasSubstr("width=\"18\""));
  EXPECT_THAT(svg, HasSubstr("<rect class=\"o-agree\" x=\"0\""));
  EXPECT_THAT(svg, HasSubstr("<rect class=\"o-notrun\" x=\"6\""));
  EXPECT_THAT(svg, HasSubstr("<rect class=\"o-finding\" x=\"12\""));
  EXPECT_THAT(svg, HasSubstr("<title>GPU 0 SM 2: 3,750,150 blocks, 2 called wrong</title>"));
}

}  // namespace
}  // namespace matload
