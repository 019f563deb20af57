#include "harness/compile_oracle.h"

#include <regex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace matload {

std::vector<Diagnostic> ParsePtxasDiagnostics(absl::string_view standard_error) {
  static const std::regex kLine(R"(^ptxas (?:.*, line (\d+); )?(error|warning|fatal)\s*: (.*)$)");
  std::vector<Diagnostic> diagnostics;
  for (absl::string_view raw : absl::StrSplit(standard_error, '\n', absl::SkipEmpty())) {
    std::string line(absl::StripTrailingAsciiWhitespace(raw));
    std::smatch match;
    if (!std::regex_match(line, match, kLine)) {
      // An unrecognised line is kept as a module-level error, never dropped.
      diagnostics.push_back({Diagnostic::Severity::kError, 0, line});
      continue;
    }
    Diagnostic diagnostic;
    if (match[1].matched) (void)absl::SimpleAtoi(match[1].str(), &diagnostic.line);
    diagnostic.severity = match[2] == "warning" ? Diagnostic::Severity::kWarning
                          : match[2] == "fatal" ? Diagnostic::Severity::kFatal
                                                : Diagnostic::Severity::kError;
    diagnostic.message = match[3].str();
    diagnostics.push_back(std::move(diagnostic));
  }
  return diagnostics;
}

}  // namespace matload
