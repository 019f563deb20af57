// Exports: a run's results in the formats CI systems and other tools read
// (`matload export RUN_ID --junit F.xml --csv F.csv`), so that Jenkins and
// GitLab show matload's findings as failed tests with their history, and
// spreadsheets and deqp-runner-style scripts can read every case's outcome.
// Both are pure: they turn records (case_record.h) into text; the caller
// writes the files.
#ifndef MATLOAD_HARNESS_RUNS_EXPORTS_H_
#define MATLOAD_HARNESS_RUNS_EXPORTS_H_

#include <string>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// JunitXml is the run as a JUnit XML document: one <testsuite> named
// "matload COMMAND" (with the run's ID, versions, GPU and directory as
// <properties>) holding one <testcase> per case, in the order given.
//
// A case's classname is its ID up to the last dot and its name the last
// token: Jenkins shows a test as "classname.name", which is then exactly
// the case ID (to paste into --include, and stable across runs, so a
// test's history follows the case), and groups tests into packages by the
// text before the classname's last dot; GitLab shows the two as the
// suite and name columns. An ID without a dot gets classname "matload".
//
// A finding is a <failure> of type OUTCOME with message "OUTCOME: DETAIL"
// and a body naming its counts, first failing variants, attempts and
// bundle path (the run directory joined with the bundle). A case that is
// not a finding and whose outcome is "unsupported" or "not_compiled" is
// <skipped>; every other case passed. `errors` is always 0: a run that
// could not judge a case says so through its outcome. The suite's time is
// the sum of the cases' times. Every text is escaped, and a character XML
// 1.0 does not allow (control characters, invalid UTF-8) becomes U+FFFD, so
// the document is well-formed whatever a detail message holds.
std::string JunitXml(const RunRecord& run, absl::Span<const CaseRecord> cases);

// ResultsCsv is every case as CSV in the manner of deqp-runner's
// results.csv: the header "case,outcome,duration_s", then one
// "ID,OUTCOME,SECONDS" line per case in the order given, seconds to the
// millisecond. A field holding a comma, quote, CR or LF is quoted as RFC
// 4180 says; lines end in LF, which every CSV reader accepts.
std::string ResultsCsv(absl::Span<const CaseRecord> cases);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_EXPORTS_H_
