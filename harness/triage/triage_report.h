// TriageReport: a triage's findings as a report ready to paste into a
// vendor bug: triage.md and triage.html (the same document, one built for
// each), triage.json (the data, the culprit record included), and beside
// them the original reproducer (the bundle's files) and each build's cubin
// and SASS, so that every claim of the report can be checked by hand.
#ifndef MATLOAD_HARNESS_TRIAGE_TRIAGE_REPORT_H_
#define MATLOAD_HARNESS_TRIAGE_TRIAGE_REPORT_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/triage/triage.h"
#include "nlohmann/json.hpp"

namespace matload {

// ReportSection is one section of the document: paragraphs, then a table
// (when it has headers), then preformatted text.
struct ReportSection {
  std::string id;     // the HTML anchor: "stages"
  std::string title;  // "Which stage"
  std::vector<std::string> paragraphs;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> code;
};

// TriageDocument is the report, before it is written as Markdown or HTML.
struct TriageDocument {
  std::string title;
  std::string summary;  // the one paragraph a bug report opens with
  std::vector<ReportSection> sections;
};

// CaseHistorySection is the case's runs in the results store, a row each.
ReportSection CaseHistorySection(const std::vector<CaseNight>& nights);

// DescribeTriage writes the document of one triage.
TriageDocument DescribeTriage(const TriageCase& triage_case, const TriageResult& result);

// TriageMarkdown and TriageHtml write the document; the HTML is
// self-contained (harness/report/html_page.h).
std::string TriageMarkdown(const TriageDocument& document);
absl::StatusOr<std::string> TriageHtml(const TriageDocument& document);

// TriageJson is the triage's data.
nlohmann::json TriageJson(const TriageCase& triage_case, const TriageResult& result);

// CheckTriageDirectory is OK when `directory` does not exist or is empty,
// else kFailedPrecondition: a triage never replaces files. The command asks
// before it runs anything.
absl::Status CheckTriageDirectory(const std::filesystem::path& directory);

// WriteTriageDocument writes triage.md, triage.html and triage.json
// (`json`) into `directory` (CheckTriageDirectory first).
absl::Status WriteTriageDocument(const std::filesystem::path& directory, const TriageDocument& document,
                                 const nlohmann::json& json);

// WriteTriage writes the report and its files into `directory`, which must
// not exist or be empty (kFailedPrecondition otherwise: a triage never
// replaces files; CheckTriageDirectory).
absl::Status WriteTriage(const std::filesystem::path& directory, const TriageCase& triage_case,
                         const TriageResult& result);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_TRIAGE_REPORT_H_
