// CaseFilter: which cases a run takes, by case ID (case_id.h). A case list
// file (--cases: one ID or glob per line, '#' comments) and --include globs
// say what to take, everything when neither is given; --exclude globs
// then drop cases. Globs are fnmatch(3) patterns in which '*' also matches
// dots, so "wmma_load.*.driver_jit" takes every wmma.load case on the JIT.
// A run that is one shard of several (shard.h) may also be restricted to
// the cases of its shard, keyed by case ID.
#ifndef MATLOAD_HARNESS_RUNS_CASE_FILTER_H_
#define MATLOAD_HARNESS_RUNS_CASE_FILTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/runs/shard.h"

namespace matload {

// CaseFilter selects case IDs. A default CaseFilter selects every case.
class CaseFilter {
 public:
  // Make reads the case list at `cases_file` (none if empty) and takes the
  // --include and --exclude globs. A file that cannot be read is
  // kFailedPrecondition; a pattern with a character no case ID has
  // (outside letters, digits, "._-*?[]!") is kInvalidArgument naming it,
  // and its line for a file.
  static absl::StatusOr<CaseFilter> Make(const std::string& cases_file, const std::vector<std::string>& include,
                                         const std::vector<std::string>& exclude);

  // KeepShard restricts the filter to the cases of `shard`, each case's
  // shard decided by its ID (conform's shard key, shard.h).
  void KeepShard(Shard shard) { shard_ = shard; }

  // Selects says whether the run takes case `id`.
  bool Selects(absl::string_view id) const;
  // SelectsAll says whether the filter takes every case, so that a run can
  // say it is whole (a baseline line naming no case is then an error).
  bool SelectsAll() const { return take_.empty() && drop_.empty() && shard_.Whole(); }

 private:
  std::vector<std::string> take_;  // empty: take every case
  std::vector<std::string> drop_;
  Shard shard_;  // the whole run unless KeepShard says otherwise
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_CASE_FILTER_H_
