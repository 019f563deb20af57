#include "fuzz/finding_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/platform/environment.h"
#include "harness/platform/output_files.h"
#include "harness/runs/stable_hash.h"

namespace matload {
namespace {

// kSlugLength keeps directory names readable; the hash keeps them unique.
constexpr size_t kSlugLength = 80;

// AppendLine appends one line with a single write, which O_APPEND makes
// atomic against other jobs appending to the same file.
absl::Status AppendLine(const std::filesystem::path& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return absl::DataLossError(absl::StrCat("cannot open ", path.string(), ": ", std::strerror(errno)));
  const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size())) return absl::DataLossError(absl::StrCat("cannot append to ", path.string()));
  return absl::OkStatus();
}

}  // namespace

std::optional<FindingStore> FindingStore::FromEnvironment() {
  std::optional<std::string> directory = Environment("MATLOAD_FINDINGS_DIR");
  if (!directory.has_value()) return std::nullopt;
  return FindingStore(*directory);
}

absl::StatusOr<bool> FindingStore::File(const Finding& finding) const {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return absl::DataLossError(absl::StrCat("cannot create ", directory_, ": ", error.message()));
  const std::filesystem::path bundle =
      std::filesystem::path(directory_) /
      absl::StrFormat("%s-%08x", Slug(finding.signature).substr(0, kSlugLength), StableHash(finding.signature));
  // One case line per filing: "cases.txt" counts them, the first is case.txt.
  std::string case_line = finding.case_text;
  for (char& c : case_line) c = c == '\n' ? '|' : c;
  if (::mkdir(bundle.c_str(), 0755) != 0) {
    if (errno != EEXIST) return absl::DataLossError(absl::StrCat("cannot create ", bundle.string(), ": ", std::strerror(errno)));
    if (absl::Status status = AppendLine(bundle / "cases.txt", case_line + "\n"); !status.ok()) return status;
    return false;
  }
  const std::string description = absl::StrCat("# ", finding.signature, "\n\n", finding.summary, "\n");
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"finding.md", description}, {"case.txt", finding.case_text}}) {
    if (absl::Status status = WriteFile(bundle / name, text); !status.ok()) return status;
  }
  for (const auto& [name, text] : finding.files) {
    if (absl::Status status = WriteFile(bundle / name, text); !status.ok()) return status;
  }
  if (absl::Status status = AppendLine(bundle / "cases.txt", case_line + "\n"); !status.ok()) return status;
  return true;
}

void ReportFinding(const Finding& finding) {
  const std::optional<FindingStore> store = FindingStore::FromEnvironment();
  if (store.has_value()) {
    absl::StatusOr<bool> filed = store->File(finding);
    if (filed.ok()) return;
    std::cerr << "matload: cannot file a finding: " << filed.status() << "\n";
  }
  std::cerr << "matload finding: " << finding.signature << "\n" << finding.summary << "\ncase:\n" << finding.case_text;
  std::abort();
}

}  // namespace matload
