// FindingStore: where fuzz targets file what they find, one directory per
// distinct signature, shared by every job of a campaign.
//
// A finding is something no known-discrepancy registry entry explains: a
// model/compiler disagreement, a broken spec invariant, a GPU result that
// differs from the model. Inside `matload fuzz` (which sets
// $MATLOAD_FINDINGS_DIR) a finding is filed and the campaign goes on; run
// bare, as ClusterFuzz-style runners run a target, a finding is a crash
// whose input is the reproducer.
#ifndef MATLOAD_FUZZ_FINDING_STORE_H_
#define MATLOAD_FUZZ_FINDING_STORE_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// Finding is one thing a target found.
struct Finding {
  // signature deduplicates: equal signatures are one bug. It names the
  // target, the family and the kind of disagreement, never the particular
  // registers or addresses ("legality/sm_90/compiler-accepts/ldmatrix/vector-length").
  std::string signature;
  std::string summary;    // what disagrees, in a paragraph
  std::string case_text;  // the encoded fuzz case: the fuzz target replays it
  std::vector<std::pair<std::string, std::string>> files;  // more files: name, contents
};

// FindingStore files findings under one directory.
class FindingStore {
 public:
  explicit FindingStore(std::string directory) : directory_(std::move(directory)) {}

  // FromEnvironment is the store $MATLOAD_FINDINGS_DIR names, if set.
  static std::optional<FindingStore> FromEnvironment();

  // File writes a new signature's directory (SLUG-HASH, created atomically,
  // so two jobs never both file it) with finding.md, case.txt and the
  // finding's files; a known signature only gets the case appended to
  // cases.txt. It returns whether the signature was new.
  absl::StatusOr<bool> File(const Finding& finding) const;

  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
};

// ReportFinding files `finding` in the environment's store and returns;
// with no store it prints the finding and aborts, so the runner keeps the
// input as a crash. A store that cannot be written also aborts: a finding
// is never lost.
void ReportFinding(const Finding& finding);

}  // namespace matload

#endif  // MATLOAD_FUZZ_FINDING_STORE_H_
