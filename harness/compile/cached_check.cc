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
  std::string question = absl::StrCat("check-shared/1 ", target.Name(), " ", ptx.ToString(), " ", kMaxSnippetsPerModule,
                                      " ", compiler.MaxModulesPerRun(), " ", options.max_bisection_runs, "\n");
  for (const Declaration& declaration : declarations) {
    absl::StrAppend(&question, declaration.state_space, " ", declaration.type, " ", declaration.name, "\n");
  }
  for (size_t i = 0; i < instructions.size(); ++i) {
    const char guess = options.predicted_legal.empty() ? '?' : (options.predicted_legal[i] ? '+' : '-');
    absl::StrAppend(&question, std::string(1, guess), instructions[i], "\n");
  }
  return question;
}

// WholeAnswer writes `verdicts` and `report`: {"verdicts": [[accepted,
// judged, [message, ...]], ...], "report": [runs, bisection_runs, unjudged,
// [unrecognised line, ...]]}.
std::string WholeAnswer(const std::vector<CompilerVerdict>& verdicts, const BatchReport& report) {
  nlohmann::json written = nlohmann::json::array();
  for (const CompilerVerdict& verdict : verdicts) {
    written.push_back({verdict.accepted, verdict.judged, verdict.messages});
  }
  return nlohmann::json{{"verdicts", written},
                        {"report", {report.runs, report.bisection_runs, report.unjudged, report.unrecognised_lines}}}
      .dump();
}

// ReadWholeAnswer reads what WholeAnswer wrote of `count` forms into
// `report`, or nullopt for text of any other shape.
std::optional<std::vector<CompilerVerdict>> ReadWholeAnswer(const std::string& text, size_t count,
                                                            BatchReport& report) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<CompilerVerdict> verdicts;
  try {
    for (const nlohmann::json& verdict : json.at("verdicts")) {
      verdicts.push_back({.accepted = verdict.at(0).get<bool>(),
                          .messages = verdict.at(2).get<std::vector<std::string>>(),
                          .judged = verdict.at(1).get<bool>()});
    }
    const nlohmann::json& written = json.at("report");
    report = {.runs = written.at(0).get<size_t>(),
              .bisection_runs = written.at(1).get<size_t>(),
              .unjudged = written.at(2).get<size_t>(),
              .unrecognised_lines = written.at(3).get<std::vector<std::string>>()};
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  if (verdicts.size() != count) return std::nullopt;
  return verdicts;
}

}  // namespace

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
      return *verdicts;
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
