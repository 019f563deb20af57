// gpu_throughput: checked executions per second on one GPU host (issue 5's
// speed goal), measured as `matload conform` checks them: one warp, one
// load, every register of every lane compared bit for bit with the model.
// It reports through Google Benchmark: one benchmark per form (or one for
// --new_forms), timed manually by the workers' own clocks, its figures as
// counters, so --benchmark_format=json and the library's compare.py work;
// the device and settings are the report's context.
//
// Each form runs in a worker process (a fault costs that worker only) for
// --seconds, through the launch pipeline (harness/gpu/launch_pipeline.h): the
// worker keeps the module loaded, and while the GPU runs one batch of
// --blocks variants, the --threads host threads judge the last batch and
// make the next one in place. Every block of every timed launch is judged;
// the figure counts only judged blocks. With --judge gpu the kernel
// judges each block against the model's plan (harness/kernels/device_judge.h)
// and the host judges only the blocks that disagree and a sample; --judge
// both measures each form both ways, side by side in one run. Under the GPU
// judge a form with a sweep kernel is measured swept too (--sweep): its
// persistent blocks draw, run and judge variants on the device, and the
// host judges only what the device kept (harness/gpu/device_sweep_run.h).
//
// With --new_forms it measures instead how many forms not seen before it
// compiles (driver JIT), loads, runs and checks per second: every legal
// form of the device's target, --rounds times, one launch of
// --new_form_blocks variants each. --forms_per_module kernels share one
// module, so one JIT compile serves them; each round's modules are new
// texts, and the driver's disk cache is off, so every round compiles anew.
// The modules are dealt round-robin among --workers worker processes. It
// gives two rates: over the busiest worker's time once its CUDA context
// was up, and over the parent's wall clock, the workers' start-up included.
//
// Without a GPU it says "needs a GPU: ..." on stderr and exits with status
// 3, as matload does (harness/platform/exit_status.h): it never reports a figure it
// did not measure. A mismatch or a failed worker is exit status 1.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "benchmark/benchmark.h"
#include "harness/families/test_program.h"
#include "harness/gpu/device_sweep_run.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/kernel_set.h"
#include "harness/gpu/launch_pipeline.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/kernels/judge_place.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/seconds_since.h"
#include "reference/enumerate.h"

