// The host side of `matload conform`, per checked execution, side by side in
// one run on one core: generating a variant, predicting it (the window's
// data, then the model), judging a block's output bit for bit, and all of
// it together (Checked). The GPU
// runs thousands of variants per launch, so this host work bounds the
// end-to-end checked executions per second (reports/conform/).
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "harness/conform/conform_plan.h"
#include "harness/families/test_program.h"
#include "harness/judge/case_judge.h"

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

// Checked: everything the host does for one checked execution, as
// gpu_throughput's threads do it: make the variant, write its record,
// predict it and judge its block of a launch's output (here the model's
// own bytes, so every block passes, as on a conforming GPU).
void Checked(benchmark::State& state, const TestProgram& program) {
  constexpr int kBatch = 1024;
  std::vector<std::uint8_t> outputs;
  for (const Variant& variant : program.Variants(kBatch, 1, false)) {
    const std::vector<std::uint8_t> bytes = ExpectedBytes(std::get<LaneValues>(program.Expect(variant)));
    outputs.insert(outputs.end(), bytes.begin(), bytes.end());
  }
  const size_t block_bytes = program.frame().output_bytes;
  std::vector<std::uint8_t> records(kBatch * program.frame().record_bytes);
  int index = 0;
  for (auto _ : state) {
    const Variant variant = program.MakeVariant(1, index, false);
    program.WriteRecord(variant, absl::MakeSpan(records).subspan(index * program.frame().record_bytes,
                                                                 program.frame().record_bytes));
    const CaseVerdict verdict =
        JudgeOutput(program.Expect(variant), absl::MakeConstSpan(outputs).subspan(index * block_bytes, block_bytes));
    if (verdict.kind != CaseClass::kPass) state.SkipWithError("a block of the model's own bytes failed");
    index = (index + 1) % kBatch;
  }
  state.SetItemsProcessed(state.iterations());
}

// EveryFormChecked: Checked's steps, plus the fault case text a conform
// worker asks the registry about (conform_case_work.h), for every legal
// sm_90 form the nightly run plans, taking the forms in turn, a few dozen
// variants each as a worker's batch does, so that the item cost is the
// nightly run's mix: about 97% of its forms are wmma.load's.
void BM_EveryFormChecked(benchmark::State& state) {
  constexpr int kVariantsPerForm = 32;  // each form's first variants, taken in turn
  // The nightly run's plan on an H100 through the JIT of CUDA 13.0 (PTX 9.0).
  const absl::StatusOr<ConformPlan> plan =
      PlanConformance({}, Target{90}, {{CompilePath::kDriverJit, {9, 0}, "the driver JIT"}});
  if (!plan.ok()) return state.SkipWithError(std::string(plan.status().message()).c_str());
  // outputs[form][i] is what a conforming GPU gives for variant i: the model's bytes.
  std::vector<std::vector<std::vector<std::uint8_t>>> outputs;
  std::vector<std::vector<std::uint8_t>> records;
  for (const PlannedProgram& planned : plan->programs) {
    const TestProgram* program = planned.program.get();
    records.emplace_back(program->frame().record_bytes);
    outputs.emplace_back();
    for (const Variant& variant : program->Variants(kVariantsPerForm, 1, false)) {
      const Outcome expected = program->Expect(variant);
      const auto* values = std::get_if<LaneValues>(&expected);
      outputs.back().push_back(values != nullptr ? ExpectedBytes(*values) : std::vector<std::uint8_t>());
    }
  }
  size_t form = 0;
  int index = 0;
  for (auto _ : state) {
    const TestProgram& program = *plan->programs[form].program;
    const Variant variant = program.MakeVariant(1, index, false);
    program.WriteRecord(variant, absl::MakeSpan(records[form]));
    benchmark::DoNotOptimize(program.FaultCaseText(variant));
    const Outcome expected = program.Expect(variant);
    if (std::holds_alternative<LaneValues>(expected) &&
        JudgeOutput(expected, outputs[form][index]).kind != CaseClass::kPass) {
      state.SkipWithError("a block of the model's own bytes failed");
    }
    if (++index == kVariantsPerForm) index = 0, form = (form + 1) % plan->programs.size();
  }
  state.SetItemsProcessed(state.iterations());
}

// EveryFormSweepSetup: what a worker does on the host for a swept item
// before its first launch (conform_case_work.cc's RunSwept), for every
// legal sm_90 form with a sweep in turn: the sweep kernel's PTX text and
// the fault class texts it asks the registry about. A night at 10^8 runs
// one item a form, so this is paid 546 times a night, spread over workers.
void BM_EveryFormSweepSetup(benchmark::State& state) {
  const absl::StatusOr<ConformPlan> plan =
      PlanConformance({}, Target{90}, {{CompilePath::kDriverJit, {9, 0}, "the driver JIT"}});
  if (!plan.ok()) return state.SkipWithError(std::string(plan.status().message()).c_str());
  std::vector<const TestProgram*> swept;
  for (const PlannedProgram& planned : plan->programs) {
    if (planned.device_judged != nullptr && planned.device_judged->SweepKernel().has_value())
      swept.push_back(planned.device_judged.get());
  }
  if (swept.empty()) return state.SkipWithError("no form has a sweep kernel");
  size_t form = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(swept[form]->SweepKernel());
    benchmark::DoNotOptimize(swept[form]->FaultClassTexts());
    form = (form + 1) % swept.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(absl::StrCat(swept.size(), " forms"));
}

void BM_LdmatrixVariants(benchmark::State& state) { Variants(state, *Ldmatrix()); }
void BM_LdmatrixExpect(benchmark::State& state) { Expect(state, *Ldmatrix()); }
void BM_LdmatrixJudge(benchmark::State& state) { Judge(state, *Ldmatrix()); }
void BM_WmmaVariants(benchmark::State& state) { Variants(state, *Wmma()); }
void BM_WmmaExpect(benchmark::State& state) { Expect(state, *Wmma()); }
void BM_WmmaJudge(benchmark::State& state) { Judge(state, *Wmma()); }
void BM_LdmatrixChecked(benchmark::State& state) { Checked(state, *Ldmatrix()); }
void BM_WmmaChecked(benchmark::State& state) { Checked(state, *Wmma()); }
BENCHMARK(BM_LdmatrixVariants);
BENCHMARK(BM_LdmatrixExpect);
BENCHMARK(BM_LdmatrixJudge);
BENCHMARK(BM_WmmaVariants);
BENCHMARK(BM_WmmaExpect);
BENCHMARK(BM_WmmaJudge);
BENCHMARK(BM_LdmatrixChecked);
BENCHMARK(BM_WmmaChecked);
BENCHMARK(BM_EveryFormChecked);
BENCHMARK(BM_EveryFormSweepSetup);

}  // namespace
}  // namespace matload

BENCHMARK_MAIN();
