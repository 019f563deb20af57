#include "harness/runs/case_filter.h"

#include <fnmatch.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/platform/input_files.h"

namespace matload {
namespace {

// CheckPattern accepts a glob made of the characters case IDs and globs use.
absl::Status CheckPattern(absl::string_view pattern, absl::string_view where) {
  if (pattern.empty()) return absl::InvalidArgumentError(absl::StrCat(where, ": an empty case pattern"));
  for (char c : pattern) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
        absl::string_view("._-*?[]!").find(c) != absl::string_view::npos) {
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": '", pattern, "' is not a case ID or glob (case IDs hold letters, digits, '.', '_', '-')"));
  }
  return absl::OkStatus();
}

// ReadCaseList appends the patterns of the case list at `path` to `patterns`.
absl::Status ReadCaseList(const std::string& path, std::vector<std::string>& patterns) {
  const absl::StatusOr<std::string> text = ReadFileBytes(path);
  if (!text.ok()) return absl::FailedPreconditionError(absl::StrCat("--cases: ", text.status().message()));
  int number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++number;
    const absl::string_view pattern = absl::StripAsciiWhitespace(line);
    if (pattern.empty() || pattern.front() == '#') continue;
    if (absl::Status checked = CheckPattern(pattern, absl::StrCat("--cases ", path, " line ", number)); !checked.ok()) {
      return checked;
    }
    patterns.emplace_back(pattern);
  }
  return absl::OkStatus();
}

// AnyMatches says whether `id` matches one of `patterns`.
bool AnyMatches(const std::vector<std::string>& patterns, absl::string_view id) {
  const std::string text(id);
  for (const std::string& pattern : patterns) {
    if (fnmatch(pattern.c_str(), text.c_str(), 0) == 0) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<CaseFilter> CaseFilter::Make(const std::string& cases_file, const std::vector<std::string>& include,
                                            const std::vector<std::string>& exclude) {
  CaseFilter filter;
  if (!cases_file.empty()) {
    if (absl::Status read = ReadCaseList(cases_file, filter.take_); !read.ok()) return read;
    if (filter.take_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("--cases ", cases_file, ": the list names no case"));
    }
  }
  for (const std::string& pattern : include) {
    if (absl::Status checked = CheckPattern(pattern, "--include"); !checked.ok()) return checked;
    filter.take_.push_back(pattern);
  }
  for (const std::string& pattern : exclude) {
    if (absl::Status checked = CheckPattern(pattern, "--exclude"); !checked.ok()) return checked;
    filter.drop_.push_back(pattern);
  }
  return filter;
}

bool CaseFilter::Selects(absl::string_view id) const {
  if (!take_.empty() && !AnyMatches(take_, id)) return false;
  return !AnyMatches(drop_, id) && shard_.Takes(id);
}

}  // namespace matload
