// Verdicts per second: one ptxas module per instruction against the batch
// checker over ptxas and over nvJitLink (in process), side by side on the
// same forms in one run.
#include <random>

#include "benchmark/benchmark.h"
#include "harness/batch_checker.h"
#include "harness/nvjitlink.h"
#include "harness/ptxas.h"
#include "reference/enumerate.h"

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
    auto verdicts = CheckSnippets(ThePtxas(), {forms[next++ % forms.size()]}, {9, 0}, Target{90});
    if (!verdicts.ok()) state.SkipWithError(std::string(verdicts.status().message()).c_str());
  }
  state.counters["verdicts_per_second"] = benchmark::Counter(state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OneModulePerInstruction)->Unit(benchmark::kMillisecond)->MinTime(5.0)->UseRealTime();

// BM_BatchChecker/jobs: the batch checker with `jobs` ptxas runs at once.
void BM_BatchChecker(benchmark::State& state) {
  const std::vector<Snippet>& forms = Forms();
  for (auto _ : state) {
    auto verdicts = CheckSnippets(ThePtxas(), forms, {9, 0}, Target{90}, static_cast<int>(state.range(0)));
    if (!verdicts.ok()) state.SkipWithError(std::string(verdicts.status().message()).c_str());
  }
  state.counters["verdicts_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations() * forms.size()), benchmark::Counter::kIsRate);
  state.counters["forms"] = static_cast<double>(forms.size());
}
// BM_BatchCheckerNvJitLink: the same batches through libnvJitLink in
// process: no process to start and no file to write per run.
void BM_BatchCheckerNvJitLink(benchmark::State& state) {
  static const absl::StatusOr<std::unique_ptr<NvJitLink>>* const kNvJitLink =
      new absl::StatusOr<std::unique_ptr<NvJitLink>>(NvJitLink::Open());
  if (!kNvJitLink->ok()) {
    state.SkipWithError(std::string(kNvJitLink->status().message()).c_str());
    return;
  }
  const std::vector<Snippet>& forms = Forms();
  for (auto _ : state) {
    auto verdicts = CheckSnippets(***kNvJitLink, forms, {9, 0}, Target{90});
    if (!verdicts.ok()) state.SkipWithError(std::string(verdicts.status().message()).c_str());
  }
  state.counters["verdicts_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations() * forms.size()), benchmark::Counter::kIsRate);
  state.counters["forms"] = static_cast<double>(forms.size());
}
BENCHMARK(BM_BatchCheckerNvJitLink)->Unit(benchmark::kMillisecond)->MinTime(5.0)->UseRealTime();

BENCHMARK(BM_BatchChecker)->ArgName("jobs")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(5.0)->UseRealTime();

}  // namespace
}  // namespace matload

BENCHMARK_MAIN();
