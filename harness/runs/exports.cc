#include "harness/runs/exports.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"

namespace matload {
namespace {

// CsvField quotes `text` as RFC 4180 says when it holds a comma, quote, CR or LF.
std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\r\n") == absl::string_view::npos) return std::string(text);
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

}  // namespace

std::string ResultsCsv(absl::Span<const CaseRecord> cases) {
  std::string csv = "case,outcome,duration_s\n";
  for (const CaseRecord& record : cases) {
    absl::StrAppend(&csv, CsvField(record.id), ",", CsvField(CaseOutcomeWord(record.outcome)), ",",
                    absl::StrFormat("%.3f", record.seconds), "\n");
  }
  return csv;
}

}  // namespace matload
