#include "harness/conform/worker_waves.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "harness/conform/conform_report.h"
#include "harness/conform/in_order_judging.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/interrupt.h"

namespace matload {

WorkerWaves::WorkerWaves(std::vector<int> devices, size_t slots, Watchdog& watchdog,
                         const ConformanceProgress& progress, ConformanceResult& result)
    : devices_(std::move(devices)),
      slots_(std::max(slots, devices_.size())),
      watchdog_(watchdog),
      progress_(progress),
      result_(result) {}

absl::Status WorkerWaves::Run(const std::vector<const CaseWork*>& works, const WorkContext& context,
                              const Judgement& judge, const Commit& commit, const std::string& what) {
  if (works.empty()) return absl::OkStatus();
  const absl::Time start = absl::Now();
  std::vector<size_t> every(works.size());
  for (size_t index = 0; index < works.size(); ++index) every[index] = index;
  std::vector<Unjudged> unjudged;
  for (int attempt = 1; attempt == 1 || !unjudged.empty(); ++attempt) {
    const std::vector<Unjudged> failed = std::move(unjudged);
    unjudged.clear();
    const absl::Status ran =
        attempt == 1 ? RunWaves(works, every, devices_, context, judge, commit, SlotsFor(works), what, unjudged)
                     : RetryOnTheirGpus(works, failed, context, judge, commit, what, unjudged);
    if (!ran.ok()) return ran;
    result_.infrastructure_retries += unjudged.size();
    for (const Unjudged& item : unjudged) NoteRetryCause(item.failure);
    if (!unjudged.empty() && attempt == kInfrastructureAttempts) {
      const Unjudged& first = unjudged.front();
      const CaseWork& work = *works[first.index];
      return InfrastructureError(
          first.failure.cause,
          absl::StrCat(work.program->Label(), " on ", CompilePathName(work.path), " could not be judged on GPU ",
                       first.device, " in ", kInfrastructureAttempts, " attempts, each in a fresh worker: ",
                       first.failure.detail, " (", unjudged.size(), " items of ", what, " unjudged)"));
    }
  }
  AddPhase({what, works.size(), absl::ToDoubleSeconds(absl::Now() - start)}, result_.phases);
  return absl::OkStatus();
}

size_t WorkerWaves::SlotsFor(const std::vector<const CaseWork*>& works) const {
  const bool singles = std::all_of(works.begin(), works.end(), [](const CaseWork* work) { return work->size() == 1; });
  return singles ? std::min(works.size(), kSingleSlotsPerSlot * slots_) : slots_;
}

absl::Status WorkerWaves::RetryOnTheirGpus(const std::vector<const CaseWork*>& works,
                                           const std::vector<Unjudged>& failed, const WorkContext& context,
                                           const Judgement& judge, const Commit& commit, const std::string& what,
                                           std::vector<Unjudged>& unjudged) {
  for (const int device : devices_) {
    std::vector<size_t> on_device;
    for (const Unjudged& item : failed) {
      if (item.device == device) on_device.push_back(item.index);
    }
    if (on_device.empty()) continue;
    if (absl::Status ran = RunWaves(works, on_device, {device}, context, judge, commit, 1, what, unjudged); !ran.ok())
      return ran;
  }
  return absl::OkStatus();
}

absl::Status WorkerWaves::RunWaves(const std::vector<const CaseWork*>& works, const std::vector<size_t>& pending,
                                   const std::vector<int>& devices, const WorkContext& context, const Judgement& judge,
                                   const Commit& commit, size_t slots, const std::string& what,
                                   std::vector<Unjudged>& unjudged) {
  const size_t per_slot = std::clamp<size_t>((pending.size() + slots - 1) / slots, 1, kMostItemsPerWorker);
  for (size_t first = 0; first < pending.size(); first += slots * per_slot) {
    const size_t count = std::min(slots * per_slot, pending.size() - first);
    std::vector<const CaseWork*> wave(count);
    for (size_t k = 0; k < count; ++k) wave[k] = works[pending[first + k]];
    // ran_on[k] is the GPU item k ran on, written before the item arrives.
    std::vector<int> ran_on(count);
    InOrderJudging judging(count, [&](size_t k, const ItemResult& ran_item) -> absl::Status {
      const size_t index = pending[first + k];
      LaunchOutcome outcome = ClassifyLaunch(ran_item);
      if (outcome.kind == LaunchOutcome::Kind::kInfrastructure) {
        unjudged.push_back({.index = index, .device = ran_on[k], .failure = std::move(outcome)});
        return absl::OkStatus();
      }
      if (absl::Status status = judge(index, ran_item, outcome, ran_on[k]); !status.ok()) return status;
      return commit();
    });
    WorkQueue queue(static_cast<int>(count));
    std::vector<absl::Status> started(std::min(slots, count));
    std::vector<std::thread> threads;
    for (size_t slot = 0; slot < started.size(); ++slot) {
      threads.emplace_back([&, slot] {
        const int device = devices[slot % devices.size()];
        const StartPriority priority = slot < devices.size() ? StartPriority::kFirstOnItsGpu : StartPriority::kAnother;
        started[slot] = RunSlot(queue, wave, device, priority, context, [&, device](int k, const ItemResult& ran_item) {
          ran_on[k] = device;
          judging.Arrive(static_cast<size_t>(k), ran_item);
        });
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const absl::Status& status : started) {
      if (!status.ok()) return status;
    }
    if (absl::Status judged = judging.Finish(); !judged.ok()) return judged;
    if (absl::Status committed = commit(); !committed.ok()) return committed;
    if (const int signal = PendingInterrupt(); signal != 0) return InterruptedError(signal);
    progress_(first + count, pending.size(), what);
  }
  return absl::OkStatus();
}

absl::Status WorkerWaves::RunSlot(WorkQueue& queue, const std::vector<const CaseWork*>& wave, int device,
                                  StartPriority priority, const WorkContext& context, const ItemFinished& finished) {
  return RunIsolated(
      queue,
      [&](int index) -> absl::StatusOr<std::string> {
        const CaseWork& work = *wave[index];
        absl::StatusOr<CaseSummary> summary = RunCaseWork(work, context(work, device));
        if (!summary.ok()) return summary.status();
        return summary->Encode();
      },
      watchdog_, finished, priority);
}

void WorkerWaves::NoteRetryCause(const LaunchOutcome& failure) {
  std::vector<std::string>& causes = result_.retry_causes;
  if (causes.size() < kRetryCausesKept && std::find(causes.begin(), causes.end(), failure.detail) == causes.end()) {
    causes.push_back(failure.detail);
  }
}

}  // namespace matload
