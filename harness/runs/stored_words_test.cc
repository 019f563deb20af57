#include "harness/runs/stored_words.h"

#include "gtest/gtest.h"
#include "harness/runs/run_journal.h"

namespace matload {
namespace {

TEST(StoredWordsTest, EveryStatusARunEndsWithIsOne) {
  for (const int exit_status : {0, 1, 2, 3, 4, 129, 130, 143}) {
    EXPECT_TRUE(IsRunStatusWord(RunStatusWord(exit_status))) << exit_status;
    EXPECT_TRUE(IsRunExitStatus(exit_status)) << exit_status;
  }
  EXPECT_TRUE(IsRunStatusWord("running"));
  EXPECT_TRUE(IsRunExitStatus(-1));
}

TEST(StoredWordsTest, AFlippedByteIsNoWord) {
  for (const char* word : {"clexn", "runnin", ""}) EXPECT_FALSE(IsRunStatusWord(word)) << word;
  for (const int exit_status : {-2, 5, 77, 128, 200}) EXPECT_FALSE(IsRunExitStatus(exit_status)) << exit_status;
}

}  // namespace
}  // namespace matload
