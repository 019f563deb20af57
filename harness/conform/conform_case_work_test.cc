#include "harness/conform/conform_case_work.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace matload {
namespace {

// The registry is asked once per fault case text a thread meets, whatever
// the variants that spell it, and each thread keeps answers of its own.
TEST(FaultTextMemoTest, AsksOncePerTextAndThread) {
  const std::unique_ptr<TestProgram> program =
      *TestProgram::ForOpcode("wmma.load.a.sync.aligned.row.m16n16k16.global.f16", Target{90}, {9, 0}, {});
  FaultTextMemo memo(2);
  std::set<std::string> texts;
  int asked = 0;
  const auto registry = [&](const std::string& text) {
    ++asked;
    return "answer for " + text;
  };
  for (int thread = 0; thread < 2; ++thread) {
    for (int round = 0; round < 2; ++round) {
      for (const Variant& variant : program->Variants(200, 3, true)) {
        const std::string text = program->FaultCaseText(variant);
        texts.insert(text);
        EXPECT_EQ(memo.Find(thread, *program, variant, registry), "answer for " + text);
      }
    }
  }
  EXPECT_GT(texts.size(), 1u);
  EXPECT_LT(texts.size(), 200u);
  EXPECT_EQ(asked, 2 * static_cast<int>(texts.size()));
}

}  // namespace
}  // namespace matload
