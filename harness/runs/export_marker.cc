#include "harness/runs/export_marker.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// kMarkerWindow is how much of a file's start is searched for its marker:
// every marker is written within its first lines.
constexpr std::streamsize kMarkerWindow = 4096;

// KindName names `kind` in markers and messages.
absl::string_view KindName(ExportKind kind) {
  switch (kind) {
    case ExportKind::kJunit:
      return "junit export";
    case ExportKind::kRunPage:
      return "run-page";
    case ExportKind::kDiffPage:
      return "diff-page";
    case ExportKind::kRunsIndex: return "runs-index";
  }
  return "";
}

// Safe is `runs` with every character a marker cannot hold as it is (one
// XML or HTML would escape, or a second '-' in a row, which would end an
// XML comment) made '_'. A run ID has none.
std::string Safe(absl::string_view runs) {
  std::string safe;
  for (const char c : runs) {
    const bool kept = absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ' ' ||
                      (c == '-' && (safe.empty() || safe.back() != '-'));
    safe.push_back(kept ? c : '_');
  }
  return safe;
}

// Described is what a marker says of its file: "junit export of run ID",
// "diff-page of runs A B", "runs-index of store PATH".
std::string Described(ExportKind kind, absl::string_view runs) {
  const absl::string_view of = kind == ExportKind::kDiffPage    ? " of runs "
                               : kind == ExportKind::kRunsIndex ? " of store "
                                                                : " of run ";
  return absl::StrCat(KindName(kind), of, Safe(runs));
}

}  // namespace

std::string ExportMarker(ExportKind kind, absl::string_view runs) {
  if (kind == ExportKind::kJunit) return absl::StrCat("<!-- matload ", Described(kind, runs), " -->");
  return absl::StrCat("<meta name=\"matload-export\" content=\"", Described(kind, runs), "\">");
}

absl::Status CheckReplaceable(const std::string& path, ExportKind kind, absl::string_view runs) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return absl::OkStatus();
  // Only a regular file is opened: opening a FIFO would wait for its writer.
  if (std::filesystem::is_regular_file(path, error)) {
    std::string head(kMarkerWindow, '\0');
    std::ifstream file(path, std::ios::binary);
    file.read(head.data(), kMarkerWindow);
    head.resize(static_cast<size_t>(file.gcount()));
    if (absl::StrContains(head, ExportMarker(kind, runs))) return absl::OkStatus();
  }
  return absl::AlreadyExistsError(absl::StrCat(path, " exists and is not an earlier ", Described(kind, runs),
                                               "; an export never writes over another file (remove it first)"));
}

}  // namespace matload
