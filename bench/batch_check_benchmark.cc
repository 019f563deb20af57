// Verdicts per second: one ptxas module per instruction against the batch
// checker over ptxas and over nvJitLink (in process), with one or two runs at
// once, with and without the model's predictions, side by side on the same
// forms in one run. Each iteration is timed by hand around the work
// (manual time: ptxas runs in processes of its own, which neither the CPU
// timer nor the loop's bookkeeping should decide), and the figures are
// counters, so --benchmark_format=json carries them.
#include <chrono>
#include <random>

#include "benchmark/benchmark.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/nvjitlink.h"
#include "harness/platform/seconds_since.h"
#include "reference/enumerate.h"
#include "reference/legality.h"

namespace matload {
namespace {

// Forms returns every legal and near-miss form for sm_90 at PTX 9.0, shuffled
// with a fixed seed, so both benchmarks judge the same mix.
const std::vector<Snippet>& Forms() {
  static const auto* const kForms = [] {
    auto* forms = new std::vector<Snippet>();
    const Target target{90};
    for (const Form& form : LegalForms({9, 0}, target)) forms->push_back({StandardRegisterFile(), ToRaw(form)});
    for (RawInstruction& raw : NearMissInstructions({9, 0}, target)) forms->push_back({StandardRegisterFile(), raw});
    std::shuffle(forms->begin(), forms->end(), std::mt19937(1));
    return forms;
  }();
  return *kForms;
}

const Ptxas& ThePtxas() {
  static const Ptxas* const kPtxas = new Ptxas(*Ptxas::Open(Ptxas::DefaultPath()));
  return *kPtxas;
}

void BM_OneModulePerInstruction(benchmark::State& state) {
  const std::vector<Snippet>& forms = Forms();
  size_t next = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto verdicts = CheckSnippets(ThePtxas(), {forms[next++ % forms.size()]}, {9, 0}, Target{90});
    state.SetIterationTime(SecondsSince(start));
    if (!verdicts.ok()) state.SkipWithError(std::string(verdicts.status().message()).c_str());
  }
  state.counters["verdicts_per_second"] = benchmark::Counter(state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OneModulePerInstruction)->Unit(benchmark::kMillisecond)->MinTime(5.0)->UseManualTime();

// Oracle is the compiler a benchmark row names: 0 for ptxas (a process per
// run), 1 for libnvJitLink in process (no process to start, no file to
// write). nullptr when the library is not there.
const CompileOracle* Oracle(int64_t which) {
  static const absl::StatusOr<std::unique_ptr<NvJitLink>>* const kNvJitLink =
      new absl::StatusOr<std::unique_ptr<NvJitLink>>(NvJitLink::Open());
  if (which == 0) return &ThePtxas();
  return kNvJitLink->ok() ? kNvJitLink->value().get() : nullptr;
}

// BM_BatchChecker/nvjitlink/jobs/predicted: the batch checker over one
// compiler, with `jobs` runs at once, and with or without the model's verdict
// as each snippet's predicted_legal. The model is asked inside the timed loop.
void BM_BatchChecker(benchmark::State& state) {
  const CompileOracle* compiler = Oracle(state.range(0));
  if (compiler == nullptr) {
    state.SkipWithError("libnvJitLink did not open");
    return;
  }
  const std::vector<Snippet>& forms = Forms();
  size_t compiler_runs = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    BatchReport report;
    BatchOptions options{.jobs = static_cast<int>(state.range(1)), .report = &report};
    if (state.range(2) != 0) {
      for (const Snippet& form : forms) options.predicted_legal.push_back(Judge(form, {9, 0}, Target{90}).legal());
    }
    auto verdicts = CheckSnippets(*compiler, forms, {9, 0}, Target{90}, options);
    state.SetIterationTime(SecondsSince(start));
    if (!verdicts.ok()) state.SkipWithError(std::string(verdicts.status().message()).c_str());
    compiler_runs += report.runs;
  }
  state.counters["verdicts_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations() * forms.size()), benchmark::Counter::kIsRate);
  state.counters["forms"] = static_cast<double>(forms.size());
  state.counters["compiler_runs"] =
      benchmark::Counter(static_cast<double>(compiler_runs), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_BatchChecker)
    ->ArgNames({"nvjitlink", "jobs", "predicted"})
    ->ArgsProduct({{0, 1}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(5.0)
    ->UseManualTime();

}  // namespace
}  // namespace matload

BENCHMARK_MAIN();
