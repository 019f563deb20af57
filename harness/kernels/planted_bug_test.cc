#include "harness/kernels/planted_bug.h"

#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(PlantedBugTest, NamesRoundTrip) {
  EXPECT_EQ(*ParsePlantedBug("none"), PlantedBug::kNone);
  for (PlantedBug bug : AllPlantedBugs()) EXPECT_EQ(*ParsePlantedBug(PlantedBugName(bug)), bug);
  EXPECT_EQ(AllPlantedBugs().size(), 6u);
  EXPECT_EQ(*ParsePlantedBug("hang"), PlantedBug::kHangingBlock);
}

TEST(PlantedBugTest, UnknownNamesListTheChoices) {
  absl::StatusOr<PlantedBug> bad = ParsePlantedBug("wrong-row");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("off-by-one-row"), std::string::npos);
}

}  // namespace
}  // namespace matload
