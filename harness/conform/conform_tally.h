// ConformTally: a conform run's cases in flight, each gathered into one case
// record (harness/runs/case_record.h). A case is one form on one compile
// path (and, apart, its undefined variants); its record counts its
// variants by outcome, keeps the first failing variants' indices, and takes
// the most severe outcome as its own, so that results are one row per
// case, never one per execution.
//
// Workers' summaries (case_summary.h) and single variants judged in the
// run itself (confirmations, faults attributed one by one) are both added
// here; the executor hands every case over once all its work is done, so
// that what a run has recorded in the results store and what its totals
// and bundle index say always agree, however it was interrupted
// (conformance_run.h).
#ifndef MATLOAD_HARNESS_CONFORM_CONFORM_TALLY_H_
#define MATLOAD_HARNESS_CONFORM_CONFORM_TALLY_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/judge/case_judge.h"
#include "harness/judge/case_summary.h"
#include "harness/runs/case_record.h"

namespace matload {

// kFirstFailuresKept is how many failing variants a case record names
// unless the run says otherwise (--first_failures).
inline constexpr size_t kFirstFailuresKept = 16;

// JudgedVariant is one variant's verdict, as the tally counts it.
struct JudgedVariant {
  std::int64_t index = 0;
  CaseClass kind = CaseClass::kPass;
  std::string detail;         // the verdict's first line
  std::string bundle;         // the bundle it was filed in, relative to the run directory, or empty
  bool ran = false;           // it ran to completion and was compared (or recorded, when undefined)
  size_t words_compared = 0;  // register words compared
  std::string registry_miss;  // a registry entry this variant showed to over-predict, or empty
};

// TalliedCase is a complete case: its record, and what it adds to the run's totals.
struct TalliedCase {
  CaseRecord record;
  std::string family;                   // "ldmatrix", as the summary table groups
  std::map<CaseClass, size_t> classes;  // variants by class
  size_t executions = 0;                // variants that ran to completion
  size_t judged_on_device = 0;          // of those, the variants the GPU judged alone
  SmVerdicts per_sm;                    // CaseSummary::per_sm
  size_t words_compared = 0;
  size_t failing_variants = 0;  // variants that need a person, registry misses included
  std::vector<std::string> registry_misses;
  std::map<std::string, size_t> bundle_cases;  // variants filed per bundle
};

// ConformTally gathers the variants of the cases in flight.
class ConformTally {
 public:
  // A tally whose records name the first `keep` failing variants.
  explicit ConformTally(size_t keep = kFirstFailuresKept) : keep_(keep) {}

  // Expect says case `id` of `family` is in flight.
  void Expect(const std::string& id, const std::string& family);
  // Add counts one judged variant of case `id`.
  void Add(const std::string& id, const JudgedVariant& variant);
  // AddSummary counts a worker's summary of case `id`'s variants, whose
  // samples were filed in the bundles `bundles` names by signature.
  void AddSummary(const std::string& id, const CaseSummary& summary, const std::map<std::string, std::string>& bundles);
  // NoteRegistryMiss notes that a registry entry over-predicted a fault in case `id`.
  void NoteRegistryMiss(const std::string& id, std::string miss) {
    cases_[id].tallied.registry_misses.push_back(std::move(miss));
  }
  // NoteUnreproduced notes a fault or hang of case `id` that did not
  // happen again: the case becomes a flake, whose attempts say what
  // happened first and what happened then.
  void NoteUnreproduced(const std::string& id, CaseClass kind, std::string what) {
    cases_[id].unreproduced.push_back({kind, std::move(what)});
  }
  // Take hands over the cases `ids`, whose every variant is done, that
  // judged any variant, in case ID order, and forgets them. The other cases
  // stay in flight.
  std::vector<TalliedCase> Take(const std::vector<std::string>& ids);

 private:
  // Gathered is a case in flight.
  struct Gathered {
    TalliedCase tallied;
    CaseSummary summary;                                          // every variant so far, without samples
    std::int64_t first_failure = -1;                              // the index whose detail and bundle name the case
    std::vector<std::pair<CaseClass, std::string>> unreproduced;  // faults and hangs that did not happen again
  };
  // NoteFailure makes variant `index` the case's first failure when it comes first.
  static void NoteFailure(Gathered& gathered, std::int64_t index, const std::string& detail, const std::string& bundle);
  // Complete is a gathered case's record and totals, as Take hands them over.
  static TalliedCase Complete(Gathered gathered);

  size_t keep_;
  std::map<std::string, Gathered> cases_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_CONFORM_TALLY_H_
