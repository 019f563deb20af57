#include "harness/judge/case_summary.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

CaseVerdict Mismatch(std::string detail) { return {.kind = CaseClass::kMismatch, .detail = std::move(detail)}; }

TEST(CaseSummaryTest, KeepsTheLowestFailingIndicesWhateverTheOrder) {
  CaseSummary summary;
  const std::vector<std::uint8_t> output = {1, 2, 3};
  for (std::int64_t index : {9, 4, 7, 1, 8}) summary.Add(index, Mismatch("m"), true, 32, "sig", output, 0, 3);
  summary.Add(2, {.kind = CaseClass::kPass}, true, 32, "", {}, 0, 3);
  EXPECT_EQ(summary.first_failures, (std::vector<std::int64_t>{1, 4, 7}));
  EXPECT_EQ(summary.classes.at(CaseClass::kMismatch), 5u);
  EXPECT_EQ(summary.judged(), 6u);
  EXPECT_EQ(summary.executions, 6u);
  EXPECT_EQ(summary.words_compared, 192u);
  ASSERT_EQ(summary.samples.size(), 1u);
  EXPECT_EQ(summary.samples.at("sig").index, 1);
  EXPECT_EQ(summary.samples.at("sig").count, 5u);
  EXPECT_EQ(summary.Worst(), CaseClass::kMismatch);
}

