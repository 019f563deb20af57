#include "harness/runs/soak_rounds.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(SoakRoundsTest, RoundsReadBackAsWritten) {
  const std::vector<SoakRound> rounds = {{.index = 0,
                                          .seed = 18185588071367600234u,
                                          .variants = 1000000,
                                          .seconds = 43.7,
                                          .executions = 493138720,
                                          .judged_on_device = 493017806,
                                          .findings = 0},
                                         {.index = 1,
                                          .seed = 2,
                                          .variants = 10000000,
                                          .seconds = 13.6,
                                          .executions = 5,
                                          .judged_on_device = 4,
                                          .findings = 1}};
  absl::StatusOr<std::vector<SoakRound>> read = ParseSoakRounds(SoakRoundsJson(rounds));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, rounds);
}

// Rounds stored before each round had a size of its own read back with 0
// variants: they ran the soak's --round_variants.
TEST(SoakRoundsTest, RoundsStoredWithoutVariantsReadBack) {
  absl::StatusOr<std::vector<SoakRound>> read = ParseSoakRounds(nlohmann::json::parse(
      R"([{"round": 0, "seed": 7, "seconds": 4.5, "executions": 9, "judged_on_device": 8, "findings": 0}])"));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].seed, 7u);
  EXPECT_EQ((*read)[0].variants, 0);
}

TEST(SoakRoundsTest, AnythingElseIsDataLoss) {
  for (const char* text : {R"({"round": 0})", R"([{"round": 0}])", R"([{"round": "zero", "seed": 1, "seconds": 1,
       "executions": 1, "judged_on_device": 1, "findings": 0}])"}) {
    EXPECT_EQ(ParseSoakRounds(nlohmann::json::parse(text)).status().code(), absl::StatusCode::kDataLoss) << text;
  }
}

}  // namespace
}  // namespace matload
