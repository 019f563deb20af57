#include "harness/runs/case_filter.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

std::string WriteList(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CaseFilterTest, DefaultSelectsEverything) {
  const CaseFilter filter;
  EXPECT_TRUE(filter.SelectsAll());
  EXPECT_TRUE(filter.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
}

TEST(CaseFilterTest, IncludeGlobsMatchAcrossDots) {
  const CaseFilter filter = *CaseFilter::Make("", {"wmma_load.*.driver_jit"}, {});
  EXPECT_FALSE(filter.SelectsAll());
  EXPECT_TRUE(filter.Selects("wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32.driver_jit"));
  EXPECT_FALSE(filter.Selects("wmma_load.a.sync.aligned.row.m16n16k16.shared.f16.addr32.ptxas_cubin"));
  EXPECT_FALSE(filter.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
}

TEST(CaseFilterTest, ExcludeDropsFromWhatIsTaken) {
  const CaseFilter filter = *CaseFilter::Make("", {"ldmatrix.*"}, {"*.trans.*"});
  EXPECT_TRUE(filter.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
  EXPECT_FALSE(filter.Selects("ldmatrix.sync.aligned.m8n8.x1.trans.b16.addr64.driver_jit"));
  const CaseFilter exclude_only = *CaseFilter::Make("", {}, {"*.undefined"});
  EXPECT_FALSE(exclude_only.SelectsAll());
  EXPECT_TRUE(exclude_only.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
  EXPECT_FALSE(exclude_only.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit.undefined"));
}

TEST(CaseFilterTest, CaseListTakesIdsAndGlobsAndSkipsComments) {
  const std::string path = WriteList("cases.txt",
                                     "# tonight's list\n"
                                     "\n"
                                     "  ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit  \n"
                                     "tcgen05_ld.*\n");
  const CaseFilter filter = *CaseFilter::Make(path, {"wmma_load.b.*"}, {});
  EXPECT_TRUE(filter.Selects("ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit"));
  EXPECT_FALSE(filter.Selects("ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit"));
  EXPECT_TRUE(filter.Selects("tcgen05_ld.sync.aligned.32x32b.x1.b32.taddr"));
  EXPECT_TRUE(filter.Selects("wmma_load.b.sync.aligned.col.m16n16k16.f16.addr64"));
}

TEST(CaseFilterTest, AShardKeepsItsSliceOfWhatTheGlobsTake) {
  const std::vector<std::string> ids = {"ldmatrix.sync.aligned.m8n8.x1.b16.addr64.driver_jit",
                                        "ldmatrix.sync.aligned.m8n8.x2.b16.addr64.driver_jit",
                                        "ldmatrix.sync.aligned.m8n8.x4.b16.addr64.driver_jit",
                                        "wmma_load.b.sync.aligned.col.m16n16k16.f16.addr64.driver_jit"};
  std::vector<int> takers(ids.size(), 0);
  for (int index = 0; index < 3; ++index) {
    CaseFilter filter = *CaseFilter::Make("", {"ldmatrix.*"}, {});
    filter.KeepShard({.index = index, .count = 3});
    EXPECT_FALSE(filter.SelectsAll());
    for (size_t i = 0; i < ids.size(); ++i) {
      EXPECT_EQ(filter.Selects(ids[i]), ids[i].starts_with("ldmatrix.") && (Shard{index, 3}.Takes(ids[i]))) << ids[i];
      takers[i] += filter.Selects(ids[i]) ? 1 : 0;
    }
  }
  EXPECT_EQ(takers, (std::vector<int>{1, 1, 1, 0}));
  CaseFilter one_of_one;
  one_of_one.KeepShard({.index = 0, .count = 1});
  EXPECT_TRUE(one_of_one.SelectsAll());
}

TEST(CaseFilterTest, BadInputIsNamed) {
  const absl::StatusOr<CaseFilter> spaced = CaseFilter::Make(WriteList("bad.txt", "ok.case\nnot a case\n"), {}, {});
  EXPECT_EQ(spaced.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(spaced.status().message(), HasSubstr("line 2"));
  EXPECT_EQ(CaseFilter::Make("", {"a/b"}, {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CaseFilter::Make("", {}, {""}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CaseFilter::Make(WriteList("empty.txt", "# nothing\n"), {}, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CaseFilter::Make("/nonexistent/cases.txt", {}, {}).status().code(), absl::StatusCode::kFailedPrecondition);
  // A directory (it threw) and a FIFO (it waited for a writer) are no case list.
  EXPECT_EQ(CaseFilter::Make(::testing::TempDir(), {}, {}).status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string fifo = ::testing::TempDir() + "/case_filter_test_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const absl::Status piped = CaseFilter::Make(fifo, {}, {}).status();
  EXPECT_EQ(piped.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(piped.message(), HasSubstr("--cases: " + fifo + " is a FIFO"));
}

}  // namespace
}  // namespace matload
