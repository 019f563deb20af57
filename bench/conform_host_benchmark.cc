// The host side of `matload conform`, per checked execution, side by side in
// one run on one core: generating a variant, predicting it (the window's
// data, then the model) and judging a block's output bit for bit. The GPU
// runs thousands of variants per launch, so this host work bounds the
// end-to-end checked executions per second (reports/conform/).
#include "benchmark/benchmark.h"
#include "harness/case_judge.h"
#include "harness/test_program.h"

namespace matload {
namespace {

std::unique_ptr<TestProgram> Ldmatrix() {
  return *TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, {9, 0}, {});
}
std::unique_ptr<TestProgram> Wmma() {
  return *TestProgram::ForOpcode("wmma.load.a.sync.aligned.row.m16n16k16.global.f16", Target{90}, {9, 0}, {});
}

// Variants: generating 256 variants (ldmatrix's generator checks each with
// the model), per variant.
void Variants(benchmark::State& state, const TestProgram& program) {
  std::uint64_t seed = 1;
  for (auto _ : state) benchmark::DoNotOptimize(program.Variants(256, seed++, false));
  state.SetItemsProcessed(state.iterations() * 256);
}

// Expect: the model's prediction of one variant, data generation included.
void Expect(benchmark::State& state, const TestProgram& program) {
  const std::vector<Variant> variants = program.Variants(256, 1, false);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(program.Expect(variants[i++ % variants.size()]));
  state.SetItemsProcessed(state.iterations());
}

// Judge: one block's output compared word for word with the prediction.
void Judge(benchmark::State& state, const TestProgram& program) {
  const Outcome expected = program.Expect(program.Variants(2, 1, false)[1]);
  const std::vector<std::uint8_t> output = ExpectedBytes(std::get<LaneValues>(expected));
  for (auto _ : state) benchmark::DoNotOptimize(JudgeOutput(expected, output));
  state.SetItemsProcessed(state.iterations());
}

void BM_LdmatrixVariants(benchmark::State& state) { Variants(state, *Ldmatrix()); }
void BM_LdmatrixExpect(benchmark::State& state) { Expect(state, *Ldmatrix()); }
void BM_LdmatrixJudge(benchmark::State& state) { Judge(state, *Ldmatrix()); }
void BM_WmmaVariants(benchmark::State& state) { Variants(state, *Wmma()); }
void BM_WmmaExpect(benchmark::State& state) { Expect(state, *Wmma()); }
void BM_WmmaJudge(benchmark::State& state) { Judge(state, *Wmma()); }
BENCHMARK(BM_LdmatrixVariants);
BENCHMARK(BM_LdmatrixExpect);
BENCHMARK(BM_LdmatrixJudge);
BENCHMARK(BM_WmmaVariants);
BENCHMARK(BM_WmmaExpect);
BENCHMARK(BM_WmmaJudge);

}  // namespace
}  // namespace matload

BENCHMARK_MAIN();
