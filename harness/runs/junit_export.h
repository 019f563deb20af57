// JunitExport: a run as JUnit XML (`matload export RUN --junit F.xml`), as
// Jenkins (its JUnit and xUnit plugins) and GitLab (artifacts:reports:junit)
// read it, so that matload's findings show as failed tests with their
// history, what the registry or a baseline explains as skipped tests that
// say why, and a run that could not judge as an error. Every document is
// valid against the schema Jenkins' xUnit plugin reads JUnit with
// (harness/runs/junit-jenkins.xsd, checked by junit_export_test). It is
// pure: it turns records (case_record.h) into text; the caller writes the
// files.
#ifndef MATLOAD_HARNESS_RUNS_JUNIT_EXPORT_H_
#define MATLOAD_HARNESS_RUNS_JUNIT_EXPORT_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "harness/runs/case_record.h"
#include "harness/runs/sm_verdicts.h"

namespace matload {

// kMostJunitBytes is the most one JUnit file holds: GitLab reads no
// report over 30 MB, and Jenkins reads a large one slowly.
inline constexpr size_t kMostJunitBytes = 28'000'000;

// JunitContext is what an export knows of a run besides the store.
struct JunitContext {
  // expected: the failures a baseline expects (Baseline::expected: case ID
  // -> outcome), from `export --baseline`. A finding it lists with its
  // outcome is <skipped>, as the run held against it calls it expected.
  std::map<std::string, std::string> expected;
  // judgements: each discrepancy registry entry's one-line judgement, by
  // entry ID. A case an entry explains is <skipped>, naming the entry and,
  // where it is known here, its judgement.
  std::map<std::string, std::string> judgements;
  // most_bytes: the most one document may hold (JunitXml).
  size_t most_bytes = kMostJunitBytes;
  // sm_verdicts: the GPU judge's verdicts by GPU and SM (the run's
  // kSmVerdictsArtifact), said in the properties "sms_judged" and
  // "sms_that_disagreed".
  SmVerdicts sm_verdicts;
};

// JunitXml is the run as JUnit XML: one document, or, when its testcases
// do not fit in context.most_bytes, as many as they fill, in order, each
// whole and valid on its own, with a property "part" ("2 of 3"). Each
// document is <testsuites> holding one <testsuite> named "matload
// COMMAND", with the run's ID, versions, GPU, directory, status and how it
// ended as <properties>, after the file's ExportMarker (export_marker.h),
// timed by the run's wall clock (the sum of its
// cases' times while it has no end); its counts count its own testcases.
//
// Each case is one <testcase> (a support run's are grouped, below),
// timed by the case's recorded seconds. A case's classname is its ID up to
// the last dot and its name the last token: Jenkins shows a test as
// "classname.name", which is then exactly the case ID (to paste into
// --include, and stable across runs, so that a test's history follows the
// case), and groups tests into packages by the text before the
// classname's last dot; GitLab shows the two as the suite and name
// columns. An ID without a dot gets classname "matload".
//
//   - A finding is a <failure> of type OUTCOME, message "OUTCOME: DETAIL",
//     and a body naming its counts, first failing variants, attempts and
//     bundle path (the run directory joined with the bundle); unless the
//     context's baseline expects it: then it is <skipped>, "expected by
//     the baseline: OUTCOME: DETAIL".
//   - A case the discrepancy registry explains (a known fault, or a known
//     discrepancy between the model and a compiler) is <skipped>, "known
//     discrepancy ENTRY (OUTCOME): JUDGEMENT".
//   - A case that was not run ("unsupported", "not_compiled") is
//     <skipped>, "OUTCOME: DETAIL". Every other case passed.
//   - A run that did not finish (Finished: interrupted, refused, without a
//     GPU, stopped by an infrastructure failure, or still running) gets
//     one more testcase, first, classname "matload" and name "run", with
//     an <error> of type STATUS saying how it ended (HowItEnded), so that
//     a run without a GPU is a valid file of one error, not 0 tests.
//
// A support sweep of every target has 481,741 cases (ptxas 13.0.88 at
// PTX 9.0; 57 MB as one testcase each), so a support run's testcases are
// groups (SupportCaseGroup, case_id.h), classname "TARGET.FAMILY": one per
// qualifier set (name: the qualifiers) that some case writes with a
// standard operand style (a legal form, or a near miss that decodes),
// holding those cases and the near misses with other operands that decode
// to it, and one per target and family for the other near misses (name
// "near misses"). A group is timed by its cases' sum; it is a <failure>
// if one of its cases is one (the body lists each failing case), else
// <skipped> if one is (the message says why, with how many cases), else
// passed; and its <system-out> lists every case of the group under its
// outcome, by what follows the group's name in its ID. That full sweep is
// then one file of 22.5 MB and 52,480 testcases; a sweep of several
// compilers is several files.
//
// Every text is escaped, and a character XML 1.0 does not allow (control
// characters, invalid UTF-8) becomes U+FFFD, so the document is
// well-formed whatever a detail message holds.
std::vector<std::string> JunitXml(const RunRecord& run, absl::Span<const CaseRecord> cases,
                                  const JunitContext& context);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_JUNIT_EXPORT_H_
