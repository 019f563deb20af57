// worker_start_benchmark: what a worker's start costs, alone and when many
// start at once, on one GPU and spread over every GPU of the host.
//
// matload conform starts a worker process (harness/gpu/isolated_runner.h)
// for every chunk of items on every slot, and one more after every fault;
// each worker loads the driver and takes its device's primary context
// (DriverJit::Open) before it runs anything. Issue 16's two-GPU runs showed
// a limit that every process of the host shares
// (reports/bench/multi-gpu-h100x2-2026-11-26/). This measures whether
// workers' starts are that limit: `workers` workers start at once, each in
// a RunIsolated call of its own as conform's slots are, on GPU 0 or dealt
// round-robin over every GPU, and the wall time until the last has its
// context is the benchmark's time (manual time). If starts run side by
// side, the time stays near one start's as `workers` grows; if the host
// serialises them, it grows in proportion.
//
// Without a GPU it says "needs a GPU: ..." on stderr and exits with status
// 3, as matload does (harness/platform/exit_status.h).
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/platform/exit_status.h"

namespace matload {
namespace {

constexpr std::chrono::seconds kStartLimit{120};

// StartWorker is one worker's start, as conform's: the driver loaded and
// initialised, and the device's primary context taken through the JIT.
absl::StatusOr<std::string> StartWorker(int ordinal) {
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) return driver.status();
  absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, ordinal);
  if (!jit.ok()) return jit.status();
  return std::string("started");
}

// StartAtOnce starts `workers` workers at once, worker i on GPU
// ordinals[i % ordinals.size()], and returns the seconds until every one
// has started, or -1 if one failed.
double StartAtOnce(int workers, const std::vector<int>& ordinals) {
  std::vector<std::thread> threads;
  std::vector<int> failed(workers, 0);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < workers; ++i) {
    threads.emplace_back([i, &ordinals, &failed] {
      const int ordinal = ordinals[i % ordinals.size()];
      auto results = RunIsolated(1, [ordinal](int) { return StartWorker(ordinal); }, kStartLimit);
      failed[i] = !results.ok() || (*results)[0].kind != ItemResult::Kind::kDone;
    });
  }
  for (std::thread& thread : threads) thread.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int f : failed) {
    if (f) return -1;
  }
  return seconds;
}

// BM_WorkerStarts: state.range(0) workers at once; state.range(1) is 1 for
// GPU 0 only, 0 for every GPU.
void BM_WorkerStarts(benchmark::State& state, std::vector<int> gpus) {
  const int workers = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const double seconds = StartAtOnce(workers, gpus);
    if (seconds < 0) {
      state.SkipWithError("a worker failed to start");
      return;
    }
    state.SetIterationTime(seconds);
  }
  state.counters["workers"] = workers;
  state.counters["gpus"] = static_cast<double>(gpus.size());
  state.counters["seconds_per_start"] =
      benchmark::Counter(static_cast<double>(workers), benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

}  // namespace
}  // namespace matload

int main(int argc, char** argv) {
  // The parent never initialises CUDA (isolated_runner.h): it counts the
  // GPUs in a worker of its own.
  int gpus = 0;
  auto counted = matload::RunIsolated(
      1,
      [](int) -> absl::StatusOr<std::string> {
        absl::StatusOr<std::shared_ptr<matload::CudaDriver>> driver = matload::CudaDriver::Open();
        if (!driver.ok()) return driver.status();
        return absl::StrCat((*driver)->devices().size());
      },
      std::chrono::seconds(60));
  if (!counted.ok() || (*counted)[0].kind != matload::ItemResult::Kind::kDone ||
      !absl::SimpleAtoi((*counted)[0].output, &gpus) || gpus == 0) {
    std::fprintf(stderr, "needs a GPU: %s\n",
                 counted.ok() ? (*counted)[0].output.c_str() : counted.status().ToString().c_str());
    return matload::kExitCompileOnly;
  }
  std::vector<int> every_gpu;
  for (int i = 0; i < gpus; ++i) every_gpu.push_back(i);
  for (const auto& [name, ordinals] :
       {std::pair<std::string, std::vector<int>>{"one_gpu", {0}}, {"every_gpu", every_gpu}}) {
    benchmark::RegisterBenchmark(absl::StrCat("BM_WorkerStarts/", name).c_str(), matload::BM_WorkerStarts,
                                 ordinals)
        ->Arg(1)
        ->Arg(8)
        ->Arg(16)
        ->Arg(32)
        ->UseManualTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
