// Reference-model speed: lane-registers predicted per second, per family,
// side by side in one run on one core. The model's layouts are compiled once
// per form (as a GPU run uses them); each iteration is one execution.
#include "benchmark/benchmark.h"
#include "families/ldmatrix/ldmatrix_semantics.h"
#include "families/tcgen05/tcgen05_semantics.h"
#include "families/wmma/wmma_semantics.h"
#include "reference/test_support.h"

namespace matload {
namespace {

CheckedInstruction Check(absl::string_view text, absl::string_view target) {
  return *testing::JudgeAt(text, target).checked();
}

// Counts lane-registers (32 lanes x destination registers) per execution.
void Count(benchmark::State& state, const Outcome& outcome) {
  const auto& values = std::get<LaneValues>(outcome);
  state.counters["lane_registers/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * values.words.size() * 32 / values.register_bits,
      benchmark::Counter::kIsRate);
}

void BM_LdmatrixX4(benchmark::State& state) {
  const CheckedInstruction instruction = Check("ldmatrix.sync.aligned.m8n8.x4.trans.b16 {a, b, c, d}, [p];", "sm_90");
  const LdmatrixLayout layout = LdmatrixLayout::For(instruction);
  MemoryImage memory;
  memory.shared.assign(4096, 7);
  std::vector<std::uint64_t> offsets(32);
  for (int lane = 0; lane < 32; ++lane) offsets[lane] = 16 * lane;
  const LdmatrixAddresses rows = LdmatrixRowAddresses(instruction, memory, offsets);
  Outcome outcome;
  for (auto _ : state) benchmark::DoNotOptimize(outcome = ExecuteLdmatrix(instruction, layout, memory, rows));
  Count(state, outcome);
}
BENCHMARK(BM_LdmatrixX4);

// WmmaLoad runs one wmma.load form at its default stride from .global.
void WmmaLoad(benchmark::State& state, absl::string_view text) {
  const CheckedInstruction instruction = Check(text, "sm_90");
  const WmmaFragment fragment = *WmmaFragment::For(instruction);
  MemoryImage memory;
  memory.global.assign(4096, 7);
  Outcome outcome;
  for (auto _ : state) {
    benchmark::DoNotOptimize(outcome = ExecuteWmmaLoad(instruction, fragment, memory, {{memory.global_base}, std::nullopt}));
  }
  Count(state, outcome);
}

void BM_WmmaAF16(benchmark::State& state) {
  WmmaLoad(state, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];");
}
BENCHMARK(BM_WmmaAF16);

// Sub-byte elements take the bit-extracting path.
void BM_WmmaAU4(benchmark::State& state) {
  WmmaLoad(state, "wmma.load.a.sync.aligned.row.m8n8k32.global.u4 {r0}, [p];");
}
BENCHMARK(BM_WmmaAU4);

// 64-bit registers: two words per register.
void BM_WmmaCF64(benchmark::State& state) {
  WmmaLoad(state, "wmma.load.c.sync.aligned.col.m8n8k4.global.f64 {d0, d1}, [p];");
}
BENCHMARK(BM_WmmaCF64);

void BM_Tcgen05_32x32bX16(benchmark::State& state) {
  const CheckedInstruction instruction = Check(
      "tcgen05.ld.sync.aligned.32x32b.x16.b32 {r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,r12,r13,r14,r15}, [taddr];",
      "sm_100a");
  const Tcgen05Layout layout = Tcgen05Layout::For(instruction);
  const TensorMemory tmem;
  Outcome outcome;
  for (auto _ : state) benchmark::DoNotOptimize(outcome = ExecuteTcgen05Ld(instruction, layout, tmem, 0, 0));
  Count(state, outcome);
}
BENCHMARK(BM_Tcgen05_32x32bX16);

}  // namespace
}  // namespace matload

BENCHMARK_MAIN();
