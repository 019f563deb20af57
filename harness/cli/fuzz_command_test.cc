#include "harness/cli/fuzz_command.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(FuzzCommandTest, ReadsAForkModeStatusLine) {
  // As libFuzzer (clang 14) prints it in -fork mode.
  const std::optional<FuzzerStatus> status = ParseFuzzerStatus(
      "#187: cov: 9922 ft: 8829 corp: 61 exec/s 39 oom/timeout/crash: 0/0/2 time: 15s job: 3 dft_time: 0");
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, (FuzzerStatus{.runs = 187,
                                   .coverage = 9922,
                                   .features = 8829,
                                   .corpus = 61,
                                   .exec_per_second = 39,
                                   .crashes = 2,
                                   .seconds = 15}));
}

TEST(FuzzCommandTest, OtherLinesAreNotStatus) {
  for (const char* line : {"", "INFO: Seed: 1", "#187 NEW cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb",
                           "#x: cov: 1 ft: 1 corp: 1 exec/s 1 oom/timeout/crash: 0/0/0 time: 1s",
                           "#5: cov: 1 ft: 1 corp: 1 exec/s 1 time: 1s", "  NEW_FUNC: 0x1 in main"}) {
    EXPECT_FALSE(ParseFuzzerStatus(line).has_value()) << line;
  }
}

FuzzCampaignOptions Options(std::vector<std::string> targets) {
  return {.targets = std::move(targets),
          .seconds = 1,
          .jobs = 1,
          .gpus = "",
          .seed = 1,
          .out = ::testing::TempDir() + "/fuzz_command_test",
          .fuzzer_dirs = {"/nonexistent-matload-fuzzers"},
          .source_dir = "."};
}

TEST(FuzzCommandTest, AnUnknownTargetIsABadOption) {
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(Options({"legality", "parser"}), out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("unknown target 'parser'"));
}

TEST(FuzzCommandTest, AMissingFuzzerSaysHowToBuildIt) {
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(Options({"reference"}), out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("no reference_fuzzer in /nonexistent-matload-fuzzers"));
  EXPECT_THAT(err.str(), HasSubstr("cmake --preset fuzz"));
}

TEST(FuzzCommandTest, TheCliTargetIsKnown) {
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(Options({"cli"}), out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("no cli_fuzzer in /nonexistent-matload-fuzzers"));
}

TEST(FuzzCommandTest, AnOutThatIsAFileIsABadOptionNamingIt) {
  const std::filesystem::path fuzzers = std::filesystem::path(::testing::TempDir()) / "fuzz_command_test_fuzzers";
  std::filesystem::create_directories(fuzzers);
  std::ofstream(fuzzers / "text_fuzzer") << "never run";
  FuzzCampaignOptions options = Options({"text"});
  options.fuzzer_dirs = {fuzzers.string()};
  options.out = (fuzzers / "text_fuzzer").string();
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(options, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr(absl::StrCat("cannot create directory ", options.out, ": Not a directory")));
}

TEST(FuzzCommandTest, NonPositiveTimeIsABadOption) {
  FuzzCampaignOptions options = Options({"text"});
  options.seconds = 0;
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(options, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--seconds and --jobs must be positive"));
}

// A target whose fuzzer ran no input (here one that exits at once; in CI,
// one whose start-up took the whole campaign on a loaded machine) judged
// nothing: the campaign is an infrastructure outcome, never clean.
TEST(FuzzCommandTest, ATargetThatRanNoInputIsNeverClean) {
  const std::filesystem::path root = std::filesystem::path(::testing::TempDir()) / "fuzz_command_test_idle";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "fuzzers");
  const std::filesystem::path fuzzer = root / "fuzzers" / "text_fuzzer";
  std::ofstream(fuzzer) << "#!/bin/sh\nexit 0\n";
  std::filesystem::permissions(fuzzer, std::filesystem::perms::owner_all);
  FuzzCampaignOptions options = Options({"text"});
  options.fuzzer_dirs = {(root / "fuzzers").string()};
  options.out = (root / "run").string();
  options.seconds = 1;
  std::ostringstream out, err;
  EXPECT_EQ(RunFuzzCampaign(options, out, err), 4);
  EXPECT_THAT(err.str(), HasSubstr("no input ran on text in 1 s"));
}

}  // namespace
}  // namespace matload
