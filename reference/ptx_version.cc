#include "reference/ptx_version.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace matload {

std::string PtxVersion::ToString() const { return absl::StrCat(major, ".", minor); }

const std::vector<PtxVersion>& AllPtxVersions() {
  // The PTX ISA release table: 6.0-6.5, 7.0-7.8, 8.0-8.8, 9.0.
  static const std::vector<PtxVersion>* const kVersions = [] {
    auto* versions = new std::vector<PtxVersion>();
    const std::pair<int, int> kLastMinor[] = {{6, 5}, {7, 8}, {8, 8}, {9, 0}};
    for (const auto& [major, last_minor] : kLastMinor) {
      for (int minor = 0; minor <= last_minor; ++minor) versions->push_back({major, minor});
    }
    return versions;
  }();
  return *kVersions;
}

PtxVersion NewestPtxVersion() { return AllPtxVersions().back(); }

absl::StatusOr<PtxVersion> ParsePtxVersion(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, '.');
  PtxVersion version;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &version.major) ||
      !absl::SimpleAtoi(parts[1], &version.minor)) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed PTX ISA version '", text, "': expected MAJOR.MINOR such as 9.0"));
  }
  const auto& all = AllPtxVersions();
  if (std::find(all.begin(), all.end(), version) == all.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown PTX ISA version '", text, "': known versions are ",
        absl::StrJoin(all, ", ", [](std::string* out, PtxVersion v) { out->append(v.ToString()); })));
  }
  return version;
}

}  // namespace matload
