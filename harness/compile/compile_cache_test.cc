#include "harness/compile/compile_cache.h"

#include "gtest/gtest.h"
#include "harness/compile/ptxas.h"

namespace matload {
namespace {

constexpr absl::string_view kModule = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k() { ret; }\n";
constexpr absl::string_view kBroken = ".version 9.0\n.target sm_90\n.address_size 64\n.entry k() { bogus; }\n";

TEST(CompileCacheTest, AnswersARepeatedQuestionWithoutCompiling) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const CompileCache cache(std::make_unique<Ptxas>(*ptxas), 16);
  EXPECT_EQ(cache.Tool(), "ptxas");
  EXPECT_EQ(cache.Version(), ptxas->Version());

  absl::StatusOr<AssembleResult> first = cache.Assemble(kBroken, Target{90});
  absl::StatusOr<AssembleResult> second = cache.Assemble(kBroken, Target{90});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_FALSE(first->accepted);
  EXPECT_EQ(second->accepted, first->accepted);
  ASSERT_EQ(second->diagnostics.size(), first->diagnostics.size());
  EXPECT_EQ(second->diagnostics[0].message, first->diagnostics[0].message);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 1u);

  // Another target or another text is another question.
  ASSERT_TRUE(cache.Assemble(kBroken, Target{80}).ok());
  absl::StatusOr<AssembleResult> clean = cache.Assemble(kModule, Target{90});
  ASSERT_TRUE(clean.ok());
  EXPECT_TRUE(clean->accepted);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 3u);
}

TEST(CompileCacheTest, SupportsIsTheCompilersAnswer) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const CompileCache cache(std::make_unique<Ptxas>(*ptxas), 16);
  for (int round = 0; round < 2; ++round) {
    for (const TargetInfo& info : AllTargets()) {
      EXPECT_EQ(cache.Supports(info.target), ptxas->Supports(info.target)) << info.target.Name();
    }
  }
  EXPECT_TRUE(cache.Supports(Target{90}));
}

TEST(CompileCacheTest, ForgetsEverythingWhenFull) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  const CompileCache cache(std::make_unique<Ptxas>(*ptxas), 1);
  ASSERT_TRUE(cache.Assemble(kModule, Target{90}).ok());
  ASSERT_TRUE(cache.Assemble(kBroken, Target{90}).ok());
  ASSERT_TRUE(cache.Assemble(kModule, Target{90}).ok());
  EXPECT_EQ(cache.hits(), 0u);
  EXPECT_EQ(cache.misses(), 3u);
}

}  // namespace
}  // namespace matload
