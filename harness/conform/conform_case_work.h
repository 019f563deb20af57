// ConformCaseWork: the worker's half of a conform case (conformance_run.h).
// One work item is some of one case's variants: a range of indices or a
// list of them, of one role. The worker makes variant i of the run's seed
// (TestProgram::MakeVariant: the replay key stays (form, seed, index)),
// asks the model for it, runs the variants of the item's role through the
// launch pipeline (launch_pipeline.h) and judges every register of every
// lane, and sends back one CaseSummary (case_summary.h). Nothing it keeps
// grows with the number of variants.
//
// A variant's role decides which launches it may share:
//   defined    the model predicts its registers (or its fault);
//   undefined  the model calls it undefined: run apart, recorded, never compared;
//   predicted  a discrepancy-registry entry says it faults: run apart, so
//              that its fault costs no other variant its result.
// Variants of other roles in an item's range are stand-ins: a filler
// variant runs in their block, unjudged, and a defined item counts them
// (CaseSummary::undefined, ::predicted) for the items that run them.
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_CASE_WORK_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_CASE_WORK_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "harness/families/test_program.h"
#include "harness/gpu/program_launch.h"
#include "harness/judge/case_judge.h"
#include "harness/judge/case_summary.h"

namespace matload {

// VariantRole is what a variant is to a run: see the file comment.
enum class VariantRole : unsigned char { kDefined, kUndefined, kPredicted, kAny };

// CaseWork is one work item.
struct CaseWork {
  const TestProgram* program = nullptr;
  // device_judged: the same form's kernel that judges its blocks on the
  // GPU (ProgramOptions::judge_on_device), for an item of defined variants
  // whose form has a plan; null where the host judges every block. The
  // model, replay keys and bundles stay `program`'s.
  const TestProgram* device_judged = nullptr;
  CompilePath path = CompilePath::kDriverJit;
  std::uint64_t seed = 1;
  bool undefined = false;  // MakeVariant's flag: the run also makes undefined variants
  // take: the role of the variants the item runs; kAny (re-runs) runs
  // every listed variant, whatever its role.
  VariantRole take = VariantRole::kDefined;
  std::string entry;       // kPredicted: the registry entry whose variants it runs
  std::int64_t begin = 0;  // the range [begin, end) of indices, unless `listed`
  std::int64_t end = 0;
  std::vector<std::int64_t> listed;
  // verdict: judge the item's variants so without running anything (a
  // compiler's rejection, or a fault not attributed one by one).
  std::optional<CaseVerdict> verdict;

  // size is how many indices the item covers.
  size_t size() const { return listed.empty() ? static_cast<size_t>(end - begin) : listed.size(); }
  // IndexAt is the item's `position`th index.
  std::int64_t IndexAt(size_t position) const {
    return listed.empty() ? begin + static_cast<std::int64_t>(position) : listed[position];
  }
};

// FaultPrediction names the registry entry that predicts a variant whose
// fault case text (TestProgram::FaultCaseText) is `text` faults on the
// run's target and toolchain, or is empty. `thread` is the host thread
// that asks (0 to CaseWorkContext::threads - 1).
using FaultPrediction = std::function<std::string(const std::string& text, int thread)>;

// FaultTextMemo remembers the registry's answer for each fault case text
// (TestProgram::FaultCaseText): a case's variants share a few dozen texts,
// and a regex search per variant would cost more than the model does. Each
// host thread has answers of its own, so that no lock is taken.
class FaultTextMemo {
 public:
  explicit FaultTextMemo(int threads) : answers_(threads) {}
  // Find is the answer for `text` on `thread`, from `compute` the first
  // time that thread asks.
  const std::string& Find(int thread, const std::string& text,
                          const std::function<std::string(const std::string&)>& compute);

 private:
  std::vector<absl::flat_hash_map<std::string, std::string>> answers_;
};

// CaseWorkContext is what every item of a worker shares.
struct CaseWorkContext {
  int device = 0;      // the GPU's ordinal
  int threads = 1;     // host threads of the pipeline
  int blocks = 16384;  // most variants per launch
  size_t keep = 16;    // failing variants a summary names
  FaultPrediction predict;
};

// Takes says whether `work` runs a variant of `role` predicted by `entry`.
bool Takes(const CaseWork& work, VariantRole role, const std::string& entry);

// RunCaseWork runs in a worker: it runs `work` on the GPU and returns its
// summary. A module the compiler rejects is a verdict (legal form
// rejected) on every variant the item takes; a fault or a hang is not
// caught here: it ends the worker, and the run splits the item
// (conformance_run.cc). An item with a verdict runs nothing. The summary's
// `seconds` say where the item's time went.
absl::StatusOr<CaseSummary> RunCaseWork(const CaseWork& work, const CaseWorkContext& context);

// JudgeWithout judges `work`'s variants as `verdict` without running
// anything, counting what it leaves out as RunCaseWork does.
CaseSummary JudgeWithout(const CaseWork& work, const CaseWorkContext& context, const CaseVerdict& verdict);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_CASE_WORK_H_
