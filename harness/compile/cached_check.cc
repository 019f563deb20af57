#include "harness/compile/cached_check.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/compile/cached_compiler.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// WholeQuestion is what a whole check is known by (cached_check.h): one
// line of what decides its runs, the shared declarations, then one line
// per form, its guess ('+' legal, '-' illegal, '?' none) before its text.
std::string WholeQuestion(const CompileOracle& compiler, const std::vector<Declaration>& declarations,
                          const std::vector<std::string>& instructions, PtxVersion ptx, Target target,
                          const BatchOptions& options) {
  std::string question = absl::StrCat("check-shared/2 ", target.Name(), " ", ptx.ToString(), " ", kMaxSnippetsPerModule,
                                      " ", compiler.MaxModulesPerRun(), " ", options.max_bisection_runs, "\n");
  for (const Declaration& declaration : declarations) {
    absl::StrAppend(&question, declaration.state_space, " ", declaration.type, " ", declaration.name, "\n");
  }
  for (size_t i = 0; i < instructions.size(); ++i) {
    const char guess = options.predicted_legal.empty() ? '?' : (options.predicted_legal[i] ? '+' : '-');
    absl::StrAppend(&question, absl::string_view(&guess, 1), instructions[i], "\n");
  }
  return question;
}

// WholeAnswerReader takes the events of nlohmann::json's SAX parser over
// WholeAnswer's text straight into verdicts and a report, without building
// the JSON value of the whole answer first: a target's answer is a few
// megabytes, read by every warm sweep. Any other shape stops the parse.
class WholeAnswerReader : public nlohmann::json_sax<nlohmann::json> {
 public:
  // Read reads `text`, or is nullopt if it is not what WholeAnswer writes.
  static std::optional<std::pair<std::vector<CompilerVerdict>, BatchReport>> Read(const std::string& text) {
    WholeAnswerReader reader;
    if (!nlohmann::json::sax_parse(text, &reader) || !reader.read_verdicts_ || !reader.read_report_) {
      return std::nullopt;
    }
    return std::make_pair(std::move(reader.verdicts_), std::move(reader.report_));
  }

  bool null() override { return false; }
  bool boolean(bool value) override {
    if (section_ != Section::kVerdicts || depth_ != 3 || (field_ > 1 && field_ != 4)) return false;
    (field_ == 0   ? verdicts_.back().accepted
     : field_ == 1 ? verdicts_.back().judged
                   : verdicts_.back().crashed) = value;
    ++field_;
    return true;
  }
  bool number_integer(number_integer_t) override { return false; }
  bool number_unsigned(number_unsigned_t value) override {
    if (section_ == Section::kVerdicts && depth_ == 3 && field_ == 3) {
      verdicts_.back().unplaced = value;
      ++field_;
      return true;
    }
    if (section_ != Section::kReport || depth_ != 2 || field_ > 2) return false;
    (field_ == 0 ? report_.runs : field_ == 1 ? report_.bisection_runs : report_.unjudged) = value;
    ++field_;
    return true;
  }
  bool number_float(number_float_t, const string_t&) override { return false; }
  bool string(string_t& value) override {
    std::vector<std::string>* list = section_ == Section::kVerdicts && depth_ == 4 ? &verdicts_.back().messages
                                     : section_ == Section::kReport && depth_ == 3 ? &report_.unrecognised_lines
                                                                                   : nullptr;
    if (list == nullptr) return false;
    list->push_back(std::move(value));
    return true;
  }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return depth_++ == 0; }
  bool key(string_t& key) override {
    if (depth_ != 1) return false;
    section_ = key == "verdicts" && !read_verdicts_ ? Section::kVerdicts
               : key == "report" && !read_report_   ? Section::kReport
                                                    : Section::kNone;
    return section_ != Section::kNone;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 2) {
      field_ = 0;
      return section_ != Section::kNone;
    }
    if (section_ == Section::kVerdicts && depth_ == 3) {
      verdicts_.emplace_back();
      field_ = 0;
      return true;
    }
    // The list of a verdict's messages, or of the report's unrecognised lines.
    return (section_ == Section::kVerdicts && depth_ == 4 && field_ == 2) ||
           (section_ == Section::kReport && depth_ == 3 && field_ == 3);
  }
  bool end_array() override {
    --depth_;
    if (depth_ == 1) return section_ == Section::kVerdicts ? (read_verdicts_ = true) : (read_report_ = field_ == 4);
    if (depth_ == 2 && section_ == Section::kVerdicts) return field_ == 4 || field_ == 5;  // crashed is new
    ++field_;  // a list closed: the verdict's messages or the report's lines
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  // Section is the part of the answer being read.
  enum class Section { kNone, kVerdicts, kReport };

  std::vector<CompilerVerdict> verdicts_;
  BatchReport report_;
  Section section_ = Section::kNone;
  int depth_ = 0;     // objects and arrays open
  size_t field_ = 0;  // fields read of the verdict or the report at hand
  bool read_verdicts_ = false;
  bool read_report_ = false;
};

}  // namespace

std::string WholeAnswer(const std::vector<CompilerVerdict>& verdicts, const BatchReport& report) {
  nlohmann::json written = nlohmann::json::array();
  for (const CompilerVerdict& verdict : verdicts) {
    written.push_back({verdict.accepted, verdict.judged, verdict.messages, verdict.unplaced, verdict.crashed});
  }
  return nlohmann::json{{"verdicts", written},
                        {"report", {report.runs, report.bisection_runs, report.unjudged, report.unrecognised_lines}}}
      .dump();
}

std::optional<std::vector<CompilerVerdict>> ReadWholeAnswer(const std::string& text, size_t count,
                                                            BatchReport& report) {
  std::optional<std::pair<std::vector<CompilerVerdict>, BatchReport>> read = WholeAnswerReader::Read(text);
  if (!read.has_value() || read->first.size() != count) return std::nullopt;
  report = std::move(read->second);
  return std::move(read->first);
}

absl::StatusOr<std::vector<CompilerVerdict>> CheckSharedCached(const CompileOracle& compiler, VerdictCache& cache,
                                                               const std::string& identity,
                                                               const std::vector<Declaration>& declarations,
                                                               const std::vector<std::string>& instructions,
                                                               PtxVersion ptx, Target target,
                                                               const BatchOptions& options) {
  BatchReport report;
  const std::string question = WholeQuestion(compiler, declarations, instructions, ptx, target, options);
  absl::StatusOr<std::optional<std::string>> kept = cache.Find(identity, question);
  if (!kept.ok()) return CacheFailure(kept.status());
  if (kept->has_value()) {
    if (std::optional<std::vector<CompilerVerdict>> verdicts = ReadWholeAnswer(**kept, instructions.size(), report);
        verdicts.has_value()) {
      if (options.report != nullptr) *options.report = report;
      return *std::move(verdicts);
    }
  }
  CachedCompiler cached(compiler, cache, identity);
  BatchOptions reported = options;
  reported.report = &report;
  absl::StatusOr<std::vector<CompilerVerdict>> verdicts =
      CheckShared(cached, declarations, instructions, ptx, target, reported);
  if (!verdicts.ok()) return verdicts;
  if (absl::Status kept_runs = cached.KeepAnswers(); !kept_runs.ok()) return kept_runs;
  if (report.unjudged == 0) {
    if (absl::Status stored = cache.Keep(identity, {{question, WholeAnswer(*verdicts, report)}}); !stored.ok()) {
      return CacheFailure(stored);
    }
  }
  if (options.report != nullptr) *options.report = report;
  return verdicts;
}

}  // namespace matload
