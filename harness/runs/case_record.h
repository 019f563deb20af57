// CaseRecord and RunRecord: what matload keeps of a run and of each of its
// cases, as plain values. The results store (results_store.h) saves them;
// baselines, run diffs and the JUnit and CSV exports read them. A case is
// named by its stable case ID (case_id.h), which is the key everywhere.
#ifndef MATLOAD_HARNESS_RUNS_CASE_RECORD_H_
#define MATLOAD_HARNESS_RUNS_CASE_RECORD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "harness/runs/case_outcome.h"

namespace matload {

// OutcomeCounts are a case's variants per outcome: conform's, a soak's
// and support's cases count them; a case of one verdict has none.
using OutcomeCounts = std::map<CaseOutcome, std::int64_t>;

// CampaignFigures are a fuzz campaign's figures, kept with the campaign's
// own case (fuzz_command.cc): libFuzzer's runs, the findings and crash
// files the campaign filed, and the coverage and corpus it reached.
struct CampaignFigures {
  std::int64_t runs = 0;
  std::int64_t findings = 0;
  std::int64_t crashes = 0;
  std::int64_t coverage = 0;
  std::int64_t corpus = 0;

  friend bool operator==(const CampaignFigures&, const CampaignFigures&) = default;
};

// CaseRecord is one case's result in one run.
struct CaseRecord {
  std::string id;  // the stable case ID: "wmma_load.a.row.m16n16k16.shared.f16.addr32.driver_jit"
  // outcome: "pass", "mismatch", "known_fault", "legal_rejected", ...
  // (harness/runs/case_outcome.h), or "flake" when re-runs of the case
  // disagreed; kUnjudged until a command gives it one, which the results
  // store refuses to write.
  CaseOutcome outcome = CaseOutcome::kUnjudged;
  // finding: the outcome needs a person (the GPU or a toolchain disagrees
  // with the model, unexplained). Baselines and diffs compare findings.
  bool finding = false;
  OutcomeCounts counts;                      // variants per outcome (case_counts.h spells them)
  std::optional<CampaignFigures> campaign;   // a fuzz campaign's figures, on its own case only
  std::vector<std::int64_t> first_failures;  // the first failing variants' indices, at most K
  std::vector<CaseOutcome> attempts;         // each re-run's outcome when the case was re-run, in order
  std::string detail;                        // the first failure's one-line message, or the registry entry
  std::string bundle;                        // the bundle directory, relative to the run directory; or empty
  double seconds = 0;                        // time spent on the case

  friend bool operator==(const CaseRecord&, const CaseRecord&) = default;
};

// RunRecord is one run of `conform`, `support` or `fuzz`.
struct RunRecord {
  std::string id;               // "conform-20261124T052300Z-3f9a1c2e": the command, start time and a random suffix
  std::string command;          // "conform", "support" or "fuzz"
  std::string command_line;     // as typed
  std::string matload_version;  // matload's version and build type
  std::string git_commit;       // the commit matload was built from, or "unknown"
  // registry_digest: the SHA-256 of the discrepancy registry that judged
  // the run (registry_in_force.h); empty for a run an older matload stored.
  std::string registry_digest;
  std::string toolkits;  // "ptxas 13.0.88; nvJitLink 13.0"
  std::string driver;    // "CUDA driver 13000 (580.159.04)", or empty without a GPU
  std::string gpu_name;  // empty without a GPU
  std::string gpu_uuid;
  std::string host;
  std::string directory;  // the run directory
  // options: what decides the run's case list and results, as JSON; a
  // resumed run must be asked for with the same.
  std::string options;
  // parent: for a shard, the run it is a shard of (ShardParent); for a run
  // that matload merge joined from shards, the same name, which links it to
  // them; else empty.
  std::string parent;
  std::string shard;  // "I/N" for a shard; else empty
  absl::Time started = absl::InfinitePast();
  absl::Time ended = absl::InfinitePast();  // InfinitePast while it runs
  // status: "running", "clean", "findings", "infrastructure" (it could not
  // judge everything), "interrupted" (SIGINT, SIGTERM, SIGHUP, SIGUSR1 or SIGUSR2), or "killed" (it
  // stopped without saying why: found so when resumed or listed).
  std::string status = "running";
  int exit_status = -1;  // harness/platform/exit_status.h; -1 while it runs

  friend bool operator==(const RunRecord&, const RunRecord&) = default;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_CASE_RECORD_H_
