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
// serialises them, it grows in proportion. Each count runs four ways:
// workers that see every GPU or only their own (CUDA_VISIBLE_DEVICES),
// with no other process holding the GPUs or with a holder keeping every
// GPU's context open meanwhile (HoldEveryGpu).
//
// With --hold_seconds=N it only holds every GPU for N seconds, so that
// another program's workers (conform's) can be timed with the GPUs held.
//
// Without a GPU it says "needs a GPU: ..." on stderr and exits with status
// 3, as matload does (harness/platform/exit_status.h).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "benchmark/benchmark.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/start_gate.h"
#include "harness/platform/exit_status.h"

namespace matload {
namespace {

constexpr std::chrono::seconds kStartLimit{120};

// StartWorker is one worker's start, as conform's: the driver loaded and
// initialised, and the device's primary context taken through the JIT.
// With `own_gpu_only` the worker shows the driver its own GPU alone
// (CUDA_VISIBLE_DEVICES), so that cuInit sets up one GPU, not all.
absl::StatusOr<std::string> StartWorker(int ordinal, bool own_gpu_only) {
  if (own_gpu_only) {
    setenv("CUDA_VISIBLE_DEVICES", absl::StrCat(ordinal).c_str(), 1);
    ordinal = 0;
  }
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  if (!driver.ok()) return driver.status();
  absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, ordinal);
  if (!jit.ok()) return jit.status();
  return std::string("started");
}

// StartAtOnce starts `workers` workers at once, worker i on GPU
// ordinals[i % ordinals.size()], and returns the seconds until every one
// has started, or -1 if one failed. Its gate admits them all at once, so
// that what it measures is the driver's, not matload's WorkerStartGate.
double StartAtOnce(int workers, const std::vector<int>& ordinals, bool own_gpu_only) {
  std::vector<std::thread> threads;
  std::vector<int> failed(workers, 0);
  StartGate all_at_once(workers);
  Watchdog watchdog(kStartLimit, /*calibrate=*/false);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < workers; ++i) {
    threads.emplace_back([i, &ordinals, &failed, &all_at_once, &watchdog, own_gpu_only] {
      const int ordinal = ordinals[i % ordinals.size()];
      auto results = RunIsolated(
          1, [ordinal, own_gpu_only](int) { return StartWorker(ordinal, own_gpu_only); }, watchdog, {}, all_at_once);
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

// Release ends a holder's child (HoldEveryGpu).
void Release(pid_t holder) {
  kill(holder, SIGKILL);
  waitpid(holder, nullptr, 0);
}

// HoldEveryGpu forks a child that opens every GPU's primary context and
// keeps it until killed, and returns its pid once it has, or -1. While
// no process holds a GPU, the driver may tear its state down and set it
// up again at the next open (nvidia-persistenced exists to prevent that);
// a holder shows what a worker's start costs when that never happens.
pid_t HoldEveryGpu(int gpus) {
  int ready[2];
  if (pipe(ready) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    std::vector<std::unique_ptr<DriverJit>> held;
    for (int ordinal = 0; driver.ok() && ordinal < gpus; ++ordinal) {
      absl::StatusOr<std::unique_ptr<DriverJit>> jit = DriverJit::Open(*driver, ordinal);
      if (!jit.ok()) _exit(1);
      held.push_back(*std::move(jit));
    }
    const char byte = driver.ok() ? 'y' : 'n';
    if (write(ready[1], &byte, 1) != 1) _exit(1);
    for (;;) pause();
  }
  close(ready[1]);
  char byte = 'n';
  const bool held = pid > 0 && read(ready[0], &byte, 1) == 1 && byte == 'y';
  close(ready[0]);
  if (!held && pid > 0) Release(pid);
  return held ? pid : -1;
}

// StartCondition is one way of starting the workers: which GPUs they are
// dealt over, whether each sees only its own, and whether a holder keeps
// every GPU open meanwhile.
struct StartCondition {
  std::vector<int> ordinals;
  bool own_gpu_only = false;
  bool held = false;
  int gpus = 0;  // every GPU of the host, for the holder
};

// BM_WorkerStarts: state.range(0) workers at once, under `condition`.
void BM_WorkerStarts(benchmark::State& state, const StartCondition& condition) {
  const int workers = static_cast<int>(state.range(0));
  const pid_t holder = condition.held ? HoldEveryGpu(condition.gpus) : 0;
  if (holder < 0) {
    state.SkipWithError("the holder could not open every GPU");
    return;
  }
  for (auto _ : state) {
    const double seconds = StartAtOnce(workers, condition.ordinals, condition.own_gpu_only);
    if (seconds < 0) {
      state.SkipWithError("a worker failed to start");
      break;
    }
    state.SetIterationTime(seconds);
  }
  if (holder > 0) Release(holder);
  state.counters["workers"] = workers;
  state.counters["gpus"] = static_cast<double>(condition.ordinals.size());
  state.counters["seconds_per_start"] = benchmark::Counter(
      static_cast<double>(workers), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// HoldFor holds every GPU for `seconds` (--hold_seconds), so that another
// program's workers, conform's say, can be timed with the GPUs held.
int HoldFor(int gpus, int seconds) {
  const pid_t holder = HoldEveryGpu(gpus);
  if (holder < 0) {
    std::fprintf(stderr, "the holder could not open every GPU\n");
    return kExitInfrastructure;
  }
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  Release(holder);
  return 0;
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
  if (absl::string_view flag = argc == 2 ? argv[1] : ""; absl::ConsumePrefix(&flag, "--hold_seconds=")) {
    int seconds = 0;
    if (!absl::SimpleAtoi(flag, &seconds) || seconds < 1) {
      std::fprintf(stderr, "--hold_seconds takes a positive number of seconds\n");
      return matload::kExitUsage;
    }
    return matload::HoldFor(gpus, seconds);
  }
  std::vector<int> every_gpu;
  for (int i = 0; i < gpus; ++i) every_gpu.push_back(i);
  for (const bool held : {false, true}) {
    for (const bool own_gpu_only : {false, true}) {
      for (const auto& [name, ordinals] :
           {std::pair<std::string, std::vector<int>>{"one_gpu", {0}}, {"every_gpu", every_gpu}}) {
        const matload::StartCondition condition{
            .ordinals = ordinals, .own_gpu_only = own_gpu_only, .held = held, .gpus = gpus};
        benchmark::RegisterBenchmark(
            absl::StrCat("BM_WorkerStarts/", name, own_gpu_only ? "/own_gpu_only" : "", held ? "/held" : "").c_str(),
            matload::BM_WorkerStarts, condition)
            ->Arg(1)
            ->Arg(8)
            ->Arg(32)
            ->UseManualTime()
            ->Iterations(2)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
