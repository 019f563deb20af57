#include "harness/gpu/device_sweep_run.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/platform/seconds_since.h"

namespace matload {
namespace {

using Clock = std::chrono::steady_clock;

// Load reads a little-endian T at `at` of `bytes`.
template <typename T>
T Load(absl::Span<const std::uint8_t> bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

// kClaimedAt is where the output counts the slots its variants claimed.
constexpr size_t kClaimedAt = 16;

// SweptOutput is one launch's output, read.
struct SweptOutput {
  std::uint64_t agreed = 0;
  std::uint64_t disagreed = 0;
  std::uint64_t skipped = 0;                         // in all classes
  std::vector<LeftOut> skipped_by_class;             // kSweepFaultClasses of them
  std::vector<absl::Span<const std::uint8_t>> kept;  // the slots written
};

// Skips says whether `skipped_classes` skips `variant` of `program`.
bool Skips(const TestProgram& program, std::uint64_t skipped_classes, const Variant& variant) {
  return (skipped_classes >> program.FaultClassOf(variant) & 1) != 0;
}

// Sampled says whether the device must keep variant `index` of `request`
// although it agrees, where it runs it: the request's first, and every
// kSampleEvery-th.
bool Sampled(const SweepRequest& request, std::uint64_t index) {
  return index == request.first || index % kSampleEvery == 0;
}

// SampleSize is how many of `request`'s variants of `program` are Sampled
// and run.
std::uint64_t SampleSize(const TestProgram& program, const SweepRequest& request) {
  std::uint64_t size = 0;
  for (std::uint64_t index = request.first; index < request.end;
       index = index == request.first ? (index / kSampleEvery + 1) * kSampleEvery : index + kSampleEvery) {
    const bool skipped =
        request.skipped_classes != 0 &&
        Skips(program, request.skipped_classes, program.MakeVariant(request.seed, static_cast<int>(index), false));
    if (!skipped) ++size;
  }
  return size;
}

// ReadSkips reads the output's skip counters by fault class.
std::vector<LeftOut> ReadSkips(absl::Span<const std::uint8_t> output, std::uint64_t& total) {
  std::vector<LeftOut> skips(kSweepFaultClasses);
  for (int fault_class = 0; fault_class < kSweepFaultClasses; ++fault_class) {
    const size_t at = kSweepSkipsAt + 16 * fault_class;
    skips[fault_class] = {.count = Load<std::uint64_t>(output, at),
                          .first = static_cast<std::int64_t>(~Load<std::uint64_t>(output, at + 8))};
    total += skips[fault_class].count;
  }
  return skips;
}

// ReadSweptOutput reads a launch's counts and slots, adding its SM counts to
// `per_sm`. An output shorter than the slots it claims is kInternal, and
// so is one that kept fewer of its sample (`sample` variants) than the
// slots had room for: the sample is what holds the device's judge to the
// model, so a sweep that left it out judged less than it says.
absl::StatusOr<SweptOutput> ReadSweptOutput(absl::Span<const std::uint8_t> output, const SweepRequest& request,
                                            std::uint64_t sample, size_t slot_bytes, std::vector<SmCounts>& per_sm) {
  if (output.size() < kSweepSlotsAt) {
    return absl::InternalError(absl::StrCat("a sweep's output of ", output.size(), " bytes has no counts"));
  }
  SweptOutput read{.agreed = Load<std::uint64_t>(output, 0), .disagreed = Load<std::uint64_t>(output, 8)};
  read.skipped_by_class = ReadSkips(output, read.skipped);
  for (std::uint32_t sm = 0; sm < kMostSms; ++sm) {
    const size_t at = kSweepSmCountsAt + 8 * sm;
    const SmCounts counts{.blocks = Load<std::uint32_t>(output, at), .disagreed = Load<std::uint32_t>(output, at + 4)};
    if (counts.blocks == 0) continue;
    if (per_sm.size() <= sm) per_sm.resize(sm + 1);
    per_sm[sm].Add(counts);
  }
  const size_t kept = std::min<size_t>(Load<std::uint32_t>(output, kClaimedAt), request.slots);
  if (output.size() < kSweepSlotsAt + kept * slot_bytes) {
    return absl::InternalError(
        absl::StrCat("a sweep's output of ", output.size(), " bytes is short of its ", kept, " kept variants"));
  }
  std::uint64_t sampled = 0;
  for (size_t i = 0; i < kept; ++i) {
    read.kept.push_back(output.subspan(kSweepSlotsAt + i * slot_bytes, slot_bytes));
    if (Sampled(request, Load<std::uint64_t>(read.kept.back(), 0))) ++sampled;
  }
  const bool overflowed = Load<std::uint32_t>(output, kClaimedAt) > request.slots;
  if (!overflowed && sampled < sample) {
    return absl::InternalError(absl::StrCat("a sweep launch of variants ", request.first, " to ", request.end - 1,
                                            " kept ", sampled, " of the ", sample,
                                            " variants it must sample, so its judge went unchecked"));
  }
  return read;
}

// KeptTally is what the host made of a launch's kept variants.
struct KeptTally {
  std::uint64_t rejudged = 0;
  std::uint64_t disagreements_kept = 0;  // of those, the ones the device called wrong
  std::vector<std::uint64_t> failing;
  double seconds = 0;  // summed over the threads
};

// JudgeKept judges `kept` on options.threads threads, each taking every
// threads-th slot.
absl::StatusOr<KeptTally> JudgeKept(const TestProgram& program, const LoadPlan& plan, const SweepOptions& options,
                                    const std::vector<absl::Span<const std::uint8_t>>& kept) {
  const int threads = options.threads;
  std::vector<KeptTally> tallies(threads);
  std::vector<absl::Status> statuses(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const Clock::time_point start = Clock::now();
      for (size_t i = t; i < kept.size() && statuses[t].ok(); i += threads) {
        absl::StatusOr<KeptVariant> judged =
            JudgeKeptVariant(program, plan, options.seed, options.skipped_classes, kept[i]);
        if (!judged.ok()) {
          statuses[t] = judged.status();
          break;
        }
        ++tallies[t].rejudged;
        if (judged->verdict.kind != CaseClass::kPass) {
          ++tallies[t].disagreements_kept;
          tallies[t].failing.push_back(judged->variant.index);
        }
        if (options.on_kept) options.on_kept(t, judged->variant, judged->verdict, judged->registers);
      }
      tallies[t].seconds = SecondsSince(start);
    });
  }
  for (std::thread& worker : workers) worker.join();
  KeptTally all;
  for (int t = 0; t < threads; ++t) {
    if (!statuses[t].ok()) return statuses[t];
    all.rejudged += tallies[t].rejudged;
    all.disagreements_kept += tallies[t].disagreements_kept;
    all.failing.insert(all.failing.end(), tallies[t].failing.begin(), tallies[t].failing.end());
    all.seconds += tallies[t].seconds;
  }
  return all;
}

// SlotsFor is how many slots a launch of `request`'s variants needs: its
// sample (its first variant and every kSampleEvery-th), and `disagreements`.
std::uint32_t SlotsFor(const SweepRequest& request, std::uint32_t disagreements) {
  return static_cast<std::uint32_t>((request.end - request.first) / kSampleEvery + 2 + disagreements);
}

}  // namespace

