// gpu_throughput: checked executions per second on one GPU host (issue 5's
// speed goal), measured as `matload conform` checks them: one warp, one
// load, every register of every lane compared bit for bit with the model.
//
// Each form runs in a worker process (a fault costs that worker only) for
// --seconds. The worker keeps the module loaded and pipelines batches of
// --blocks variants: while the GPU runs batch k, the host's --threads judge
// batch k-1 and generate batch k+1. Every block of every batch is judged;
// the figure counts only judged blocks.
//
// With --new_forms it measures instead how many forms not seen before it
// compiles (driver JIT), loads, runs and checks per second: every legal
// form of the device's target, --rounds times, one launch of
// --new_form_blocks variants each. --forms_per_module kernels share one
// module, so one JIT compile serves them; each round's modules are new
// texts, and the driver's disk cache is off, so every round compiles anew.
// The modules are dealt round-robin among --workers worker processes. It
// prints two rates: over the busiest worker's time once its CUDA context
// was up, and over the parent's wall clock, the workers' start-up included.
//
// Without a GPU it prints "needs a GPU: ..." and exits 0, so scripts can
// run it anywhere; it never prints a figure it did not measure.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/case_judge.h"
#include "harness/discrepancy_registry.h"
#include "harness/isolated_runner.h"
#include "harness/kernel_set.h"
#include "harness/program_launch.h"
#include "harness/test_program.h"
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

// Batch is one launch's variants and their records, back to back.
struct Batch {
  std::vector<Variant> variants;
  std::vector<std::uint8_t> records;
};

// Judged counts a batch's judged blocks and how many differed.
struct Judged {
  std::uint64_t checked = 0;
  std::uint64_t mismatched = 0;
};

// Tally is what a worker reports, as one line of text through its pipe:
// launches (one per form with --new_forms), judged blocks, and the seconds
// in all and in each stage (the stages overlap where launches are
// pipelined).
struct Tally {
  std::uint64_t launches = 0;
  Judged judged;
  double seconds = 0, launching = 0, judging = 0, generating = 0;

  void Add(const Judged& more) {
    judged.checked += more.checked;
    judged.mismatched += more.mismatched;
  }
  std::string Encode() const {
    return absl::StrCat(launches, " ", judged.checked, " ", judged.mismatched, " ", seconds, " ", launching, " ",
                        judging, " ", generating);
  }
  static std::optional<Tally> Decode(absl::string_view text) {
    const std::vector<std::string> fields = absl::StrSplit(text, ' ');
    Tally tally;
    if (fields.size() != 7 || !absl::SimpleAtoi(fields[0], &tally.launches) ||
        !absl::SimpleAtoi(fields[1], &tally.judged.checked) || !absl::SimpleAtoi(fields[2], &tally.judged.mismatched) ||
        !absl::SimpleAtod(fields[3], &tally.seconds) || !absl::SimpleAtod(fields[4], &tally.launching) ||
        !absl::SimpleAtod(fields[5], &tally.judging) || !absl::SimpleAtod(fields[6], &tally.generating)) {
      return std::nullopt;
    }
    return tally;
  }
};

// TallyOf is a worker's Tally, or why there is none: the worker failed, or
// it answered something that is not a Tally.
absl::StatusOr<Tally> TallyOf(const ItemResult& result) {
  if (result.kind != ItemResult::Kind::kDone) {
    return absl::AbortedError(absl::StrCat(ItemKindName(result.kind), ": ", result.output));
  }
  std::optional<Tally> tally = Tally::Decode(result.output);
  if (!tally.has_value()) return absl::InternalError(absl::StrCat("the worker said '", result.output, "'"));
  return *tally;
}

// Chunks runs work(chunk) for chunks 0..threads-1 on their own threads.
void Chunks(int threads, const std::function<void(int)>& work) {
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int chunk = 0; chunk < threads; ++chunk) pool.emplace_back(work, chunk);
  for (std::thread& thread : pool) thread.join();
}

