#include "harness/runs/baseline.h"

#include <utility>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace matload {
namespace {

// IsWord says whether `text` is one lowercase word ([a-z_]+), as outcomes and keys are.
bool IsWord(absl::string_view text) {
  return !text.empty() && absl::c_all_of(text, [](char c) { return absl::ascii_islower(c) || c == '_'; });
}

// IsCaseId says whether `text` is made of the characters case IDs use (case_id.h).
bool IsCaseId(absl::string_view text) {
  return absl::c_all_of(text, [](char c) { return absl::ascii_isalnum(c) || c == '.' || c == '_' || c == '-'; });
}

// LineError is the kInvalidArgument for baseline line `number`, quoting the line.
absl::Status LineError(int number, absl::string_view line, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat("baseline line ", number, " '", line, "': ", problem));
}

// BaselineParser reads a baseline one line at a time, remembering on which
// line each key and case ID was given so that a repeated one names both.
class BaselineParser {
 public:
  // Comment reads a '#' line: a `# KEY: VALUE` line in the header into the key.
  absl::Status Comment(int number, absl::string_view line) {
    const absl::string_view body = absl::StripLeadingAsciiWhitespace(line.substr(1));
    const std::size_t colon = body.find(':');
    if (!in_header_ || colon == absl::string_view::npos || !IsWord(body.substr(0, colon))) return absl::OkStatus();
    return Add(number, line, "key", body.substr(0, colon), absl::StripAsciiWhitespace(body.substr(colon + 1)),
               key_lines_, baseline_.key);
  }

  // Case reads a `CASE-ID,OUTCOME` line.
  absl::Status Case(int number, absl::string_view line) {
    in_header_ = false;
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
    if (fields.size() != 2) {
      return LineError(number, line, absl::StrCat("expected CASE-ID,OUTCOME, found ", fields.size(), " field(s)"));
    }
    const absl::string_view id = absl::StripAsciiWhitespace(fields[0]);
    const absl::string_view outcome = absl::StripAsciiWhitespace(fields[1]);
    if (id.empty()) return LineError(number, line, "the case ID is empty");
    if (!IsCaseId(id)) {
      return LineError(number, line, "a case ID holds only letters, digits, '.', '_' and '-' (no globs)");
    }
    if (!IsWord(outcome)) return LineError(number, line, "the outcome is not one lowercase word ([a-z_]+)");
    return Add(number, line, "case ID", id, outcome, id_lines_, baseline_.expected);
  }

  Baseline Take() && { return std::move(baseline_); }

 private:
  // Add puts name -> value into `values`, or says that `name` was given before.
  static absl::Status Add(int number, absl::string_view line, absl::string_view what, absl::string_view name,
                          absl::string_view value, std::map<std::string, int>& lines,
                          std::map<std::string, std::string>& values) {
    const auto [before, added] = lines.emplace(name, number);
    if (!added) {
      return LineError(number, line, absl::StrCat("the ", what, " was given before, on line ", before->second));
    }
    values.emplace(name, value);
    return absl::OkStatus();
  }

  Baseline baseline_;
  bool in_header_ = true;
  std::map<std::string, int> key_lines_;
  std::map<std::string, int> id_lines_;
};

// KeyLine is a header comment line; a value is kept to one line so the file stays line-structured.
std::string KeyLine(absl::string_view key, absl::string_view value) {
  return absl::StrCat("# ", key, ":", value.empty() ? "" : " ", absl::StrReplaceAll(value, {{"\r", " "}, {"\n", " "}}),
                      "\n");
}

// VerdictOf holds one case against the baseline's expected outcomes.
BaselineVerdict VerdictOf(const CaseRecord& record, const std::map<std::string, std::string>& expected) {
  const auto listed = expected.find(record.id);
  if (!record.finding) return listed == expected.end() ? BaselineVerdict::kPass : BaselineVerdict::kFixed;
  return listed != expected.end() && listed->second == CaseOutcomeWord(record.outcome) ? BaselineVerdict::kExpected
                                                                                       : BaselineVerdict::kRegression;
}

}  // namespace

absl::StatusOr<Baseline> ParseBaseline(absl::string_view text) {
  BaselineParser parser;
  int number = 0;
  for (const absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    const absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty()) continue;
    const absl::Status read = line.front() == '#' ? parser.Comment(number, line) : parser.Case(number, line);
    if (!read.ok()) return read;
  }
  return std::move(parser).Take();
}

std::string RenderBaseline(const RunRecord& run, absl::Span<const CaseRecord> cases) {
  std::string text = absl::StrCat("# matload baseline\n", KeyLine("gpu", run.gpu_name), KeyLine("driver", run.driver),
                                  KeyLine("toolkits", run.toolkits), KeyLine("run", run.id));
  std::map<std::string, std::string> findings;  // sorted by case ID
  for (const CaseRecord& record : cases) {
    if (record.finding) findings.emplace(record.id, CaseOutcomeWord(record.outcome));
  }
  for (const auto& [id, outcome] : findings) absl::StrAppend(&text, id, ",", outcome, "\n");
  return text;
}

int BaselineComparison::Count(BaselineVerdict verdict) const {
  return static_cast<int>(absl::c_count_if(verdicts, [verdict](const auto& entry) { return entry.second == verdict; }));
}

absl::string_view BaselineVerdictName(BaselineVerdict verdict) {
  static constexpr absl::string_view kNames[] = {"pass", "expected", "regression", "fixed"};
  return kNames[static_cast<int>(verdict)];
}

BaselineComparison CompareToBaseline(absl::Span<const CaseRecord> cases, const Baseline& baseline) {
  BaselineComparison comparison;
  for (const CaseRecord& record : cases) {
    comparison.verdicts[record.id] = VerdictOf(record, baseline.expected);
  }
  for (const auto& [id, outcome] : baseline.expected) {
    if (!comparison.verdicts.contains(id)) comparison.unknown_ids.push_back(id);
  }
  return comparison;
}

}  // namespace matload
