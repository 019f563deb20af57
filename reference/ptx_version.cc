#include "reference/ptx_version.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace matload {

std::string PtxVersion::ToString() const { return absl::StrCat(major, ".", minor); }

const std::vector<PtxRelease>& PtxReleases() {
  // The PTX ISA release history (each PTX ISA document's "PTX ISA Version"
  // chapter names the CUDA release of every version). 8.6 shipped with no
  // public toolkit of its own: ptxas 12.8.93 speaks 8.7. From 11.8 on each
  // row is also what that release's ptxas says it speaks ("current version
  // is 'X.Y'", reports/support/history/).
  static const std::vector<PtxRelease>* const kReleases = new std::vector<PtxRelease>{
      {{6, 0}, {9, 0}},  {{6, 1}, {9, 1}},  {{6, 2}, {9, 2}},  {{6, 3}, {10, 0}}, {{6, 4}, {10, 1}}, {{6, 5}, {10, 2}},
      {{7, 0}, {11, 0}}, {{7, 1}, {11, 1}}, {{7, 2}, {11, 2}}, {{7, 3}, {11, 3}}, {{7, 4}, {11, 4}}, {{7, 5}, {11, 5}},
      {{7, 6}, {11, 6}}, {{7, 7}, {11, 7}}, {{7, 8}, {11, 8}}, {{8, 0}, {12, 0}}, {{8, 1}, {12, 1}}, {{8, 2}, {12, 2}},
      {{8, 3}, {12, 3}}, {{8, 4}, {12, 4}}, {{8, 5}, {12, 5}}, {{8, 6}, {12, 7}}, {{8, 7}, {12, 8}}, {{8, 8}, {12, 9}},
      {{9, 0}, {13, 0}}, {{9, 1}, {13, 1}}, {{9, 2}, {13, 2}}, {{9, 3}, {13, 3}}, {{9, 4}, {13, 4}}, {{9, 5}, {13, 5}},
  };
  return *kReleases;
}

const std::vector<PtxVersion>& AllPtxVersions() {
  static const std::vector<PtxVersion>* const kVersions = [] {
    auto* versions = new std::vector<PtxVersion>();
    for (const PtxRelease& release : PtxReleases()) versions->push_back(release.version);
    return versions;
  }();
  return *kVersions;
}

PtxVersion NewestPtxVersion() { return AllPtxVersions().back(); }

std::optional<PtxVersion> NewestPtxVersionOf(CudaRelease cuda) {
  std::optional<PtxVersion> newest;
  for (const PtxRelease& release : PtxReleases()) {
    if (release.cuda <= cuda) newest = release.version;
  }
  return newest;
}

absl::StatusOr<PtxVersion> ParsePtxVersionNumbers(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, '.');
  PtxVersion version;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &version.major) || !absl::SimpleAtoi(parts[1], &version.minor) ||
      version.major < 0 || version.minor < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed PTX ISA version '", text, "': expected MAJOR.MINOR such as 9.0"));
  }
  return version;
}

absl::StatusOr<PtxVersion> ParsePtxVersion(absl::string_view text) {
  absl::StatusOr<PtxVersion> version = ParsePtxVersionNumbers(text);
  if (!version.ok()) return version.status();
  const auto& all = AllPtxVersions();
  if (std::find(all.begin(), all.end(), *version) == all.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown PTX ISA version '", text, "': matload knows ", all.front().ToString(), " to ",
        NewestPtxVersion().ToString(), " (no 6.6-6.9, 7.9 or 8.9 was released); a newer version is added to ",
        "reference/ptx_version.cc as docs/adding-a-ptx-version.md says"));
  }
  return *version;
}

}  // namespace matload
