// ConformanceRun: `matload conform`, the mission's core loop on a GPU.
//
// Every legal ldmatrix and wmma.load form of the device's target runs with K
// variants per compile path, streamed through the launch pipeline in a
// worker (conform_case_work.h), so that the run's memory does not grow
// with K. Every register of every lane is judged bit for bit against the
// reference model. A fault or a hang costs one worker, and the item that
// met it runs again in halves until each of the case's first
// --first_failures faults is pinned to its variant. Variants the model
// calls undefined, and those a registry entry predicts to fault, run in
// launches of their own; one variant per entry and case confirms the
// prediction and the rest are recorded as known faults, not run; a
// confirmation the results store remembers for the same GPU model, driver,
// kernel and inputs is not run again (ConformanceOptions::fault_memory). The
// near-miss illegal forms go through the driver JIT, which must reject
// them (conform_near_miss.h). Findings become deduplicated bundles.
//
// The run is planned (programs), executed chunk by chunk (a few items per
// worker, through every phase and the re-runs), recorded (each case's
// summaries gathered into one record, ConformTally; after each wave of
// workers, the cases it made final, done with every phase and re-run,
// stored in the results store in one transaction) and rendered
// (summary.md, summary.json, results.tsv with one line per case).
// --devices spreads the items over several GPUs of one architecture; the
// results do not depend on which GPU ran what, apart from the bundles' GPU
// names. A resumed run skips the cases its earlier attempts recorded, and
// runs every other case whole, so that it ends as an uninterrupted run.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORMANCE_RUN_H_
#define MATLOAD_HARNESS_CONFORM_CONFORMANCE_RUN_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/case_summary.h"
#include "harness/kernels/judge_place.h"
#include "harness/kernels/planted_bug.h"
#include "harness/runs/case_filter.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/verdict_cache.h"
#include "reference/target.h"

