#include "harness/judge/toolchain_release.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace matload {
namespace {

// Prefix is the first `count` numbers of `release` (all of them if fewer).
std::vector<int> Prefix(const std::vector<int>& release, size_t count) {
  return {release.begin(), release.begin() + static_cast<long>(std::min(count, release.size()))};
}

}  // namespace

std::vector<int> ReleaseNumbers(absl::string_view release) {
  std::vector<int> numbers;
  for (absl::string_view part : absl::StrSplit(release, '.')) {
    int number = 0;
    numbers.push_back(absl::SimpleAtoi(part, &number) ? number : 0);
  }
  return numbers;
}

std::optional<ToolchainRelease> ParseToolchainRelease(absl::string_view toolchain) {
  std::vector<absl::string_view> words = absl::StrSplit(toolchain, ' ', absl::SkipEmpty());
  const auto first = std::find_if(words.begin(), words.end(), [](absl::string_view word) {
    return std::isdigit(static_cast<unsigned char>(word.front())) != 0;
  });
  if (first == words.begin() || first == words.end()) return std::nullopt;
  absl::string_view release = *first;
  release = release.substr(0, release.find_first_not_of("0123456789."));
  while (!release.empty() && release.back() == '.') release.remove_suffix(1);
  return ToolchainRelease{.tool = absl::StrJoin(words.begin(), first, " "), .release = ReleaseNumbers(release)};
}

bool Reaches(const ToolchainRelease& release, const ToolchainRelease& named) {
  return release.tool == named.tool && Prefix(release.release, named.release.size()) >= named.release;
}

bool IsRelease(const ToolchainRelease& release, const ToolchainRelease& named) {
  return release.tool == named.tool && Prefix(release.release, named.release.size()) == named.release;
}

}  // namespace matload
