// Baseline: a run's expected failures, in the manner of deqp-runner's
// baseline files, so that a nightly run on a known-bad driver or GPU fails
// only on what is new. A baseline is CSV text of `case-id,outcome` lines,
// one per finding the run it was made from had, sorted by case ID, under
// comment lines that say what it was made for:
//
//   # matload baseline
//   # gpu: NVIDIA H100 80GB HBM3
//   # driver: CUDA driver 13000 (580.159.04)
//   # toolkits: ptxas 13.0.88; nvJitLink 13.0
//   # run: conform-20261124T052300Z-3f9a1c2e
//   wmma_load.a.row.m16n16k16.shared.f16.addr32.driver_jit,mismatch
//
// A run is then held against it case by case (CompareToBaseline): a
// finding the baseline expects with the same outcome is expected, any
// other finding a regression, and a baseline line whose case no longer
// fails is fixed, so the file can be pruned.
#ifndef MATLOAD_HARNESS_RUNS_BASELINE_H_
#define MATLOAD_HARNESS_RUNS_BASELINE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/runs/case_record.h"

namespace matload {

// Baseline is a parsed baseline file.
struct Baseline {
  // key holds the `# KEY: VALUE` comment lines before the first case line
  // ("gpu", "driver", "toolkits", "run", and any other), so that matload
  // can say when a baseline was made on another GPU, driver or toolkit.
  std::map<std::string, std::string> key;
  std::map<std::string, std::string> expected;  // case ID -> the outcome word the baseline expects

  friend bool operator==(const Baseline&, const Baseline&) = default;
};

// ParseBaseline reads a baseline file's text. Lines are trimmed of ASCII
// whitespace (so CRLF files read too); blank lines and lines starting with
// '#' are skipped, and a `# KEY: VALUE` line (KEY one lowercase word) before
// the first case line goes into Baseline::key. Every other line must be
// `CASE-ID,OUTCOME`: a case ID of letters, digits, '.', '_' and '-' (exact
// IDs only, no globs: a glob would expect every future failure it matches)
// and an outcome of one lowercase word ([a-z_]+). A line that is not is
// kInvalidArgument naming its line number and the line; a case ID or key
// given twice is kInvalidArgument naming both line numbers.
absl::StatusOr<Baseline> ParseBaseline(absl::string_view text);

// RenderBaseline writes the baseline of `run`: the header comments naming
// its GPU, driver, toolkits and run ID, then one line per case of `cases`
// whose `finding` is true, sorted by case ID. ParseBaseline reads it back.
std::string RenderBaseline(const RunRecord& run, absl::Span<const CaseRecord> cases);

// BaselineVerdict is what one case of a run is, held against a baseline.
enum class BaselineVerdict {
  kPass,        // not a finding, and the baseline does not list it
  kExpected,    // a finding the baseline lists with the same outcome
  kRegression,  // a finding the baseline does not list, or lists with another outcome
  kFixed,       // listed in the baseline, but no longer a finding
};

// BaselineVerdictName spells a verdict for reports: "pass", "expected",
// "regression", "fixed".
absl::string_view BaselineVerdictName(BaselineVerdict verdict);

// BaselineComparison is a run held against a baseline.
struct BaselineComparison {
  std::map<std::string, BaselineVerdict> verdicts;  // every case of the run, by case ID
  // unknown_ids are the baseline's case IDs that name no case of the run,
  // sorted. The caller decides: a whole run rejects them (a stale or
  // mistyped baseline, exit status 2); a run with a case filter expects
  // them.
  std::vector<std::string> unknown_ids;

  // Count is how many cases of the run have `verdict`.
  int Count(BaselineVerdict verdict) const;
};

// CompareToBaseline gives each case of `cases` its BaselineVerdict against
// `baseline` and lists the baseline IDs the run lacks.
BaselineComparison CompareToBaseline(absl::Span<const CaseRecord> cases, const Baseline& baseline);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_BASELINE_H_
