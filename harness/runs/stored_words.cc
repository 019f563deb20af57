#include "harness/runs/stored_words.h"

#include <algorithm>
#include <iterator>

namespace matload {
namespace {

// kRunStatusWords are the statuses IsRunStatusWord takes (stored_words.h
// says whose they are).
constexpr absl::string_view kRunStatusWords[] = {"running",      "clean",          "findings",    "usage",
                                                 "compile-only", "infrastructure", "interrupted", "killed"};

}  // namespace

bool IsRunStatusWord(absl::string_view word) {
  return std::find(std::begin(kRunStatusWords), std::end(kRunStatusWords), word) != std::end(kRunStatusWords);
}

bool IsRunExitStatus(int exit_status) {
  return (exit_status >= -1 && exit_status <= 4) || (exit_status > 128 && exit_status < 128 + 65);
}

}  // namespace matload
