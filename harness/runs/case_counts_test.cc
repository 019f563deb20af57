#include "harness/runs/case_counts.h"

#include "gtest/gtest.h"
#include "harness/runs/case_outcome.h"

namespace matload {
namespace {

TEST(CaseCountsTest, OutcomeCountsAreSpelledInTheirWordsOrder) {
  const CaseRecord record{.counts = {{CaseOutcome::kPass, 14}, {CaseOutcome::kKnownFault, 2}}};
  EXPECT_EQ(CountsText(record, ", "), "known_fault=2, pass=14");
  EXPECT_EQ(CountsText(record, ","), "known_fault=2,pass=14");
  EXPECT_EQ(CountsText(CaseRecord{}, ", "), "");
}

// The words are those stores have always held, written out here by hand.
TEST(CaseCountsTest, ACampaignsFiguresKeepTheirStoredWords) {
  const CaseRecord record{
      .campaign = CampaignFigures{.runs = 100000, .findings = 1, .crashes = 0, .coverage = 512, .corpus = 80}};
  const std::map<std::string, std::int64_t> expected = {
      {"corpus", 80}, {"coverage", 512}, {"crashes", 0}, {"findings", 1}, {"runs", 100000}};
  EXPECT_EQ(CountWords(record), expected);
  EXPECT_EQ(CountsText(record, ", "), "corpus=80, coverage=512, crashes=0, findings=1, runs=100000");
}

TEST(CaseCountsTest, WhatCountWordsWritesReadsBack) {
  const CaseRecord counted{.counts = {{CaseOutcome::kPass, 14}, {CaseOutcome::kFlake, 1}}};
  const CaseRecord campaign{.campaign = CampaignFigures{.runs = 7, .coverage = 3}};
  for (const CaseRecord& written : {counted, campaign, CaseRecord{}}) {
    CaseRecord read;
    ASSERT_TRUE(ReadCountWords(CountWords(written), read).ok());
    EXPECT_EQ(read.counts, written.counts);
    EXPECT_EQ(read.campaign, written.campaign);
  }
}

TEST(CaseCountsTest, NoFiguresWordIsAnOutcomesWord) {
  const CaseRecord campaign{.campaign = CampaignFigures{}};
  for (const auto& [word, count] : CountWords(campaign)) {
    EXPECT_FALSE(ParseCaseOutcome(word).ok()) << word << " would read back as an outcome";
  }
}

TEST(CaseCountsTest, AWordNoMatloadWritesIsDataLoss) {
  CaseRecord read;
  EXPECT_EQ(ReadCountWords({{"pass", 1}, {"passed", 2}}, read).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ReadCountWords({{"unjudged", 1}}, read).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ReadCountWords({{"runs", 1}, {"pass", 2}}, read).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(read.counts, OutcomeCounts{});
  EXPECT_FALSE(read.campaign.has_value());
}

}  // namespace
}  // namespace matload