ABSL_FLAG(int, device, 0, "the CUDA device ordinal");
ABSL_FLAG(double, seconds, 10, "how long to run each form");
ABSL_FLAG(int, blocks, 65536, "variants (blocks) per launch");
ABSL_FLAG(int, threads, 0, "host threads that generate and judge (0: one per core)");
ABSL_FLAG(std::vector<std::string>, forms,
          std::vector<std::string>({"ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                                    "wmma.load.a.sync.aligned.row.m16n16k16.global.f16"}),
          "the forms to run, as opcodes");
ABSL_FLAG(std::uint64_t, seed, 20261122, "the seed of batch 0; batch k uses seed + k");
ABSL_FLAG(bool, pinned, true, "copy each launch's output back into page-locked host memory (else pageable)");
ABSL_FLAG(std::string, judge, "host",
          "who compares each block's registers with the model: host (the C++ model judges every block), gpu "
          "(the kernel judges against the model's plan, harness/kernels/device_judge.h, and the host judges the "
          "blocks that disagree and a sample), or both, each form measured both ways side by side");
ABSL_FLAG(bool, sweep, true,
          "under the GPU judge, also measure each form that has a sweep kernel (harness/kernels/device_sweep.h: "
          "variants drawn and judged on the device, many per block) through it");
ABSL_FLAG(int, sweep_blocks, 0,
          "blocks of a sweep launch (0: kSweepBlocksPerSm per SM, harness/kernels/device_sweep.h)");
ABSL_FLAG(std::uint64_t, sweep_variants, std::uint64_t{1} << 26, "variants per sweep launch");
ABSL_FLAG(int, sweep_min_blocks_per_sm, 0,
          "compile the sweep kernel for at least this many blocks per SM (.maxntid and .minnctapersm: ptxas keeps "
          "its registers within what that many blocks leave each thread, spilling the rest); 0: the kernel as "
          "matload writes it");
ABSL_FLAG(bool, new_forms, false, "measure new forms per second instead: every legal form once");
ABSL_FLAG(int, new_form_blocks, 64, "variants per new form");
ABSL_FLAG(int, workers, 1, "with --new_forms: worker processes sharing the forms (and the GPU)");
ABSL_FLAG(int, forms_per_module, 16, "with --new_forms: forms whose kernels share one module (one JIT compile)");
ABSL_FLAG(int, rounds, 10,
          "with --new_forms: how many times every form is compiled anew (each round's modules are texts the "
          "driver has not seen)");

namespace matload {
namespace {

using Clock = std::chrono::steady_clock;

// EncodeStats is what a worker reports through its pipe, as one line:
// launches (one per form with --new_forms), judged blocks, and the seconds
// in all and in each stage.
std::string EncodeStats(const PipelineStats& stats) {
  return absl::StrCat(stats.launches, " ", stats.checked, " ", stats.mismatched, " ", stats.seconds, " ",
                      stats.launching, " ", stats.judging, " ", stats.generating, " ", stats.judged_on_device);
}

// StatsOf is a worker's report, or why there is none: the worker failed,
// or it answered something EncodeStats did not write.
absl::StatusOr<PipelineStats> StatsOf(const ItemResult& result) {
  if (result.kind != ItemResult::Kind::kDone) {
    return absl::AbortedError(absl::StrCat(ItemKindName(result.kind), ": ", result.output));
  }
  const std::vector<std::string> fields = absl::StrSplit(result.output, ' ');
  PipelineStats stats;
  if (fields.size() != 8 || !absl::SimpleAtoi(fields[0], &stats.launches) ||
      !absl::SimpleAtoi(fields[1], &stats.checked) || !absl::SimpleAtoi(fields[2], &stats.mismatched) ||
      !absl::SimpleAtod(fields[3], &stats.seconds) || !absl::SimpleAtod(fields[4], &stats.launching) ||
      !absl::SimpleAtod(fields[5], &stats.judging) || !absl::SimpleAtod(fields[6], &stats.generating) ||
      !absl::SimpleAtoi(fields[7], &stats.judged_on_device)) {
    return absl::InternalError(absl::StrCat("the worker said '", result.output, "'"));
  }
  return stats;
}

// KeptVariants are those of variants 0..blocks-1 of `seed` that `keep`
// accepts, in order: the blocks of one launch. Each keeps its index, so it
// replays from (seed, index).
std::vector<Variant> KeptVariants(const TestProgram& program, int blocks, std::uint64_t seed,
                                  const std::function<bool(const Variant&)>& keep) {
  std::vector<Variant> kept;
  for (int index = 0; index < blocks; ++index) {
    const Variant variant = program.MakeVariant(seed, index, false);
    if (keep(variant)) kept.push_back(variant);
  }
  return kept;
}

// Measure runs in a worker: it runs `program` through the launch pipeline
// (harness/gpu/launch_pipeline.h) on the GPU and reports its stats. The output
// comes back into page-locked host memory where `pinned`, else into
// ordinary (pageable) memory.
absl::StatusOr<std::string> Measure(const TestProgram& program, int device, const PipelineOptions& options,
                                    bool pinned) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(device);
  if (!jit.ok()) return jit.status();
  std::vector<std::uint8_t> pageable[2];
  absl::StatusOr<PipelineStats> stats = RunPipeline(
      program, options,
      [&](int slot, absl::Span<const Variant> variants,
          absl::Span<const std::uint8_t> records) -> absl::StatusOr<absl::Span<const std::uint8_t>> {
        const DriverJit::KernelLaunch launch = KernelLaunchFor(program, variants.size(), records);
        absl::StatusOr<absl::Span<std::uint8_t>> output =
            pinned ? (*jit)->PinnedOutput(slot, launch.HostOutputBytes())
                   : (pageable[slot].resize(launch.HostOutputBytes()), absl::MakeSpan(pageable[slot]));
        if (!output.ok()) return output.status();
        if (absl::Status status = (*jit)->LaunchInto(program.kernel(), launch, *output); !status.ok()) return status;
        return *output;
      });
  if (!stats.ok()) return stats.status();
  return EncodeStats(*stats);
}

// WithMinBlocksPerSm is `kernel` compiled for --sweep_min_blocks_per_sm
// blocks of an SM: the performance directives after its parameter list.
std::string WithMinBlocksPerSm(std::string kernel) {
  const int blocks = absl::GetFlag(FLAGS_sweep_min_blocks_per_sm);
  const size_t body = kernel.find(")\n{\n");
  if (blocks <= 0 || body == std::string::npos) return kernel;
  kernel.insert(body + 2, absl::StrCat(".maxntid ", 32 * kSweepWarps, ", 1, 1\n.minnctapersm ", blocks, "\n"));
  return kernel;
}

// MeasureSweep runs in a worker: `program`'s sweep kernel (device_sweep.h)
// for `seconds`, seed after seed from --seed (a seed's variants end where
// MakeVariant's index does), with `threads` host threads judging what the
// device kept. It reports its stats as EncodeStats does: every variant the
// device judged is checked, and those the host judged too are the ones
// not judged on the device alone. A first launch, not timed, compiles and
// loads the module.
absl::StatusOr<std::string> MeasureSweep(const TestProgram& program, int device, double seconds, int threads) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(device);
  if (!jit.ok()) return jit.status();
  const int blocks = absl::GetFlag(FLAGS_sweep_blocks) > 0 ? absl::GetFlag(FLAGS_sweep_blocks)
                                                           : kSweepBlocksPerSm * (*jit)->device().multiprocessors;
  if (blocks == 0) return absl::FailedPreconditionError("the device reports no SMs to size a sweep's grid by");
  const SweepLaunch launch =
      DeviceSweepLaunch(**jit, program, WithMinBlocksPerSm(*program.SweepKernel()), static_cast<unsigned>(blocks));
  const std::uint64_t per_launch = absl::GetFlag(FLAGS_sweep_variants);
  SweepOptions options{
      .seed = absl::GetFlag(FLAGS_seed), .end = per_launch, .variants_per_launch = per_launch, .threads = threads};
  if (absl::StatusOr<SweepStats> warm = RunSweep(program, options, launch); !warm.ok()) return warm.status();
  options.end = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  PipelineStats all;
  const Clock::time_point start = Clock::now();
  for (std::uint64_t seed = options.seed; SecondsSince(start) < seconds; ++seed) {
    options.seed = seed;
    options.duration = absl::Seconds(seconds - SecondsSince(start));
    absl::StatusOr<SweepStats> stats = RunSweep(program, options, launch);
    if (!stats.ok()) return stats.status();
    const std::uint64_t judged = stats->agreed + stats->disagreed;
    all.launches += stats->launches;
    all.checked += judged;
    all.mismatched += stats->failing.size() + stats->unseen;
    all.judged_on_device += judged - stats->rejudged;
    all.launching += stats->launching;
    all.judging += stats->judging;
  }
  all.seconds = SecondsSince(start);
  return EncodeStats(all);
}

// NewFormUnit is one module's worth of new-forms work: the programs at
// `programs` (indices into the list every worker shares), compiled anew for
// round `round`.
struct NewFormUnit {
  int round = 0;
  std::vector<size_t> programs;
};

// MeasureNewForms runs in a worker: each unit's kernels in one module the
// driver has not seen (CombineKernels, tagged with the round and unit), one
// launch per form, every block judged. It reports its stats (EncodeStats),
// timed from when its CUDA context was ready.
absl::StatusOr<std::string> MeasureNewForms(absl::Span<const std::unique_ptr<TestProgram>> programs,
                                            absl::Span<const NewFormUnit> units, const DeviceProbe& probe,
                                            const DiscrepancyRegistry& registry, int device, int blocks,
                                            std::uint64_t seed) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(device);
  if (!jit.ok()) return jit.status();
  const Clock::time_point start = Clock::now();
  PipelineStats stats;
  std::vector<std::uint8_t> records;
  std::vector<std::uint8_t> output;
  for (const NewFormUnit& unit : units) {
    std::vector<const TestProgram*> members;
    for (size_t index : unit.programs) members.push_back(programs[index].get());
    absl::StatusOr<KernelSet> set =
        CombineKernels(members, absl::StrCat("new forms: round ", unit.round, ", first form ", unit.programs[0]));
    if (!set.ok()) return set.status();
    for (size_t i = 0; i < members.size(); ++i) {
      const TestProgram& program = *members[i];
      // A fault would end the worker; the registry's predicted faults are
      // measured by `matload conform`, not here.
      const Clock::time_point generate_start = Clock::now();
      const std::vector<Variant> variants = KeptVariants(program, blocks, seed, [&](const Variant& variant) {
        return registry.Find(program.FaultCaseText(variant), probe.target, Direction::kDeviceFaults,
                             probe.toolchain) == nullptr;
      });
      const size_t record_bytes = program.frame().record_bytes;
      records.resize(variants.size() * record_bytes);
      for (size_t v = 0; v < variants.size(); ++v) {
        program.WriteRecord(variants[v], absl::MakeSpan(records).subspan(v * record_bytes, record_bytes));
      }
      stats.generating += SecondsSince(generate_start);
      // The unit's first launch compiles and loads its module.
      const Clock::time_point launch_start = Clock::now();
      DriverJit::KernelLaunch launch = KernelLaunchFor(program, variants.size(), records);
      launch.entry = set->entries[i];
      if (absl::Status status = (*jit)->LaunchInto(set->module, launch, output); !status.ok()) {
        return absl::Status(status.code(), absl::StrCat(program.Label(), ": ", status.message()));
      }
      stats.launching += SecondsSince(launch_start);
      ++stats.launches;
      const Clock::time_point judge_start = Clock::now();
      JudgeBlocks(program, variants, output, stats);
      stats.judging += SecondsSince(judge_start);
    }
  }
  stats.seconds = SecondsSince(start);
  return EncodeStats(stats);
}

// SetPipelineCounters reports `stats`' counts and the seconds of each stage.
void SetPipelineCounters(const PipelineStats& stats, benchmark::State& state) {
  state.counters["launches"] = static_cast<double>(stats.launches);
  state.counters["checked_executions"] = static_cast<double>(stats.checked);
  state.counters["mismatches"] = static_cast<double>(stats.mismatched);
  state.counters["launching_s"] = stats.launching;
  state.counters["judging_s"] = stats.judging;
  state.counters["generating_s"] = stats.generating;
  state.counters["judged_on_device"] = static_cast<double>(stats.judged_on_device);
}

// Mismatches counts the mismatches and failed workers of every benchmark,
// for the exit status.
int& Failures() {
  static int failures = 0;
  return failures;
}

// NewForms measures the new-forms figure: every legal form of `probe`'s
// target that the model can run, --rounds times over, --forms_per_module
// forms to a module, dealt among --workers worker processes. The manual
// time is the parent's wall clock.
void NewForms(benchmark::State& state, const DeviceProbe& probe, int device, const DiscrepancyRegistry& registry) {
  std::vector<std::unique_ptr<TestProgram>> programs;
  for (const CheckedInstruction& instruction : StandardInstructions(probe.jit.Judged(), probe.target)) {
    absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {});
    if (program.ok()) programs.push_back(*std::move(program));  // kNotFound: no layout known
  }
  // Units go round-robin to the workers, so each worker gets every kind of
  // form and about the same work.
  const int workers = std::max(1, absl::GetFlag(FLAGS_workers));
  const size_t per_module = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_forms_per_module)));
  std::vector<std::vector<NewFormUnit>> shares(workers);
  size_t dealt = 0;
  for (int round = 0; round < absl::GetFlag(FLAGS_rounds); ++round) {
    for (size_t first = 0; first < programs.size(); first += per_module) {
      NewFormUnit& unit = shares[dealt++ % workers].emplace_back(NewFormUnit{.round = round});
      for (size_t i = first; i < std::min(programs.size(), first + per_module); ++i) unit.programs.push_back(i);
    }
  }
  for (auto _ : state) {
    std::vector<absl::StatusOr<std::vector<ItemResult>>> results(workers, absl::UnknownError("not run"));
    const Clock::time_point start = Clock::now();
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) {
      threads.emplace_back([&, w] {
        results[w] = RunIsolated(
            1,
            [&](int) {
              return MeasureNewForms(programs, shares[w], probe, registry, device, absl::GetFlag(FLAGS_new_form_blocks),
                                     absl::GetFlag(FLAGS_seed));
            },
            std::chrono::minutes(9));
      });
    }
    for (std::thread& thread : threads) thread.join();
    const double elapsed = SecondsSince(start);
    PipelineStats all;
    double busiest = 0;
    for (const absl::StatusOr<std::vector<ItemResult>>& result : results) {
      const absl::StatusOr<PipelineStats> stats =
          result.ok() ? StatsOf((*result)[0]) : absl::StatusOr<PipelineStats>(result.status());
      if (!stats.ok()) {
        ++Failures();
        state.SkipWithError(absl::StrCat("new forms: ", stats.status().message()).c_str());
        return;
      }
      all.launches += stats->launches;
      all.checked += stats->checked;
      all.mismatched += stats->mismatched;
      all.launching += stats->launching;
      all.judging += stats->judging;
      all.generating += stats->generating;
      busiest = std::max(busiest, stats->seconds);
    }
    state.SetIterationTime(elapsed);
    SetPipelineCounters(all, state);
    const double forms = static_cast<double>(all.launches);
    state.counters["workers"] = workers;
    state.counters["forms_per_module"] = static_cast<double>(per_module);
    state.counters["busiest_worker_s"] = busiest;
    state.counters["new_forms_per_s_workers_running"] = forms / busiest;
    state.counters["new_forms_per_s_wall"] = forms / elapsed;
    Failures() += all.mismatched > 0 ? 1 : 0;
  }
}

