#include "harness/compile/compile_oracle.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/platform/outside_text.h"

namespace matload {
namespace {

// ParseSeverityAndMessage reads "error   : MESSAGE" (or warning, fatal)
// into `diagnostic`; false when `text` does not have that form.
bool ParseSeverityAndMessage(absl::string_view text, Diagnostic& diagnostic) {
  static constexpr std::pair<absl::string_view, Diagnostic::Severity> kSeverities[] = {
      {"error", Diagnostic::Severity::kError},
      {"warning", Diagnostic::Severity::kWarning},
      {"fatal", Diagnostic::Severity::kFatal}};
  for (const auto& [word, severity] : kSeverities) {
    absl::string_view rest = text;
    if (!absl::ConsumePrefix(&rest, word)) continue;
    rest = absl::StripLeadingAsciiWhitespace(rest);
    if (!absl::ConsumePrefix(&rest, ": ")) return false;
    diagnostic.severity = severity;
    diagnostic.message = OutsideText(rest);
    return true;
  }
  return false;
}

// ParseLocated reads "FILE, line N; error   : MESSAGE", taking the last
// ", line N; " that is followed by a severity, as ptxas names the file
// first and a file name may itself hold ", line ".
std::optional<Diagnostic> ParseLocated(absl::string_view text) {
  static constexpr absl::string_view kLineMarker = ", line ";
  for (size_t at = text.rfind(kLineMarker); at != absl::string_view::npos;
       at = at == 0 ? absl::string_view::npos : text.rfind(kLineMarker, at - 1)) {
    absl::string_view rest = text.substr(at + kLineMarker.size());
    size_t digits = 0;
    while (digits < rest.size() && absl::ascii_isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    Diagnostic diagnostic;
    if (digits == 0 || !absl::SimpleAtoi(rest.substr(0, digits), &diagnostic.line)) continue;
    rest.remove_prefix(digits);
    if (!absl::ConsumePrefix(&rest, "; ")) continue;
    diagnostic.file = std::string(text.substr(0, at));
    if (ParseSeverityAndMessage(rest, diagnostic)) return diagnostic;
  }
  return std::nullopt;
}

// ParseLine reads one line of a compiler's log.
Diagnostic ParseLine(absl::string_view line) {
  absl::string_view rest = line;
  if (absl::ConsumePrefix(&rest, "ptxas ")) {
    if (std::optional<Diagnostic> located = ParseLocated(rest); located.has_value()) return *std::move(located);
    Diagnostic diagnostic;
    if (ParseSeverityAndMessage(rest, diagnostic)) return diagnostic;
  }
  return {.severity = Diagnostic::Severity::kUnrecognised, .line = 0, .message = OutsideText(line)};
}

}  // namespace

std::vector<Diagnostic> ParsePtxasDiagnostics(absl::string_view standard_error) {
  std::vector<Diagnostic> diagnostics;
  for (absl::string_view raw : absl::StrSplit(standard_error, '\n', absl::SkipEmpty())) {
    const absl::string_view line = absl::StripTrailingAsciiWhitespace(raw);
    if (!line.empty()) diagnostics.push_back(ParseLine(line));
  }
  return diagnostics;
}

absl::StatusOr<AssembleResult> CompileOracle::AssembleModules(const std::vector<std::string>& modules,
                                                              Target target) const {
  if (modules.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(Toolchain(), " assembles one module per run, not ", modules.size()));
  }
  return Assemble(modules.front(), target);
}

}  // namespace matload
