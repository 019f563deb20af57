// PtxVersion: a PTX ISA version (".version 8.8") as a value, and the table
// of released versions with the CUDA release that first shipped each.
#ifndef MATLOAD_REFERENCE_PTX_VERSION_H_
#define MATLOAD_REFERENCE_PTX_VERSION_H_

#include <compare>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

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

// CudaRelease is a CUDA toolkit or driver API release, "13.0".
struct CudaRelease {
  int major = 0;
  int minor = 0;

  friend auto operator<=>(const CudaRelease&, const CudaRelease&) = default;
  friend bool operator==(const CudaRelease&, const CudaRelease&) = default;
};

// PtxRelease is one row of the release table: a PTX ISA version and the
// CUDA release that first shipped it (the PTX ISA document's release
// history; from CUDA 11.8 on also measured: each ptxas names the newest
// version it speaks, docs/adding-a-ptx-version.md).
struct PtxRelease {
  PtxVersion version;
  CudaRelease cuda;
};

// PtxReleases lists every PTX ISA version matload models, oldest first:
// 6.0 (the first with wmma, CUDA 9.0) to 9.5 (CUDA 13.5).
const std::vector<PtxRelease>& PtxReleases();

// ParsePtxVersion accepts a released PTX ISA version ("6.0" to "9.5") and
// rejects anything else, because a gate against an unreleased version would
// be meaningless. The error names the newest version and how to add one.
absl::StatusOr<PtxVersion> ParsePtxVersion(absl::string_view text);

// ParsePtxVersionNumbers reads any "MAJOR.MINOR", released or not: what a
// compiler says it speaks may be newer than the table.
absl::StatusOr<PtxVersion> ParsePtxVersionNumbers(absl::string_view text);

// AllPtxVersions lists the versions of PtxReleases(), oldest first.
const std::vector<PtxVersion>& AllPtxVersions();

// NewestPtxVersion is the last entry of AllPtxVersions().
PtxVersion NewestPtxVersion();

// NewestPtxVersionOf is the newest PTX ISA version a compiler of CUDA
// release `cuda` speaks: that of the newest table row shipped by `cuda` or
// earlier, or nullopt before CUDA 9.0. A release newer than the table maps
// to NewestPtxVersion(), which it speaks at least.
std::optional<PtxVersion> NewestPtxVersionOf(CudaRelease cuda);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_PTX_VERSION_H_
