#include "harness/runs/verdict_cache.h"

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

constexpr char kPtxas[] = "ptxas 13.0.88@0123456789abcdef";

class VerdictCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::path(testing::TempDir()) /
             absl::StrCat("verdict_cache_", testing::UnitTest::GetInstance()->current_test_info()->name(), ".sqlite"))
                .string();
    std::filesystem::remove(path_);
  }

  // Opened is a cache on this test's database.
  std::unique_ptr<VerdictCache> Opened() const {
    absl::StatusOr<std::unique_ptr<VerdictCache>> cache = VerdictCache::Open(path_);
    EXPECT_TRUE(cache.ok()) << cache.status();
    return cache.ok() ? *std::move(cache) : nullptr;
  }

  // Found is what `cache` finds, "(none)" for nothing.
  static std::string Found(VerdictCache& cache, absl::string_view toolchain, absl::string_view question) {
    absl::StatusOr<std::optional<std::string>> answer = cache.Find(toolchain, question);
    EXPECT_TRUE(answer.ok()) << answer.status();
    return answer.ok() && answer->has_value() ? **answer : "(none)";
  }

  // Tamper runs `sql` on the database as another program would.
  void Tamper(const char* sql) const {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    EXPECT_EQ(sqlite3_changes(db), 1);
    sqlite3_close(db);
  }

  std::string path_;
};

TEST_F(VerdictCacheTest, KeepsAnswersByToolchainAndQuestionAcrossOpens) {
  {
    std::unique_ptr<VerdictCache> cache = Opened();
    ASSERT_TRUE(cache->Keep(kPtxas, {{"sm_90\nmodule a", "accepted"}, {"sm_90\nmodule b", "rejected"}}).ok());
    EXPECT_EQ(cache->kept(), 2u);
  }
  std::unique_ptr<VerdictCache> cache = Opened();
  EXPECT_EQ(Found(*cache, kPtxas, "sm_90\nmodule a"), "accepted");
  EXPECT_EQ(Found(*cache, kPtxas, "sm_90\nmodule b"), "rejected");
  EXPECT_EQ(Found(*cache, kPtxas, "sm_90\nmodule c"), "(none)");
  EXPECT_EQ(Found(*cache, "ptxas 13.0.88@fedcba9876543210", "sm_90\nmodule a"), "(none)") << "another binary";
  EXPECT_EQ(cache->found(), 2u);
}

TEST_F(VerdictCacheTest, AnAnswerKeptAgainReplacesTheOld) {
  std::unique_ptr<VerdictCache> cache = Opened();
  ASSERT_TRUE(cache->Keep(kPtxas, {{"q", "old"}}).ok());
  ASSERT_TRUE(cache->Keep(kPtxas, {{"q", "new"}}).ok());
  EXPECT_EQ(Found(*cache, kPtxas, "q"), "new");
}

// A row changed by anything but VerdictCache no longer matches its seal:
// it is not used, whatever was changed.
TEST_F(VerdictCacheTest, ARowThatDoesNotMatchItsSealIsNotUsed) {
  for (const char* tamper : {"UPDATE verdicts SET answer = 'accepted'", "UPDATE verdicts SET seal = 'x'",
                             "UPDATE verdicts SET toolchain = 'nvJitLink 13.0@0123456789abcdef'"}) {
    std::filesystem::remove(path_);
    std::unique_ptr<VerdictCache> cache = Opened();
    ASSERT_TRUE(cache->Keep(kPtxas, {{"q", "rejected"}}).ok());
    Tamper(tamper);
    EXPECT_EQ(Found(*cache, kPtxas, "q"), "(none)") << tamper;
    EXPECT_EQ(Found(*cache, "nvJitLink 13.0@0123456789abcdef", "q"), "(none)") << tamper;
    EXPECT_EQ(cache->found(), 0u);
  }
}

// The question is known by the digest of its full text: one byte apart is
// another question.
TEST_F(VerdictCacheTest, QuestionsOneByteApartAreDifferent) {
  std::unique_ptr<VerdictCache> cache = Opened();
  ASSERT_TRUE(cache->Keep(kPtxas, {{"ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];", "accepted"}}).ok());
  EXPECT_EQ(Found(*cache, kPtxas, "ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr] ;"), "(none)");
}

TEST_F(VerdictCacheTest, ThreadsKeepAndFindAtOnce) {
  std::unique_ptr<VerdictCache> cache = Opened();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 50; ++i) {
        const std::string question = absl::StrCat(t, "/", i);
        EXPECT_TRUE(cache->Keep(kPtxas, {{question, question}}).ok());
        EXPECT_EQ(Found(*cache, kPtxas, question), question);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(cache->kept(), 200u);
  EXPECT_EQ(cache->found(), 200u);
}

// A results store made before the cache existed gains its table, and keeps its runs.
TEST_F(VerdictCacheTest, AnOlderStoreGainsTheTableAndKeepsItsRuns) {
  {
    absl::StatusOr<ResultsStore> store = ResultsStore::Open(path_);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE(store->CreateRun({.id = "support-1", .command = "support"}).ok());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE verdicts", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  std::unique_ptr<VerdictCache> cache = Opened();
  ASSERT_TRUE(cache->Keep(kPtxas, {{"q", "a"}}).ok());
  EXPECT_EQ(Found(*cache, kPtxas, "q"), "a");
  EXPECT_TRUE(ResultsStore::Open(path_)->FindRun("support-1").ok());
}

TEST_F(VerdictCacheTest, AFileThatIsNotAResultsStoreIsRefused) {
  std::ofstream(path_) << "not a database";
  EXPECT_EQ(VerdictCache::Open(path_).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace matload