// OneForm measures `program` for --seconds in a worker process; the manual
// time is the worker's own.
// With `swept`, the program's sweep kernel is measured (MeasureSweep).
void OneForm(benchmark::State& state, const TestProgram& program, bool swept, int device,
             const PipelineOptions& options) {
  for (auto _ : state) {
    absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
        1,
        [&](int) {
          return swept ? MeasureSweep(program, device, absl::ToDoubleSeconds(options.duration), options.threads)
                       : Measure(program, device, options, absl::GetFlag(FLAGS_pinned));
        },
        std::chrono::milliseconds(static_cast<long>(1000 * (absl::ToDoubleSeconds(options.duration) + 300))));
    const absl::StatusOr<PipelineStats> stats =
        results.ok() ? StatsOf((*results)[0]) : absl::StatusOr<PipelineStats>(results.status());
    if (!stats.ok()) {
      ++Failures();
      state.SkipWithError(std::string(stats.status().message()).c_str());
      return;
    }
    state.SetIterationTime(stats->seconds);
    SetPipelineCounters(*stats, state);
    state.counters["checked_executions_per_s"] = stats->checked / stats->seconds;
    Failures() += stats->mismatched > 0 ? 1 : 0;
  }
}

// JudgesAsked are the judges --judge names, each form measured under each;
// a name that is none of them is kInvalidArgument.
absl::StatusOr<std::vector<JudgePlace>> JudgesAsked() {
  const std::string judge = absl::GetFlag(FLAGS_judge);
  if (judge == "both") return std::vector<JudgePlace>{JudgePlace::kHost, JudgePlace::kGpu};
  absl::StatusOr<JudgePlace> place = ParseJudgePlace(judge);
  if (!place.ok()) return absl::InvalidArgumentError(absl::StrCat(place.status().message(), " or both"));
  return std::vector<JudgePlace>{*place};
}

