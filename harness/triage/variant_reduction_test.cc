#include "harness/triage/variant_reduction.h"

#include <variant>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

using ::testing::Contains;
using ::testing::Field;

constexpr char kFault[] = "unexpected fault/misaligned address (716)";

class VariantReductionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = *TestProgram::ForOpcode("wmma.load.a.sync.aligned.row.m16n16k16.shared.s8", *ParseTarget("sm_90"),
                                       *ParsePtxVersion("9.0"), {.shared_address_bits = 32});
    // A variant whose p and stride both differ from variant 0's.
    for (int index = 1; index < 64 && !found_; ++index) {
      const Variant variant = program_->MakeVariant(11, index, false);
      const Variant simplest = program_->MakeVariant(11, 0, false);
      if (variant.operands.address % 128 != 0 && variant.operands.stride != simplest.operands.stride) {
        variant_ = variant;
        found_ = true;
      }
    }
    ASSERT_TRUE(found_);
  }

  // Reduce reduces variant_ on a GPU stand-in that fails, 3 runs of 3,
  // exactly where `fails` says, and counts what it ran.
  Reduction Reduce(const std::function<bool(const Variant&)>& fails) {
    absl::StatusOr<Reduction> reduction =
        ReduceVariant(*program_, 11, variant_, kFault, [&](const Variant& variant) -> absl::StatusOr<ReplayTally> {
          ++runs_;
          EXPECT_TRUE(std::holds_alternative<LaneValues>(program_->Expect(variant))) << "only defined candidates run";
          return ReplayTally{{{fails(variant) ? kFault : "pass", 3}}, 3};
        });
    EXPECT_TRUE(reduction.ok()) << reduction.status();
    return *reduction;
  }

  std::unique_ptr<TestProgram> program_;
  Variant variant_;
  bool found_ = false;
  int runs_ = 0;
};

TEST_F(VariantReductionTest, AFailureOfEveryInputReducesToVariantZero) {
  const Reduction reduction = Reduce([](const Variant&) { return true; });
  const Variant simplest = program_->MakeVariant(11, 0, false);
  EXPECT_EQ(reduction.variant.operands, simplest.operands);
  EXPECT_EQ(reduction.variant.pattern, DataPattern::kTagged);
  EXPECT_TRUE(reduction.steps.front().kept);
}

TEST_F(VariantReductionTest, KeepsWhatTheFailureNeedsAndSimplifiesTheRest) {
  // A stand-in for the LDSM fault: it fails while the stride is the original's.
  const std::uint32_t stride = variant_.operands.stride;
  const Reduction reduction = Reduce([&](const Variant& variant) { return variant.operands.stride == stride; });
  EXPECT_EQ(reduction.variant.operands.stride, stride);
  EXPECT_EQ(reduction.variant.pattern, DataPattern::kTagged);
  EXPECT_EQ(reduction.variant.operands.address, program_->MakeVariant(11, 0, false).operands.address);
  EXPECT_THAT(reduction.steps, Contains(Field(&ReductionStep::outcome, "does not reproduce (0 of 3 runs fail so)")));
}

TEST_F(VariantReductionTest, AFlakyCandidateIsNotKept) {
  absl::StatusOr<Reduction> reduction =
      ReduceVariant(*program_, 11, variant_, kFault, [](const Variant&) -> absl::StatusOr<ReplayTally> {
        return ReplayTally{{{kFault, 2}, {"pass", 1}}, 3};
      });
  ASSERT_TRUE(reduction.ok());
  EXPECT_EQ(reduction->variant.operands, variant_.operands);
  for (const ReductionStep& step : reduction->steps) EXPECT_FALSE(step.kept) << step.change;
}

TEST_F(VariantReductionTest, AFailureToRunEndsTheReduction) {
  absl::StatusOr<Reduction> reduction =
      ReduceVariant(*program_, 11, variant_, kFault,
                    [](const Variant&) -> absl::StatusOr<ReplayTally> { return absl::UnavailableError("GPU lost"); });
  EXPECT_EQ(reduction.status().code(), absl::StatusCode::kUnavailable);
}

// For ldmatrix, whose lanes each give a row address, the reduction hands
// back every lane's address but those the failure needs, group by group.
TEST(VariantReductionLanesTest, KeepsOnlyTheLanesWhoseAddressesTheFailureNeeds) {
  const std::unique_ptr<TestProgram> program = *TestProgram::ForOpcode(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16", *ParseTarget("sm_90"), *ParsePtxVersion("9.0"), {});
  const Variant simplest = program->MakeVariant(11, 0, false);
  std::vector<int> differing;
  Variant variant;
  for (int index = 1; index < 256 && differing.size() < 8; ++index) {
    variant = program->MakeVariant(11, index, false);
    differing.clear();
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if (variant.operands.lane_addresses[lane] != simplest.operands.lane_addresses[lane]) differing.push_back(lane);
    }
  }
  ASSERT_GE(differing.size(), 8u) << "no variant scatters its rows";
  const int first = differing.front();
  const int last = differing.back();
  // A stand-in failure that needs lanes `first` and `last` to keep their rows.
  const auto fails = [&](const Variant& candidate) {
    return candidate.operands.lane_addresses[first] == variant.operands.lane_addresses[first] &&
           candidate.operands.lane_addresses[last] == variant.operands.lane_addresses[last];
  };
  int runs = 0;
  absl::StatusOr<Reduction> reduction =
      ReduceVariant(*program, 11, variant, kFault, [&](const Variant& candidate) -> absl::StatusOr<ReplayTally> {
        ++runs;
        return ReplayTally{{{fails(candidate) ? kFault : "pass", 3}}, 3};
      });
  ASSERT_TRUE(reduction.ok()) << reduction.status();
  EXPECT_THAT(reduction->lanes_needed, ::testing::ElementsAre(first, last));
  EXPECT_LE(runs, 2 * kWarpLanes) << "halves down to single lanes, each tried at most once";
}

}  // namespace
}  // namespace matload