SweepLaunch DeviceSweepLaunch(const DriverJit& jit, const TestProgram& program, std::string kernel, unsigned blocks) {
  const size_t slot_bytes = SweepSlotBytes(program.frame().output_bytes);
  return [&jit, &program, kernel = std::move(kernel), blocks, slot_bytes](
             int slot, const SweepRequest& request) -> absl::StatusOr<absl::Span<const std::uint8_t>> {
    std::array<std::uint8_t, kSweepRequestBytes> bytes;
    WriteSweepRequest(request, absl::MakeSpan(bytes));
    DriverJit::KernelLaunch launch{.entry = SweepEntry(program.entry()),
                                   .blocks = blocks,
                                   .threads = 32 * kSweepWarps,
                                   .inputs = {absl::MakeConstSpan(bytes)},
                                   .scratch_bytes = static_cast<size_t>(blocks) * program.frame().window_bytes,
                                   .output_bytes = kSweepSlotsAt + request.slots * slot_bytes,
                                   .head_bytes = kSweepSlotsAt,
                                   .bytes_after_head = [&](absl::Span<const std::uint8_t> head) {
                                     return std::min<size_t>(Load<std::uint32_t>(head, kClaimedAt), request.slots) *
                                            slot_bytes;
                                   }};
    absl::StatusOr<absl::Span<std::uint8_t>> output = jit.PinnedOutput(slot, launch.HostOutputBytes());
    if (!output.ok()) return output.status();
    if (absl::Status status = jit.LaunchInto(kernel, launch, *output); !status.ok()) return status;
    return *output;
  };
}

absl::StatusOr<KeptVariant> JudgeKeptVariant(const TestProgram& program, const LoadPlan& plan, std::uint64_t seed,
                                             std::uint64_t skipped_classes, absl::Span<const std::uint8_t> slot) {
  const std::uint64_t index = Load<std::uint64_t>(slot, 0);
  const VerdictWord word = ReadVerdictWord(Load<std::uint32_t>(slot, 8));
  if (!word.verdict.has_value() || index > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    return absl::InternalError(absl::StrFormat(
        "a sweep kept a slot of variant %d with no verdict, or past the last variant a seed has", index));
  }
  KeptVariant kept{.variant = program.MakeVariant(seed, static_cast<int>(index), false),
                   .registers = slot.subspan(kSweepSlotHeaderBytes + 4 * kWarpLanes)};
  if (Skips(program, skipped_classes, kept.variant)) {
    return absl::InternalError(absl::StrCat("the device ran variant ", index, " of seed ", seed, ", of fault class ",
                                            program.FaultClassOf(kept.variant), ", which it was asked to skip"));
  }
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::uint32_t drawn = Load<std::uint32_t>(slot, kSweepSlotHeaderBytes + 4 * lane);
    const std::uint64_t made = PlannedLineOffset(plan, kept.variant.operands, lane);
    if (drawn != made) {
      return absl::InternalError(absl::StrCat("the device drew variant ", index, " of seed ", seed,
                                              " otherwise than the host: lane ", lane, "'s line starts at ", drawn,
                                              " on the device, ", made, " on the host"));
    }
  }
  kept.verdict = JudgeOutput(program.Expect(kept.variant), kept.registers);
  const bool passed = kept.verdict.kind == CaseClass::kPass;
  if (passed != (*word.verdict == DeviceVerdict::kAgree)) {
    return absl::InternalError(absl::StrCat("the device judge and the model disagreed about variant ", index,
                                            " of seed ", seed, ": the device judge on SM ", word.sm, " called it ",
                                            passed ? "wrong" : "right", ", the model ", passed ? "right" : "wrong",
                                            "; the device's comparison is wrong, so no verdict of this sweep stands"));
  }
  return kept;
}