// Two threads' summaries merge into what one thread would have counted.
TEST(CaseSummaryTest, MergingPartsEqualsCountingTheWhole) {
  CaseSummary whole, even, odd;
  for (std::int64_t index = 0; index < 40; ++index) {
    const CaseVerdict verdict = index % 3 == 0 ? Mismatch(absl::StrCat("at ", index)) : CaseVerdict{};
    const std::string signature = index % 3 == 0 ? (index % 2 == 0 ? "a" : "b") : "";
    const std::vector<std::uint8_t> output = {static_cast<std::uint8_t>(index)};
    whole.Add(index, verdict, true, 8, signature, output, 0, 4);
    (index % 2 == 0 ? even : odd).Add(index, verdict, true, 8, signature, output, 0, 4);
  }
  CaseSummary merged;
  merged.Merge(odd, 4);
  merged.Merge(even, 4);
  EXPECT_EQ(merged.Encode(), whole.Encode());
  EXPECT_EQ(merged.first_failures, (std::vector<std::int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(merged.samples.at("b").index, 3);
  EXPECT_EQ(merged.samples.at("b").output, std::vector<std::uint8_t>{3});
}

TEST(CaseSummaryTest, LeftOutVariantsAndNotesMerge) {
  CaseSummary first, second;
  first.undefined = 3;
  first.predicted["entry"] = {.count = 2, .first = 11};
  second.predicted["entry"] = {.count = 5, .first = 4};
  second.AddUnrun(CaseClass::kKnownFault, 6, 5, "entry: not run");
  first.Merge(second, 16);
  EXPECT_EQ(first.undefined, 3u);
  EXPECT_EQ(first.predicted.at("entry").count, 7u);
  EXPECT_EQ(first.predicted.at("entry").first, 4);
  EXPECT_EQ(first.classes.at(CaseClass::kKnownFault), 6u);
  EXPECT_EQ(first.note, "entry: not run");
  EXPECT_EQ(first.executions, 0u);
}

TEST(CaseSummaryTest, AWorkersSecondsAddUpAndTravel) {
  CaseSummary first, second;
  first.seconds = {.items = 2,
                   .pipeline = 1.5,
                   .launching = 1,
                   .judging = 0.5,
                   .generating = 0.25,
                   .starting = 0.5,
                   .loading = 0.25};
  second.seconds = {.items = 4, .pipeline = 3, .launching = 2.5, .judging = 1, .generating = 0.5, .loading = 0.5};
  first.Merge(second, 16);
  const absl::StatusOr<CaseSummary> decoded = CaseSummary::Decode(first.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->seconds.items, 6);
  EXPECT_EQ(decoded->seconds.pipeline, 4.5);
  EXPECT_EQ(decoded->seconds.launching, 3.5);
  EXPECT_EQ(decoded->seconds.judging, 1.5);
  EXPECT_EQ(decoded->seconds.generating, 0.75);
  EXPECT_EQ(decoded->seconds.starting, 0.5);
  EXPECT_EQ(decoded->seconds.loading, 0.75);
}

// A run's totals recorded before a worker's start and its module loads were
// timed (2026-11-29) list five seconds; they read back with those two as 0.
TEST(CaseSummaryTest, SecondsListedBeforeStartsAndLoadsWereTimedReadBack) {
  const WorkerSeconds seconds = WorkerSeconds::FromList(nlohmann::json::array({4, 3, 2.5, 1, 0.5}));
  EXPECT_EQ(seconds.items, 4);
  EXPECT_EQ(seconds.generating, 0.5);
  EXPECT_EQ(seconds.starting, 0);
  EXPECT_EQ(seconds.loading, 0);
}
// Variants the GPU judged alone are passes that ran, each with its words,
// and they merge as every other count does.
TEST(CaseSummaryTest, VariantsJudgedOnTheDeviceArePassesThatRan) {
  CaseSummary host, device;
  host.Add(0, Mismatch("m"), true, 64, "sig", std::vector<std::uint8_t>{1}, 0, 4);
  device.AddJudgedOnDevice(1000, 64);
  device.AddJudgedOnDevice(0, 64);
  EXPECT_EQ(device.classes.at(CaseClass::kPass), 1000u);
  EXPECT_EQ(device.executions, 1000u);
  EXPECT_EQ(device.words_compared, 64000u);
  device.AddSmCounts(0, std::vector<SmCounts>{{.blocks = 1000}, {.blocks = 1, .disagreed = 1}});
  host.AddSmCounts(0, std::vector<SmCounts>{{.blocks = 2}});
  host.Merge(device, 4);
  EXPECT_EQ(host.per_sm.at({0, 0}), (SmCounts{.blocks = 1002}));
  EXPECT_EQ(host.per_sm.at({0, 1}), (SmCounts{.blocks = 1, .disagreed = 1}));
  EXPECT_EQ(host.judged(), 1001u);
  EXPECT_EQ(host.judged_on_device, 1000u);
  EXPECT_EQ(host.Worst(), CaseClass::kMismatch);
}

TEST(CaseSummaryTest, RoundTripsThroughItsEncoding) {
  CaseSummary summary;
  summary.Add(5, {.kind = CaseClass::kUnexpectedFault, .detail = "line one\nline two"}, false, 0, "fault-sig", {}, 1,
              16);
  summary.Add(6, Mismatch("m"), true, 64, "mismatch-sig", std::vector<std::uint8_t>{0, 255, 10}, 1, 16);
  summary.undefined = 2;
  summary.AddJudgedOnDevice(7, 32);
  summary.AddSmCounts(1, std::vector<SmCounts>{{}, {.blocks = 8, .disagreed = 1}});
  summary.predicted["e"] = {.count = 1, .first = 3};
  const absl::StatusOr<CaseSummary> decoded = CaseSummary::Decode(summary.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->Encode(), summary.Encode());
  EXPECT_EQ(decoded->samples.at("mismatch-sig").output, (std::vector<std::uint8_t>{0, 255, 10}));
  EXPECT_EQ(decoded->samples.at("fault-sig").detail, "line one\nline two");
  EXPECT_EQ(decoded->samples.at("fault-sig").device, 1);
  ASSERT_EQ(decoded->per_sm.size(), 1u);  // SM 0 ran nothing
  EXPECT_EQ(decoded->per_sm.at({1, 1}), (SmCounts{.blocks = 8, .disagreed = 1}));
}

TEST(CaseSummaryTest, ATextThatIsNotASummaryIsDataLoss) {
  EXPECT_EQ(CaseSummary::Decode("not json").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(CaseSummary::Decode("{}").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(
      CaseSummary::Decode(
          R"({"executions":1,"words":0,"judged_on_device":0,"per_sm":[],"first_failures":[],"note_index":-1,"note":"",)"
          R"("undefined":0,"seconds":[0,0,0,0,0],"classes":[],"predicted":{},"samples":[{"signature":"s","index":0,)"
          R"("kind":0,"detail":"","device":0,"count":1,"output":"!!"}]})")
          .status()
          .code(),
      absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace matload
