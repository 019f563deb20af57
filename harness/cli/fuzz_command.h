// `matload fuzz`: a libFuzzer campaign over the chosen fuzz targets, with
// progress, findings and coverage growth written under one run directory.
#ifndef MATLOAD_HARNESS_CLI_FUZZ_COMMAND_H_
#define MATLOAD_HARNESS_CLI_FUZZ_COMMAND_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/runs/run_journal.h"
#include "harness/runs/shard.h"

namespace matload {

// FuzzCampaignOptions say what to fuzz, for how long and where.
struct FuzzCampaignOptions {
  std::vector<std::string> targets;  // text, legality, reference, device
  int seconds = 60;                  // per target, all targets at once
  int jobs = 1;                      // libFuzzer -fork jobs per target
  std::string gpus;                  // CUDA_VISIBLE_DEVICES for the device target
  std::uint64_t seed = 1;
  std::string out;                        // the run directory
  std::vector<std::string> fuzzer_dirs;  // where NAME_fuzzer binaries are looked for, in order
  std::string source_dir;                // corpora/, fuzz/ptx.dict, the registry
  // journal: the run in the results store (harness/runs/run_journal.h).
  // Each target's campaign is a case ("fuzz.text"), and each finding
  // signature and crash file one more ("fuzz.text.finding.SIGNATURE",
  // "fuzz.text.crash.FILE"); a resumed run fuzzes again, on the corpus it
  // had, the targets whose campaign was not recorded. Null: no store.
  RunJournal* journal = nullptr;
  // shard: fuzz only the targets of this shard (--shard), each target's
  // campaign whole in one shard (harness/runs/shard.h).
  Shard shard;
  int progress_seconds = 10;  // off a terminal, a progress line this often (ProgressReporter)
};

// FuzzerStatus is one libFuzzer -fork status line, read:
// "#187: cov: 9922 ft: 8829 corp: 61 exec/s 39 oom/timeout/crash: 0/0/1 time: 15s job: 3 dft_time: 0".
struct FuzzerStatus {
  std::int64_t runs = 0;
  std::int64_t coverage = 0;  // cov: edges
  std::int64_t features = 0;  // ft:
  std::int64_t corpus = 0;
  std::int64_t exec_per_second = 0;
  std::int64_t crashes = 0;
  std::int64_t seconds = 0;
  friend bool operator==(const FuzzerStatus&, const FuzzerStatus&) = default;
};

// ParseFuzzerStatus reads a status line, or nullopt for any other line.
std::optional<FuzzerStatus> ParseFuzzerStatus(absl::string_view line);

// RunFuzzCampaign runs the campaign, printing progress (exec/s, coverage,
// findings, distinct signatures) to `out`, and writes summary.md,
// summary.json and coverage.tsv in the run directory, beside each target's
// corpus, findings and crashes. It returns 0 with nothing found, 1 with
// findings or crashes, 2 for bad options or a fuzzer that cannot start.
int RunFuzzCampaign(const FuzzCampaignOptions& options, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_FUZZ_COMMAND_H_
