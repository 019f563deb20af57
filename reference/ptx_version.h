// PtxVersion: a PTX ISA version (".version 8.8") as a value.
#ifndef MATLOAD_REFERENCE_PTX_VERSION_H_
#define MATLOAD_REFERENCE_PTX_VERSION_H_

#include <compare>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"

namespace matload {

// PtxVersion is the "major.minor" of a module's .version directive. Versions
// compare in release order, so gates read as `version >= PtxVersion{7, 8}`.
struct PtxVersion {
  int major = 0;
  int minor = 0;

  friend auto operator<=>(const PtxVersion&, const PtxVersion&) = default;
  friend bool operator==(const PtxVersion&, const PtxVersion&) = default;

  // ToString spells the version as PTX does: "9.0".
  std::string ToString() const;
};

// ParsePtxVersion accepts a released PTX ISA version ("6.0" to "9.0") and
// rejects anything else, because a gate against an unreleased version would
// be meaningless.
absl::StatusOr<PtxVersion> ParsePtxVersion(absl::string_view text);

// AllPtxVersions lists every PTX ISA version matload models, oldest first:
// 6.0 (the first with wmma) to 9.0 (CUDA 13.0).
const std::vector<PtxVersion>& AllPtxVersions();

// NewestPtxVersion is the last entry of AllPtxVersions().
PtxVersion NewestPtxVersion();

}  // namespace matload

#endif  // MATLOAD_REFERENCE_PTX_VERSION_H_
