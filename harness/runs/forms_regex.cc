#include "harness/runs/forms_regex.h"

#include "absl/strings/str_cat.h"
#include "re2/re2.h"

namespace matload {

absl::StatusOr<FormsRegex> FormsRegex::Parse(absl::string_view pattern) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // the error is returned, not printed
  auto compiled = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!compiled->ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--forms: not a regex RE2 takes: ", compiled->error()));
  }
  return FormsRegex(std::move(compiled));
}

bool FormsRegex::Matches(absl::string_view text) const {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *compiled_);
}

}  // namespace matload
