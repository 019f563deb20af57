// CaseSummary: what a worker judged of one conform case's variants, in a
// size that does not grow with the variant count: counts by outcome, the
// first failing variants' indices, and one sample failure per bundle
// signature (bundle_writer.h), kept with its output so that the run can
// file its bundle without running it again. A worker streams the variants
// of a case through the launch pipeline (conform_case_work.h) and sends
// back one CaseSummary; summaries of parts of a case merge into one.
//
// It also counts the variants the worker left out of its launches: those
// the model calls undefined (run apart, so that their faults cost no
// defined variant its result) and those a discrepancy-registry entry says
// fault (confirmed once, conformance_run.h).
#ifndef MATLOAD_HARNESS_JUDGE_CASE_SUMMARY_H_
#define MATLOAD_HARNESS_JUDGE_CASE_SUMMARY_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/judge/case_judge.h"
#include "harness/runs/sm_verdicts.h"
#include "nlohmann/json.hpp"

namespace matload {

// FailureSample is the first failing variant (by index) of one bundle
// signature, and how many of the case's variants share that signature.
struct FailureSample {
  std::int64_t index = 0;
  CaseClass kind = CaseClass::kMismatch;
  std::string detail;                // the verdict's detail, whole
  std::vector<std::uint8_t> output;  // the block's output; empty when it never completed
  int device = 0;                    // the GPU (ordinal) that ran it
  size_t count = 0;
};

// LeftOut counts the variants a registry entry predicts to fault, and
// names the first of them.
struct LeftOut {
  size_t count = 0;
  std::int64_t first = 0;

  // Add counts `other`'s variants too, keeping the first of both.
  void Add(const LeftOut& other) {
    if (other.count == 0) return;
    first = count == 0 ? other.first : std::min(first, other.first);
    count += other.count;
  }
};

// WorkerSeconds is where a worker's time on some variants went, so that a
// run can say whether its workers wait on their launches, on their host
// threads or on neither (reports/bench/cores-per-gpu-h100x4-2026-11-27/).
// Each figure sums over work items; the pipeline's figures are those of
// PipelineStats (harness/gpu/launch_pipeline.h).
struct WorkerSeconds {
  double items = 0;       // from taking an item to its summary
  double pipeline = 0;    // of that, in the launch pipeline
  double launching = 0;   // of that, the pipeline's calling thread in launches
  // The pipeline's host threads judging, the model's predictions included
  // (before f4d23d4 they were made with the variants), the mean over threads.
  double judging = 0;
  double generating = 0;  // the host threads making variants, likewise
  // Of `items`, the worker's start: the driver loaded and the GPU's context
  // taken, paid by the first item a worker takes (WorkerJit).
  double starting = 0;
  // Of the launches, the driver JIT's module loads: a compile, or a hit in
  // the JIT's disk cache (DriverJit::LoadingSeconds).
  double loading = 0;

  // Add adds `other`'s seconds.
  void Add(const WorkerSeconds& other);
  // List and FromList carry the seconds as a JSON list, items, pipeline,
  // launching, judging, generating, starting, loading, in a worker's
  // summary and in a run's recorded totals; a list recorded before the last
  // two (2026-11-29) reads them as 0. FromList throws nlohmann::json's
  // exception for a list that is not one.
  nlohmann::json List() const;
  static WorkerSeconds FromList(const nlohmann::json& list);
};

// CaseSummary is the merged verdicts of some of a case's variants.
struct CaseSummary {
  std::map<CaseClass, size_t> classes;  // judged variants by class
  size_t executions = 0;                // variants that ran to completion
  size_t words_compared = 0;
  // judged_on_device: of `executions`, the variants the GPU judged alone
  // (device_judge.h): they agreed with the model's plan and were not sampled.
  size_t judged_on_device = 0;
  SmVerdicts per_sm;  // the device judge's verdicts by GPU and SM

  std::vector<std::int64_t> first_failures;      // the lowest indices of failing variants, ascending
  std::map<std::string, FailureSample> samples;  // by bundle signature
  // note is the lowest-indexed variant's detail among those that are not
  // findings and have one ("entry: not run, ..."), for a case without failures.
  std::int64_t note_index = -1;
  std::string note;
  size_t undefined = 0;                      // undefined variants left for their own launches
  std::map<std::string, LeftOut> predicted;  // by registry entry: variants left for its confirmation
  WorkerSeconds seconds;                     // the worker's time on these variants

  // Add counts variant `index`'s verdict. A finding (IsFinding) keeps its
  // index among the first `keep` failures and, under `signature`, becomes
  // the sample when it is the first of its signature; `output` is copied
  // only then.
  void Add(std::int64_t index, const CaseVerdict& verdict, bool ran, size_t words, absl::string_view signature,
           absl::Span<const std::uint8_t> output, int device, size_t keep);
  // AddJudgedOnDevice counts `count` variants the GPU judged alone as
  // passes of `words` register words each: the kernel compared every word
  // with the model's plan, and the host re-judges only disagreements and a
  // sample.
  void AddJudgedOnDevice(size_t count, size_t words);
  // AddSmCounts counts GPU `device`'s verdicts, `by_sm[s]` for SM s.
  void AddSmCounts(int device, absl::Span<const SmCounts> by_sm);
  // AddUnrun counts `count` variants judged `kind` without running, with
  // `detail` as their note (a registry's known fault, say).
  void AddUnrun(CaseClass kind, size_t count, std::int64_t first, absl::string_view detail);
  // Merge adds `other`, as if its variants had been added here.
  void Merge(const CaseSummary& other, size_t keep);

  // judged is the number of variants counted in `classes`.
  size_t judged() const;
  // Worst is the most severe class counted (Severity, case_judge.h).
  CaseClass Worst() const;

  // Encode and Decode carry a summary from a worker to the run (JSON). A
  // text that does not decode is kDataLoss.
  std::string Encode() const;
  static absl::StatusOr<CaseSummary> Decode(absl::string_view text);
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_JUDGE_CASE_SUMMARY_H_
