// BundleWriter: one self-contained directory per distinct divergence.
//
// A bundle holds what a triager needs and nothing of matload's: the case
// (form, target, PTX version, toolkit, driver, GPU, seed, variant), the
// kernel's PTX, the variant's record, the expected and the actual output,
// a diff in element terms, and repro.cpp, which needs only cuda.h. Cases are
// deduplicated by signature (the family, the outcome class and the mismatch
// pattern or fault), so a bug that hits every form is one bundle, counted.
#ifndef MATLOAD_HARNESS_CONFORM_BUNDLE_WRITER_H_
#define MATLOAD_HARNESS_CONFORM_BUNDLE_WRITER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/families/test_program.h"
#include "harness/judge/case_judge.h"
#include "nlohmann/json.hpp"

namespace matload {

// BundleCase is one case worth a bundle.
struct BundleCase {
  const TestProgram* program = nullptr;
  Variant variant;
  std::uint64_t seed = 0;
  std::string compile_path;  // CompilePathName: "driver-jit", "ptxas-cubin"; an offline path writes kernel.cubin
  std::string identity;      // toolkit, driver and GPU, one line
  CaseVerdict verdict;
  Outcome expected;
  std::vector<std::uint8_t> actual;  // empty when the kernel never completed
};

// BundleSignature is the case's deduplication key, e.g.
// "ldmatrix/mismatch/moved-128-words-1c2e4f10".
std::string BundleSignature(const BundleCase& bundle_case);

// BundleWriter writes bundles under one directory.
class BundleWriter {
 public:
  explicit BundleWriter(std::string directory) : directory_(std::move(directory)) {}

  // Add files a case. The first case of a signature gets a directory
  // (NNN-family-class); later ones share it. It returns the bundle's
  // directory. Cases are counted apart (Count), when the run records them.
  absl::StatusOr<std::string> Add(const BundleCase& bundle_case);
  // Count counts `cases` more cases against the bundle in `directory`.
  void Count(const std::string& directory, size_t cases);

  // WriteIndex writes index.tsv: signature, cases, the bundle's directory
  // (its name, beside index.tsv), first case.
  absl::Status WriteIndex() const;

  // State is what the writer has filed, and Restore takes it back, so that
  // a resumed run (harness/runs/run_journal.h) numbers and counts its
  // bundles as an uninterrupted one does. It holds each bundle's path as
  // OutsideText (harness/platform/outside_text.h), since JSON holds only
  // UTF-8. A state that does not read back is kDataLoss.
  nlohmann::json State() const;
  absl::Status Restore(const nlohmann::json& state);

  // distinct is the number of bundles; cases the number of cases filed.
  size_t distinct() const { return bundles_.size(); }
  size_t cases() const;

 private:
  struct Filed {
    std::string directory;
    std::string first_case;
    size_t cases = 0;
  };
  std::string directory_;
  std::map<std::string, Filed> bundles_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_CONFORM_BUNDLE_WRITER_H_