namespace matload {

// ConfirmedPredictions are registry predictions a run confirmed, by case
// ID and registry entry, each with the detail its confirming fault was
// recorded with.
using ConfirmedPredictions = std::map<std::pair<std::string, std::string>, std::string>;

// ConformanceOptions configure one run.
struct ConformanceOptions {
  std::vector<int> devices = {0};    // the GPUs' ordinals
  int variants = 16;                 // K per form and path
  std::uint64_t seed = 1;
  std::string forms;  // RE2 regex over program labels (FormsRegex); empty: all
  std::vector<CompilePath> paths = {CompilePath::kDriverJit};
  bool undefined = false;            // also run cases the spec leaves undefined (recorded, never compared)
  bool illegal = true;               // check the near-miss illegal forms through the driver JIT
  PlantedBug bug = PlantedBug::kNone;  // the self-test's planted bug
  // judge: where the defined variants' registers are compared with the
  // model (judge_place.h). On the GPU, a form with a plan runs a kernel that
  // judges itself; the host re-judges what it calls wrong and a sample.
  JudgePlace judge = JudgePlace::kGpu;
  std::string run_directory;         // results.tsv, summary.md, summary.json, bundles/
  std::chrono::milliseconds timeout{30000};  // per launch
  int workers = 8;    // worker processes at once on the host, dealt over its GPUs, each with its own CUDA context
  CaseFilter filter;  // the cases the run takes, by case ID (harness/runs/case_id.h)
  // retries: how often a case that failed (a mismatch, or a fault or hang
  // the model did not predict) re-runs its first failing variants in fresh
  // workers; attempts that disagree make it a "flake".
  int retries = 2;
  size_t first_failures = 16;  // failing variants a case record names, and faults attributed one by one
  // confirm_all_faults: run every variant a registry entry predicts to
  // fault, each fault attributed to its variant, instead of confirming one
  // per entry and case.
  bool confirm_all_faults = false;
  // fault_memory: registry faults confirmed on the driver JIT, kept in the
  // results store's verdict cache (harness/runs/verdict_cache.h) under the
  // GPUs' model and driver, with the kernel and inputs of the confirming
  // launch as the question. A prediction whose confirming launch the
  // memory holds is taken as confirmed without a launch: a worker start
  // each, serialised host-wide (reports/bench/worker-starts-h100x2-2026-11-26/).
  // Null (--no-cache) confirms every prediction on the GPU.
  VerdictCache* fault_memory = nullptr;
  // confirmed_earlier: for a round of a soak (harness/conform/soak_tally.h),
  // the predictions its earlier rounds confirmed on the same GPUs, driver
  // and kernels. Each is taken as confirmed without a launch, as the fault
  // memory's are: the soak confirms a prediction once, not once a round
  // (each confirmation is a worker start, serialised host-wide). Null for a
  // run on its own.
  const ConfirmedPredictions* confirmed_earlier = nullptr;
  // probed: the probes of `devices` (ProbeRunDevices), for a caller that
  // has them already: a soak probes its GPUs once, not once a round (each
  // probe is a worker start, serialised host-wide,
  // reports/bench/worker-time-h200x2-2026-11-29/). Null: the run probes.
  const std::vector<DeviceProbe>* probed = nullptr;
  // journal: the run in the results store, which every chunk of finished
  // cases is recorded in and a resumed run takes back from; null for a
  // run kept only in its directory (the self-test).
  RunJournal* journal = nullptr;
};

// ConformancePhase is one phase of a run's GPU work: what it ran, how many
// launches, and how long it took (worker start-ups, JIT compiles, launches
// and judging).
struct ConformancePhase {
  std::string what;
  size_t launches = 0;
  double seconds = 0;
};

// kRetryCausesKept bounds ConformanceResult::retry_causes.
inline constexpr size_t kRetryCausesKept = 8;

// ConformanceResult is what a run found.
struct ConformanceResult {
  std::string identity;  // GPU, UUID, driver
  Target target;
  size_t launches = 0;   // work items of the forms and undefined phases: form x address width x compile path
  std::map<std::string, std::map<CaseClass, size_t>> counts;  // by family, then class
  size_t words_compared = 0;
  // failing_variants: judged variants (and near-miss forms) that need a
  // person, registry misses included; findings: the cases that hold them,
  // each counted once, as the results store counts findings
  // (CaseRecord::finding). A report says both, never one for the other.
  size_t failing_variants = 0;
  size_t findings = 0;
  size_t bundles = 0;
  size_t illegal_explained = 0;  // near-miss forms the JIT accepts, explained by the registry
  std::vector<std::string> not_run;  // what this device cannot run, and why
  // registry_misses: device-fault entries whose predicted fault did not
  // happen (each also counts as a finding: the entry is too broad or stale).
  std::vector<std::string> registry_misses;
  double device_seconds = 0;  // wall time of the GPU items
  std::vector<ConformancePhase> phases;  // where device_seconds went, phase by phase
  // worker_seconds: where the workers' time went, summed over every item
  // they judged (CaseSummary::seconds), so that a slow run says whether its
  // workers waited on the GPU or on their host threads.
  WorkerSeconds worker_seconds;
  size_t executions = 0;      // blocks that ran to completion and were judged
  size_t judged_on_device = 0;  // of those, the blocks the GPU judged alone (CaseSummary::judged_on_device)
  SmVerdicts per_sm;            // the device judge's verdicts by GPU and SM, every case's
  // infrastructure_retries counts launches tried again in a fresh worker
  // because an infrastructure failure kept them from being judged.
  size_t infrastructure_retries = 0;
  // retry_causes: why launches were tried again, each distinct cause once
  // (at most kRetryCausesKept), so that a run that recovered still says
  // what its GPU or workers did.
  std::vector<std::string> retry_causes;
  size_t flakes = 0;  // cases whose re-runs disagreed with their first run
  // confirmations_remembered counts predictions taken as confirmed from
  // the fault memory or an earlier round of the soak, without a launch.
  size_t confirmations_remembered = 0;
  // confirmed: every prediction this run confirmed or took as confirmed,
  // for a soak's later rounds (ConformanceOptions::confirmed_earlier).
  ConfirmedPredictions confirmed;
  // stopped says why the run ended early (an infrastructure failure or an
  // interruption); empty for a run that judged everything.
  std::string stopped;
  // cases: every case the run recorded, in case ID order, as results.tsv
  // lists them, so that a run kept only in its directory (a soak's round:
  // harness/conform/soak_tally.h) hands them on.
  std::vector<CaseRecord> cases;
};

// ConformanceProgress is told after each item: (done, total, label).
using ConformanceProgress = std::function<void(size_t, size_t, const std::string&)>;

// RunConformance runs it. With no usable GPU it fails with NoGpuError,
// saying why and that matload is compile-only here. A compile path whose
// toolkit compiler is missing is a usage error before anything runs. A
// failure matload cannot retry away (infrastructure.h) or an interruption
// (interrupt.h) stops the run: what was judged stays in results.tsv, the
// summaries say why it stopped, and the error is returned.
absl::StatusOr<ConformanceResult> RunConformance(const ConformanceOptions& options,
                                                 const ConformanceProgress& progress);

// ProbeRunDevices probes every GPU `options` name, at once, for
// ConformanceOptions::probed: each one's target, identity, JIT and
// calibration. The GPUs must share one architecture (else
// kFailedPrecondition); with no usable GPU it fails with NoGpuError.
absl::StatusOr<std::vector<DeviceProbe>> ProbeRunDevices(const ConformanceOptions& options);

// DescribeRun probes the GPUs `options` name (or takes options.probed) and tells `journal` which
// toolkits and GPUs it runs on, as RunConformance tells its own journal:
// for a soak (harness/cli/soak_command.h), whose rounds run without one.
// With no usable GPU it fails with NoGpuError, as RunConformance does.
absl::Status DescribeRun(const ConformanceOptions& options, RunJournal& journal);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORMANCE_RUN_H_