// Main registers the benchmarks the flags ask for on `probe`'s device,
// each form under each of `judges`, and runs them.
int Main(const DeviceProbe& probe, int device, const std::vector<JudgePlace>& judges) {
  const int blocks = absl::GetFlag(FLAGS_blocks);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  const int threads = absl::GetFlag(FLAGS_threads) > 0 ? absl::GetFlag(FLAGS_threads)
                                                       : static_cast<int>(std::thread::hardware_concurrency());
  if (blocks < threads) {
    std::fprintf(stderr, "gpu_throughput: --blocks (%d) must be at least --threads (%d)\n", blocks, threads);
    return kExitUsage;
  }
  benchmark::AddCustomContext("device", probe.identity);
  std::vector<std::unique_ptr<TestProgram>> programs;
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  if (absl::GetFlag(FLAGS_new_forms)) {
    if (!registry.ok()) {
      std::fprintf(stderr, "gpu_throughput: %s\n", std::string(registry.status().message()).c_str());
      return kExitUsage;
    }
    benchmark::AddCustomContext(
        "new_forms", absl::StrCat("every legal ", probe.target.Name(), " form, ", absl::GetFlag(FLAGS_rounds),
                                  " round(s), ", absl::GetFlag(FLAGS_new_form_blocks),
                                  " variants each; the driver's JIT cache on disk is off (CUDA_CACHE_DISABLE=1)"));
    benchmark::RegisterBenchmark("new_forms",
                                 [&](benchmark::State& state) { NewForms(state, probe, device, *registry); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kSecond);
  } else {
    benchmark::AddCustomContext(
        "settings", absl::StrCat("host threads: ", threads, "; blocks per launch: ", blocks, "; ", seconds,
                                 " s per form; output into ", absl::GetFlag(FLAGS_pinned) ? "page-locked" : "pageable",
                                 " host memory"));
    for (const std::string& opcode : absl::GetFlag(FLAGS_forms)) {
      for (const JudgePlace judge : judges) {
        absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::ForOpcode(
            opcode, probe.target, probe.jit.Judged(), {.judge_on_device = judge == JudgePlace::kGpu});
        if (!program.ok()) {
          std::fprintf(stderr, "gpu_throughput: %s\n", std::string(program.status().message()).c_str());
          return kExitUsage;
        }
        programs.push_back(*std::move(program));
      }
    }
    const PipelineOptions options{
        .blocks = blocks, .threads = threads, .duration = absl::Seconds(seconds), .seed = absl::GetFlag(FLAGS_seed)};
    for (const std::unique_ptr<TestProgram>& program : programs) {
      const bool judged_on_device = program->frame().judged_on_device;
      for (const bool swept : {false, true}) {
        if (swept && !(judged_on_device && absl::GetFlag(FLAGS_sweep) && program->SweepKernel().has_value())) continue;
        const std::string name = absl::StrCat(program->Label(), !judged_on_device ? " [host judge]"
                                                                : swept           ? " [gpu judge, swept]"
                                                                                  : " [gpu judge]");
        benchmark::RegisterBenchmark(
            name.c_str(),
            [&, options, swept](benchmark::State& state) { OneForm(state, *program, swept, device, options); })
            ->Iterations(1)
            ->UseManualTime()
            ->Unit(benchmark::kSecond);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return Failures() == 0 ? kExitClean : kExitFindings;
}

}  // namespace
}  // namespace matload

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);  // takes the --benchmark_* flags out of argv
  absl::ParseCommandLine(argc, argv);
  const int device = absl::GetFlag(FLAGS_device);
  const absl::StatusOr<std::vector<matload::JudgePlace>> judges = matload::JudgesAsked();
  if (!judges.ok()) {
    std::fprintf(stderr, "gpu_throughput: --judge: %s\n", std::string(judges.status().message()).c_str());
    return matload::kExitUsage;
  }
  if (absl::GetFlag(FLAGS_new_forms) && absl::GetFlag(FLAGS_judge) != "host") {
    std::fprintf(stderr, "gpu_throughput: --new_forms measures compiles with the host judging; leave --judge out\n");
    return matload::kExitUsage;
  }
  // A new form must cost a real JIT compile: the driver's disk cache would
  // make a rerun of the same module text nearly free. Set before any worker
  // starts CUDA.
  if (absl::GetFlag(FLAGS_new_forms)) setenv("CUDA_CACHE_DISABLE", "1", 1);
  absl::StatusOr<matload::DeviceProbe> probe = matload::ProbeDevice(device, std::chrono::seconds(60));
  if (!probe.ok()) {
    std::fprintf(stderr, "gpu_throughput: needs a GPU: %s\n", std::string(probe.status().message()).c_str());
    return matload::kExitCompileOnly;
  }
  return matload::Main(*probe, device, *judges);
}
