#include "harness/platform/without_home.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/platform/environment.h"

namespace matload {

std::string WithoutHome(absl::string_view text) {
  const std::string home = EnvironmentOr("HOME", "/");
  if (home == "/") return std::string(text);
  const std::string prefix = absl::StrCat(absl::StripSuffix(home, "/"), "/");
  std::string shown;
  for (size_t at = 0; at < text.size();) {
    const bool word_start = at == 0 || absl::string_view(" =,:'\"(").find(text[at - 1]) != absl::string_view::npos;
    if (word_start && absl::StartsWith(text.substr(at), prefix)) {
      shown += "~/";
      at += prefix.size();
    } else {
      shown += text[at++];
    }
  }
  return shown;
}

}  // namespace matload