// Prepare refills `batch` (keeping its buffers): chunk c holds variants of
// seed (seed * threads + c), so every chunk replays on its own. Variants
// `keep` rejects (those the registry says fault) are left out.
void Prepare(const TestProgram& program, int blocks, int threads, std::uint64_t seed, Batch& batch,
             const std::function<bool(const Variant&)>& keep = nullptr) {
  const int per_chunk = blocks / threads;
  std::vector<std::vector<Variant>> chunks(threads);
  Chunks(threads, [&](int chunk) { chunks[chunk] = program.Variants(per_chunk, seed * threads + chunk, false); });
  batch.variants.clear();
  for (std::vector<Variant>& chunk : chunks) {
    for (Variant& variant : chunk) {
      if (keep == nullptr || keep(variant)) batch.variants.push_back(std::move(variant));
    }
  }
  const size_t record_bytes = program.frame().record_bytes;
  batch.records.resize(batch.variants.size() * record_bytes);
  Chunks(threads, [&](int chunk) {
    for (size_t i = chunk; i < batch.variants.size(); i += threads) {
      const std::vector<std::uint8_t> record = program.Record(batch.variants[i]);
      std::copy(record.begin(), record.end(), batch.records.begin() + static_cast<long>(i * record_bytes));
    }
  });
}

// Judge predicts every variant of `batch` and compares its block of `output`.
Judged Judge(const TestProgram& program, const Batch& batch, absl::Span<const std::uint8_t> output, int threads) {
  std::atomic<std::uint64_t> checked = 0;
  std::atomic<std::uint64_t> mismatched = 0;
  const size_t block_bytes = program.frame().output_bytes;
  Chunks(threads, [&](int chunk) {
    std::uint64_t mine = 0;
    std::uint64_t differing = 0;
    for (size_t i = chunk; i < batch.variants.size(); i += threads) {
      const CaseVerdict verdict =
          JudgeOutput(program.Expect(batch.variants[i]), output.subspan(i * block_bytes, block_bytes));
      ++mine;
      if (verdict.kind != CaseClass::kPass) ++differing;
    }
    checked += mine;
    mismatched += differing;
  });
  return {checked.load(), mismatched.load()};
}

// Seconds is the time since `start`.
double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Measure runs in a worker: it pipelines launches of `program` for
// `seconds` and reports its Tally.
absl::StatusOr<std::string> Measure(const TestProgram& program, int device, int blocks, int threads, double seconds,
                                    std::uint64_t seed) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(device);
  if (!jit.ok()) return jit.status();
  const auto launch_batch = [&](const Batch& batch, std::vector<std::uint8_t>& output) {
    return (*jit)->LaunchInto(program.kernel(), KernelLaunchFor(program, batch.variants.size(), batch.records), output);
  };
  // Two batches and two outputs take turns, so that no launch allocates.
  // The first launch compiles and loads the module; it is not timed.
  Batch current;
  Prepare(program, blocks, threads, seed, current);
  std::vector<std::uint8_t> current_output;
  if (absl::Status warm = launch_batch(current, current_output); !warm.ok()) return warm;

  const Clock::time_point start = Clock::now();
  Tally tally;
  Batch previous;
  std::vector<std::uint8_t> previous_output;
  while (Seconds(start) < seconds) {
    std::future<absl::Status> launched = std::async(std::launch::async, [&] {
      const Clock::time_point launch_start = Clock::now();
      absl::Status status = launch_batch(current, current_output);
      tally.launching += Seconds(launch_start);
      return status;
    });
    const Clock::time_point judge_start = Clock::now();
    if (!previous.variants.empty()) tally.Add(Judge(program, previous, previous_output, threads));
    tally.judging += Seconds(judge_start);
    // The judged batch is refilled as the next one.
    const Clock::time_point generate_start = Clock::now();
    Prepare(program, blocks, threads, seed + 1 + tally.launches, previous);
    tally.generating += Seconds(generate_start);
    if (absl::Status status = launched.get(); !status.ok()) return status;
    ++tally.launches;
    std::swap(previous, current);
    std::swap(previous_output, current_output);
  }
  tally.Add(Judge(program, previous, previous_output, threads));
  tally.seconds = Seconds(start);
  return tally.Encode();
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
// launch per form, every block judged. It reports its Tally, timed from
// when its CUDA context was ready.
absl::StatusOr<std::string> MeasureNewForms(absl::Span<const std::unique_ptr<TestProgram>> programs,
                                            absl::Span<const NewFormUnit> units, const DeviceProbe& probe,
                                            const DiscrepancyRegistry& registry, int device, int blocks,
                                            std::uint64_t seed) {
  absl::StatusOr<DriverJit*> jit = WorkerJit(device);
  if (!jit.ok()) return jit.status();
  const Clock::time_point start = Clock::now();
  Tally tally;
  std::vector<std::uint8_t> output;
  Batch batch;
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
      Prepare(program, blocks, 1, seed, batch, [&](const Variant& variant) {
        return registry.Find(program.FaultCaseText(variant), probe.target, Direction::kDeviceFaults,
                             probe.toolchain) == nullptr;
      });
      tally.generating += Seconds(generate_start);
      // The unit's first launch compiles and loads its module.
      const Clock::time_point launch_start = Clock::now();
      DriverJit::KernelLaunch launch = KernelLaunchFor(program, batch.variants.size(), batch.records);
      launch.entry = set->entries[i];
      if (absl::Status status = (*jit)->LaunchInto(set->module, launch, output); !status.ok()) {
        return absl::Status(status.code(), absl::StrCat(program.Label(), ": ", status.message()));
      }
      tally.launching += Seconds(launch_start);
      ++tally.launches;
      const Clock::time_point judge_start = Clock::now();
      tally.Add(Judge(program, batch, output, 1));
      tally.judging += Seconds(judge_start);
    }
  }
  tally.seconds = Seconds(start);
  return tally.Encode();
}

