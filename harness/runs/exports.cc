#include "harness/runs/exports.h"

#include <filesystem>
#include <iterator>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace matload {
namespace {

constexpr char32_t kInvalidUtf8 = 0xFFFFFFFF;
constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// SequenceLength is how many bytes the UTF-8 sequence led by `lead` takes; 0 for a byte that leads none.
std::size_t SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;  // a continuation byte, or the lead of an overlong 2-byte sequence
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return lead < 0xF5 ? 4 : 0;  // F5 and above would lead beyond U+10FFFF
}

// NextCodePoint decodes the UTF-8 sequence at text[i] and moves `i` past it;
// a byte that starts no valid sequence (truncated, overlong, beyond
// U+10FFFF) is kInvalidUtf8 and moves `i` one byte on.
char32_t NextCodePoint(absl::string_view text, std::size_t& i) {
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};  // by sequence length, against overlongs
  const unsigned char lead = text[i];
  const std::size_t length = SequenceLength(lead);
  char32_t code = length == 1 ? lead : lead & (0x7F >> length);
  bool valid = length != 0 && i + length <= text.size();
  for (std::size_t k = 1; valid && k < length; ++k) {
    const unsigned char next = text[i + k];
    valid = (next & 0xC0) == 0x80;
    code = code << 6 | (next & 0x3F);
  }
  if (!valid || code < kSmallest[length] || code > 0x10FFFF) {
    ++i;
    return kInvalidUtf8;
  }
  i += length;
  return code;
}

// IsXmlChar says whether XML 1.0 allows `code` in a document (its production "Char").
bool IsXmlChar(char32_t code) {
  return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
         (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

// kReferences are the characters XmlEscape writes as references: markup, and the whitespace a parser would
// otherwise normalize in an attribute.
constexpr std::pair<char32_t, absl::string_view> kReferences[] = {
    {'&', "&amp;"},   {'<', "&lt;"},  {'>', "&gt;"},   {'"', "&quot;"},
    {'\'', "&apos;"}, {'\t', "&#9;"}, {'\n', "&#10;"}, {'\r', "&#13;"},
};

// XmlEscape makes `text` safe in an attribute or element: markup characters
// and whitespace a parser would normalize become references, and what XML
// 1.0 does not allow becomes U+FFFD.
std::string XmlEscape(absl::string_view text) {
  std::string escaped;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t code = NextCodePoint(text, i);
    const auto* reference = absl::c_find_if(kReferences, [code](const auto& entry) { return entry.first == code; });
    if (reference != std::end(kReferences)) {
      absl::StrAppend(&escaped, reference->second);
    } else {
      absl::StrAppend(&escaped, IsXmlChar(code) ? text.substr(start, i - start) : kReplacement);
    }
  }
  return escaped;
}

// IsSkipped says whether a case is a JUnit <skipped>: not run, and nothing wrong with that.
bool IsSkipped(const CaseRecord& record) {
  return !record.finding && (record.outcome == "unsupported" || record.outcome == "not_compiled");
}

// Message is a case's one-line message: "OUTCOME: DETAIL", or the outcome alone.
std::string Message(const CaseRecord& record) {
  return record.detail.empty() ? record.outcome : absl::StrCat(record.outcome, ": ", record.detail);
}

// FailureBody is the text of a finding's <failure>: one "LABEL: VALUE" line per thing the case has.
std::string FailureBody(const RunRecord& run, const CaseRecord& record) {
  const std::pair<absl::string_view, std::string> facts[] = {
      {"outcome", record.outcome},
      {"detail", record.detail},
      {"counts", absl::StrJoin(record.counts, ", ", absl::PairFormatter("="))},
      {"first failing variants", absl::StrJoin(record.first_failures, ", ")},
      {"attempts", absl::StrJoin(record.attempts, ", ")},
      {"bundle", record.bundle.empty() ? "" : (std::filesystem::path(run.directory) / record.bundle).string()},
  };
  std::vector<std::string> lines;
  for (const auto& [label, value] : facts) {
    if (!value.empty()) lines.push_back(absl::StrCat(label, ": ", XmlEscape(value)));
  }
  return absl::StrJoin(lines, "\n");
}

// TestCaseXml is one case's <testcase> (the classname and name are explained in exports.h).
std::string TestCaseXml(const RunRecord& run, const CaseRecord& record) {
  const std::size_t dot = record.id.rfind('.');
  const absl::string_view id = record.id;
  const absl::string_view classname = dot == std::string::npos ? "matload" : id.substr(0, dot);
  const std::string open = absl::StrFormat("    <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\"",
                                           XmlEscape(classname), XmlEscape(id.substr(dot + 1)), record.seconds);
  if (record.finding) {
    return absl::StrCat(open, ">\n      <failure message=\"", XmlEscape(Message(record)), "\" type=\"",
                        XmlEscape(record.outcome), "\">", FailureBody(run, record), "</failure>\n    </testcase>\n");
  }
  if (IsSkipped(record)) {
    return absl::StrCat(open, ">\n      <skipped message=\"", XmlEscape(Message(record)), "\"/>\n    </testcase>\n");
  }
  return absl::StrCat(open, "/>\n");
}

// PropertiesXml is the <properties> naming the run and what it ran on.
std::string PropertiesXml(const RunRecord& run) {
  const std::pair<absl::string_view, absl::string_view> properties[] = {
      {"run_id", run.id},
      {"command_line", run.command_line},
      {"matload_version", run.matload_version},
      {"git_commit", run.git_commit},
      {"toolkits", run.toolkits},
      {"driver", run.driver},
      {"gpu_name", run.gpu_name},
      {"gpu_uuid", run.gpu_uuid},
      {"directory", run.directory},
      {"status", run.status},
  };
  std::string xml = "    <properties>\n";
  for (const auto& [name, value] : properties) {
    absl::StrAppend(&xml, "      <property name=\"", name, "\" value=\"", XmlEscape(value), "\"/>\n");
  }
  return absl::StrCat(xml, "    </properties>\n");
}

// CsvField quotes `text` as RFC 4180 says when it holds a comma, quote, CR or LF.
std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\r\n") == absl::string_view::npos) return std::string(text);
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

}  // namespace

std::string JunitXml(const RunRecord& run, absl::Span<const CaseRecord> cases) {
  int failures = 0;
  int skipped = 0;
  double seconds = 0;
  std::string testcases;
  for (const CaseRecord& record : cases) {
    failures += record.finding ? 1 : 0;
    skipped += IsSkipped(record) ? 1 : 0;
    seconds += record.seconds;
    absl::StrAppend(&testcases, TestCaseXml(run, record));
  }
  return absl::StrCat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n",
      absl::StrFormat("  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.3f\" "
                      "timestamp=\"%s\" hostname=\"%s\">\n",
                      XmlEscape(absl::StrCat("matload ", run.command)), cases.size(), failures, skipped, seconds,
                      absl::FormatTime("%Y-%m-%dT%H:%M:%S", run.started, absl::UTCTimeZone()), XmlEscape(run.host)),
      PropertiesXml(run), testcases, "  </testsuite>\n</testsuites>\n");
}

std::string ResultsCsv(absl::Span<const CaseRecord> cases) {
  std::string csv = "case,outcome,duration_s\n";
  for (const CaseRecord& record : cases) {
    absl::StrAppend(&csv, CsvField(record.id), ",", CsvField(record.outcome), ",",
                    absl::StrFormat("%.3f", record.seconds), "\n");
  }
  return csv;
}

}  // namespace matload
