// FormsRegex: the --forms regular expression, which picks a conform run's
// forms by their labels ("ldmatrix.sync.aligned.m8n8.x1.shared.b16"). It is
// matched with RE2, whose time is linear in the text whatever the pattern:
// std::regex backtracks, so that '^(.|.)*X' took minutes per label at full
// CPU, ignoring SIGINT, before the run had begun. RE2's syntax is POSIX
// egrep's with Perl's classes (\d, \s, non-greedy *?); it has no
// backreferences and no lookaround, which a pattern over labels never needs.
#ifndef MATLOAD_HARNESS_RUNS_FORMS_REGEX_H_
#define MATLOAD_HARNESS_RUNS_FORMS_REGEX_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace matload {

// FormsRegex is one compiled pattern. It is cheap to copy, and safe to
// match from several threads at once.
class FormsRegex {
 public:
  // Parse compiles `pattern`; one RE2 cannot compile (bad syntax, a
  // backreference, bytes that are not UTF-8, or too large) is
  // kInvalidArgument saying why.
  static absl::StatusOr<FormsRegex> Parse(absl::string_view pattern);

  // Matches says whether the pattern matches somewhere in `text`, as a
  // search does: '^' and '$' anchor it.
  bool Matches(absl::string_view text) const;

 private:
  explicit FormsRegex(std::shared_ptr<const re2::RE2> compiled) : compiled_(std::move(compiled)) {}

  std::shared_ptr<const re2::RE2> compiled_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_FORMS_REGEX_H_
