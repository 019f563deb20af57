#include "harness/runs/stored_words.h"

#include <algorithm>
#include <iterator>

namespace matload {
namespace {

// kOutcomeWords are the outcomes IsOutcomeWord takes, and kRunStatusWords
// the statuses IsRunStatusWord takes (stored_words.h says whose they are).
constexpr absl::string_view kOutcomeWords[] = {"pass",
                                               "mismatch",
                                               "expected_fault",
                                               "known_fault",
                                               "unexpected_fault",
                                               "missing_fault",
                                               "undefined_ran",
                                               "undefined_faulted",
                                               "legal_rejected",
                                               "illegal_rejected",
                                               "illegal_accepted",
                                               "timeout",
                                               "unsupported",
                                               "flake",
                                               "not_compiled",
                                               "finding",
                                               "crash"};
constexpr absl::string_view kRunStatusWords[] = {"running",      "clean",          "findings",    "usage",
                                                 "compile-only", "infrastructure", "interrupted", "killed"};

// IsOneOf says whether `word` is one of `words`.
template <size_t N>
bool IsOneOf(absl::string_view word, const absl::string_view (&words)[N]) {
  return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

}  // namespace

bool IsOutcomeWord(absl::string_view word) { return IsOneOf(word, kOutcomeWords); }

bool IsRunStatusWord(absl::string_view word) { return IsOneOf(word, kRunStatusWords); }

bool IsRunExitStatus(int exit_status) {
  return (exit_status >= -1 && exit_status <= 4) || (exit_status > 128 && exit_status < 128 + 65);
}

}  // namespace matload