// NewForms prints the new-forms figure: every legal form of `probe`'s target
// that the model can run, --rounds times over, --forms_per_module forms to a
// module, dealt among --workers worker processes.
int NewForms(const DeviceProbe& probe, int device) {
  std::vector<std::unique_ptr<TestProgram>> programs;
  for (const CheckedInstruction& instruction : StandardInstructions(NewestPtxVersion(), probe.target)) {
    absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {});
    if (program.ok()) programs.push_back(*std::move(program));  // kNotFound: no layout known
  }
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
  if (!registry.ok()) {
    std::fprintf(stderr, "gpu_throughput: %s\n", std::string(registry.status().message()).c_str());
    return 2;
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
  std::vector<absl::StatusOr<std::vector<ItemResult>>> results(workers, absl::UnknownError("not run"));
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      results[w] = RunIsolated(
          1,
          [&](int) {
            return MeasureNewForms(programs, shares[w], probe, *registry, device, absl::GetFlag(FLAGS_new_form_blocks),
                                   absl::GetFlag(FLAGS_seed));
          },
          std::chrono::minutes(9));
    });
  }
  for (std::thread& thread : threads) thread.join();
  const double elapsed = Seconds(start);
  Tally all;
  double busiest = 0;
  for (const absl::StatusOr<std::vector<ItemResult>>& result : results) {
    const absl::StatusOr<Tally> tally = result.ok() ? TallyOf((*result)[0]) : absl::StatusOr<Tally>(result.status());
    if (!tally.ok()) {
      std::printf("new forms: %s\n", std::string(tally.status().message()).c_str());
      return 1;
    }
    all.launches += tally->launches;
    all.Add(tally->judged);
    all.launching += tally->launching;
    all.judging += tally->judging;
    all.generating += tally->generating;
    busiest = std::max(busiest, tally->seconds);
  }
  const double forms = static_cast<double>(all.launches);
  std::printf(
      "| workers | forms per module | new forms | checked executions | mismatches | launching, all workers (s) | "
      "judging (s) | generating (s) | busiest worker (s) | wall (s) | new forms/s, workers running | new forms/s, wall |\n"
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  std::printf("| %d | %zu | %.0f | %llu | %llu | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %.0f |\n", workers, per_module,
              forms, static_cast<unsigned long long>(all.judged.checked),
              static_cast<unsigned long long>(all.judged.mismatched), all.launching, all.judging, all.generating,
              busiest, elapsed, forms / busiest, forms / elapsed);
  return all.judged.mismatched == 0 ? 0 : 1;
}

