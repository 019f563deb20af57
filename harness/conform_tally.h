// ConformTally: a conform case's variants gathered into one case record
// (harness/runs/case_record.h). A case is one form on one compile path
// (and, apart, its undefined variants); its record counts its variants by
// outcome, keeps the first failing variants' indices, and takes the most
// severe outcome as its own, so that results are one row per case, never
// one per execution.
//
// Everything a run counts is counted per case here and handed over only
// when the case is complete (every variant judged), so that what a run
// has recorded in the results store and what its totals and bundle index
// say always agree, however it was interrupted (conformance_run.h).
#ifndef MATLOAD_HARNESS_CONFORM_TALLY_H_
#define MATLOAD_HARNESS_CONFORM_TALLY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/case_judge.h"
#include "harness/runs/case_record.h"

namespace matload {

// kFirstFailuresKept is how many failing variants a case record names.
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
  size_t words_compared = 0;
  size_t findings = 0;  // variants that need a person, registry misses included
  std::vector<std::string> registry_misses;
  std::map<std::string, size_t> bundle_cases;  // variants filed per bundle
};

// ConformTally gathers the variants of the cases in flight.
class ConformTally {
 public:
  // Expect says case `id` of `family` has `variants` variants to judge.
  void Expect(const std::string& id, const std::string& family, size_t variants);
  // Add counts one judged variant of case `id`; the first failing
  // variant's detail and bundle become the case's.
  void Add(const std::string& id, const JudgedVariant& variant);
  // TakeComplete hands over the cases whose every variant is judged, in
  // case ID order, and forgets them.
  std::vector<TalliedCase> TakeComplete();

 private:
  // Gathered is a case in flight.
  struct Gathered {
    TalliedCase tallied;
    CaseClass worst = CaseClass::kPass;
    size_t expected = 0;
    size_t judged = 0;
  };
  std::map<std::string, Gathered> cases_;
};

// Severity orders classes for a case's outcome: findings first, then the
// faults the model or the registry explain, then undefined cases, then pass.
int Severity(CaseClass kind);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_TALLY_H_
