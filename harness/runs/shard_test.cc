#include "harness/runs/shard.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

TEST(ShardTest, ParsesIndexOfCount) {
  EXPECT_EQ(*ParseShard("0/1"), (Shard{.index = 0, .count = 1}));
  EXPECT_EQ(*ParseShard("3/4"), (Shard{.index = 3, .count = 4}));
  EXPECT_EQ(ParseShard("3/4")->Name(), "3/4");
}

TEST(ShardTest, RefusesWhatIsNotAShardSayingWhy) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"3/2", "shard 3 of 2 does not exist (the last is 1/2)"},
      {"2/2", "shard 2 of 2 does not exist"},
      {"-1/4", "is not a shard: write I/N"},
      {"1/0", "the shard count must be from 1 to 100000"},
      {"0/100001", "the shard count must be from 1 to 100000"},
      {"junk", "is not a shard"},
      {"", "is not a shard"},
      {"1/", "is not a shard"},
      {"/4", "is not a shard"},
      {"+1/4", "is not a shard"},
      {" 1/4", "is not a shard"},
      {"1/4/5", "is not a shard"},
      {"99999999999/4", "is not a shard"}};
  for (const auto& [text, message] : bad) {
    absl::StatusOr<Shard> shard = ParseShard(text);
    ASSERT_FALSE(shard.ok()) << text;
    EXPECT_EQ(shard.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(shard.status().message(), HasSubstr(message)) << text;
  }
}

TEST(ShardTest, IsAFlagType) {
  Shard shard;
  std::string error;
  EXPECT_TRUE(AbslParseFlag("1/3", &shard, &error));
  EXPECT_EQ(AbslUnparseFlag(shard), "1/3");
  EXPECT_FALSE(AbslParseFlag("3/3", &shard, &error));
  EXPECT_THAT(error, HasSubstr("shard 3 of 3 does not exist"));
}

TEST(ShardTest, ShardsTakeEveryKeyExactlyOnce) {
  for (int count = 1; count <= 7; ++count) {
    for (int key = 0; key < 200; ++key) {
      int takers = 0;
      for (int index = 0; index < count; ++index) takers += Shard{index, count}.Takes(absl::StrCat("sm_", key)) ? 1 : 0;
      EXPECT_EQ(takers, 1) << "key sm_" << key << " in " << count << " shards";
    }
  }
}

TEST(ShardTest, TheSliceIsFnv1aModuloTheCount) {
  // Shards made by different builds must agree: the hash is pinned.
  // FNV-1a("sm_90") = 0x8eff87e7, which is 1 modulo 3.
  EXPECT_TRUE((Shard{1, 3}.Takes("sm_90")));
  EXPECT_FALSE((Shard{0, 3}.Takes("sm_90")));
  EXPECT_TRUE((Shard{0, 1}.Takes("anything")));
}

TEST(ShardTest, ParentIsNamedOrDerivedFromTheOptions) {
  EXPECT_EQ(*ShardParent("support", "nightly-2026-05-01", "{}"), "support-nightly-2026-05-01");
  EXPECT_EQ(*ShardParent("conform", "slurm4242", "{}"), "conform-slurm4242");
  const std::string derived = *ShardParent("support", "", R"({"targets":["sm_90"]})");
  EXPECT_THAT(derived, testing::MatchesRegex("support-options-[0-9a-f]{8}"));
  EXPECT_EQ(*ShardParent("support", "", R"({"targets":["sm_90"]})"), derived);
  EXPECT_NE(*ShardParent("support", "", R"({"targets":["sm_80"]})"), derived);
  EXPECT_NE(ShardParent("fuzz", "", R"({"targets":["sm_90"]})")->substr(5), derived.substr(8));
  absl::StatusOr<std::string> bad = ShardParent("support", "a b/c", "{}");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("only letters, digits"));
}

}  // namespace
}  // namespace matload