absl::StatusOr<SweepStats> RunSweep(const TestProgram& program, const SweepOptions& options,
                                    const SweepLaunch& launch) {
  const std::optional<LoadPlan> plan = program.Plan();
  const size_t classes = program.FaultClassTexts().size();
  const bool classes_known = classes >= kSweepFaultClasses || options.skipped_classes >> classes == 0;
  if (!plan.has_value() || options.first == 0 || options.threads < 1 || options.variants_per_launch == 0 ||
      !classes_known) {
    return absl::InvalidArgumentError(absl::StrCat(program.Label(),
                                                   ": a sweep needs a plan, variants from 1, a thread, variants in "
                                                   "each launch, and skipped fault classes among the program's ",
                                                   classes));
  }
  const size_t slot_bytes = SweepSlotBytes(program.frame().output_bytes);
  SweepStats stats{.next = options.first, .skipped = std::vector<LeftOut>(kSweepFaultClasses)};
  const Clock::time_point start = Clock::now();
  std::future<absl::StatusOr<KeptTally>> judging;  // the last launch's kept variants
  std::uint64_t last_disagreed = 0;
  auto finish_judging = [&]() -> absl::Status {
    if (!judging.valid()) return absl::OkStatus();
    absl::StatusOr<KeptTally> tally = judging.get();
    if (!tally.ok()) return tally.status();
    stats.rejudged += tally->rejudged;
    stats.kept_agreed += tally->rejudged - tally->disagreements_kept;
    stats.failing.insert(stats.failing.end(), tally->failing.begin(), tally->failing.end());
    stats.unseen += last_disagreed - tally->disagreements_kept;
    stats.judging += tally->seconds / options.threads;
    return absl::OkStatus();
  };
  for (int slot = 0; stats.next < options.end; slot ^= 1) {
    if (HasElapsed(start, options.duration)) break;
    SweepRequest request{.seed = options.seed,
                         .first = stats.next,
                         .end = std::min(options.end, stats.next + options.variants_per_launch),
                         .skipped_classes = options.skipped_classes};
    request.slots = SlotsFor(request, options.kept_disagreements);
    const std::uint64_t sample = SampleSize(program, request);
    const Clock::time_point launch_start = Clock::now();
    absl::StatusOr<absl::Span<const std::uint8_t>> output = launch(slot, request);
    stats.launching += SecondsSince(launch_start);
    absl::Status judged = finish_judging();
    if (!output.ok()) return output.status();
    if (!judged.ok()) return judged;
    absl::StatusOr<SweptOutput> read = ReadSweptOutput(*output, request, sample, slot_bytes, stats.per_sm);
    if (!read.ok()) return read.status();
    if (read->agreed + read->disagreed + read->skipped != request.end - request.first) {
      return absl::InternalError(absl::StrCat(program.Label(), ": a sweep launch judged ",
                                              read->agreed + read->disagreed, " and skipped ", read->skipped,
                                              " variants of the ", request.end - request.first, " it was given"));
    }
    for (int fault_class = 0; fault_class < kSweepFaultClasses; ++fault_class) {
      const LeftOut& skipped = read->skipped_by_class[fault_class];
      if (skipped.count > 0 && (options.skipped_classes >> fault_class & 1) == 0) {
        return absl::InternalError(absl::StrCat(program.Label(), ": a sweep launch skipped ", skipped.count,
                                                " variants of fault class ", fault_class, ", which it was to run"));
      }
      stats.skipped[fault_class].Add(skipped);
    }
    ++stats.launches;
    stats.next = request.end;
    stats.agreed += read->agreed;
    stats.disagreed += read->disagreed;
    last_disagreed = read->disagreed;
    judging = std::async(std::launch::async, [&program, &plan, &options, kept = std::move(read->kept)] {
      return JudgeKept(program, *plan, options, kept);
    });
  }
  if (absl::Status judged = finish_judging(); !judged.ok()) return judged;
  std::sort(stats.failing.begin(), stats.failing.end());
  stats.seconds = SecondsSince(start);
  return stats;
}

}  // namespace matload
