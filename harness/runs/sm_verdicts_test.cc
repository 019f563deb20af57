#include "harness/runs/sm_verdicts.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(SmVerdictsTest, RoundTripAndAdd) {
  SmVerdicts verdicts;
  verdicts[{0, 131}] = {.blocks = 10, .disagreed = 1};
  verdicts[{1, 0}] = {.blocks = 4};
  absl::StatusOr<SmVerdicts> read = ParseSmVerdicts(SmVerdictsJson(verdicts));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, verdicts);
  EXPECT_EQ(SmVerdictsJson(verdicts)[0]["sm"], 131);
  AddSmVerdicts(verdicts, *read);
  EXPECT_EQ(read->at({0, 131}), (SmCounts{.blocks = 20, .disagreed = 2}));
}

TEST(SmVerdictsTest, WhatDoesNotReadBackIsDataLoss) {
  for (const char* text :
       {R"({"gpu": 0})", R"([{"gpu": 0, "sm": 1}])", R"([{"gpu": 0, "sm": -1, "blocks": 1, "disagreed": 0}])",
        R"([{"gpu": 0, "sm": 1, "blocks": 1, "disagreed": 2}])"}) {
    EXPECT_EQ(ParseSmVerdicts(nlohmann::json::parse(text)).status().code(), absl::StatusCode::kDataLoss) << text;
  }
  EXPECT_TRUE(ParseSmVerdicts(nlohmann::json::array()).ok());
}

}  // namespace
}  // namespace matload