int Main() {
  const int device = absl::GetFlag(FLAGS_device);
  const int blocks = absl::GetFlag(FLAGS_blocks);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  const std::uint64_t seed = absl::GetFlag(FLAGS_seed);
  const int threads = absl::GetFlag(FLAGS_threads) > 0 ? absl::GetFlag(FLAGS_threads)
                                                       : static_cast<int>(std::thread::hardware_concurrency());
  if (blocks < threads) {
    std::fprintf(stderr, "gpu_throughput: --blocks (%d) must be at least --threads (%d)\n", blocks, threads);
    return 2;
  }
  // A new form must cost a real JIT compile: the driver's disk cache would
  // make a rerun of the same module text nearly free. Set before any worker
  // starts CUDA.
  if (absl::GetFlag(FLAGS_new_forms)) setenv("CUDA_CACHE_DISABLE", "1", 1);
  absl::StatusOr<DeviceProbe> probe = ProbeDevice(device, std::chrono::seconds(60));
  if (!probe.ok()) {
    std::printf("needs a GPU: %s\n", std::string(probe.status().message()).c_str());
    return 0;
  }
  if (absl::GetFlag(FLAGS_new_forms)) {
    std::printf(
        "device: %s\nnew forms: every legal %s form, %d round(s), %d variants each, %d worker(s); the driver's "
        "JIT cache on disk is off (CUDA_CACHE_DISABLE=1)\n\n",
        probe->identity.c_str(), probe->target.Name().c_str(), absl::GetFlag(FLAGS_rounds),
        absl::GetFlag(FLAGS_new_form_blocks), std::max(1, absl::GetFlag(FLAGS_workers)));
    return NewForms(*probe, device);
  }
  std::vector<std::unique_ptr<TestProgram>> programs;
  for (const std::string& opcode : absl::GetFlag(FLAGS_forms)) {
    absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::ForOpcode(opcode, probe->target, NewestPtxVersion(), {});
    if (!program.ok()) {
      std::fprintf(stderr, "gpu_throughput: %s\n", std::string(program.status().message()).c_str());
      return 2;
    }
    programs.push_back(*std::move(program));
  }
  std::printf("device: %s\nhost threads: %d; blocks per launch: %d; %.0f s per form\n\n", probe->identity.c_str(),
              threads, blocks, seconds);
  std::printf(
      "| form | launches | checked executions | mismatches | seconds | launching (s) | judging (s) | generating (s) "
      "| checked executions/s |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  absl::StatusOr<std::vector<ItemResult>> results = RunIsolated(
      static_cast<int>(programs.size()),
      [&](int i) { return Measure(*programs[i], device, blocks, threads, seconds, seed); },
      std::chrono::milliseconds(static_cast<long>(1000 * (seconds + 300))));
  if (!results.ok()) {
    std::fprintf(stderr, "gpu_throughput: %s\n", std::string(results.status().message()).c_str());
    return 1;
  }
  int failures = 0;
  for (size_t i = 0; i < programs.size(); ++i) {
    const ItemResult& result = (*results)[i];
    const std::string label = programs[i]->Label();
    const absl::StatusOr<Tally> tally = TallyOf(result);
    if (!tally.ok()) {
      std::printf("| %s | %s |\n", label.c_str(), std::string(tally.status().message()).c_str());
      ++failures;
      continue;
    }
    failures += tally->judged.mismatched > 0 ? 1 : 0;
    std::printf("| `%s` | %llu | %llu | %llu | %.2f | %.2f | %.2f | %.2f | %.0f |\n", label.c_str(),
                static_cast<unsigned long long>(tally->launches), static_cast<unsigned long long>(tally->judged.checked),
                static_cast<unsigned long long>(tally->judged.mismatched), tally->seconds, tally->launching,
                tally->judging, tally->generating, tally->judged.checked / tally->seconds);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace matload

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return matload::Main();
}
