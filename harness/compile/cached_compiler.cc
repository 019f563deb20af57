#include "harness/compile/cached_compiler.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/compile/sass_lowering.h"
#include "harness/platform/infrastructure.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// kSeverityNames spell Diagnostic::Severity in answers.
constexpr std::pair<Diagnostic::Severity, const char*> kSeverityNames[] = {
    {Diagnostic::Severity::kWarning, "warning"},
    {Diagnostic::Severity::kError, "error"},
    {Diagnostic::Severity::kFatal, "fatal"},
    {Diagnostic::Severity::kUnrecognised, "unrecognised"}};

// Question is what a cached answer is known by: its form, the target and
// the module's full text.
std::string Question(absl::string_view form, Target target, absl::string_view module_text) {
  return absl::StrCat(form, " ", target.Name(), "\n", module_text);
}

// AnswerForm says how an assemble answer is written: "assemble/1" answers
// (Assemble) name no module, "assemble-modules/1" answers (AssembleModules)
// name each diagnostic's module.
enum class AnswerForm { kOneModule, kModules };

// AssembleAnswer writes `result` in `form`: {"accepted": bool, "diagnostics":
// [[severity, line, message], ...]}, or [severity, module, line, message].
std::string AssembleAnswer(const AssembleResult& result, AnswerForm form) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const Diagnostic& diagnostic : result.diagnostics) {
    const char* severity = "";
    for (const auto& [value, name] : kSeverityNames) {
      if (value == diagnostic.severity) severity = name;
    }
    diagnostics.push_back(form == AnswerForm::kModules
                              ? nlohmann::json{severity, diagnostic.module, diagnostic.line, diagnostic.message}
                              : nlohmann::json{severity, diagnostic.line, diagnostic.message});
  }
  return nlohmann::json{{"accepted", result.accepted}, {"diagnostics", diagnostics}}.dump();
}

// ReadAssembleAnswer reads what AssembleAnswer wrote in `form`, or nullopt
// for text of any other shape.
std::optional<AssembleResult> ReadAssembleAnswer(const std::string& text, AnswerForm form) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const size_t fields = form == AnswerForm::kModules ? 4 : 3;
  AssembleResult result;
  try {
    result.accepted = json.at("accepted").get<bool>();
    for (const nlohmann::json& entry : json.at("diagnostics")) {
      if (entry.size() != fields) return std::nullopt;
      const std::string severity = entry.at(0).get<std::string>();
      const auto* named = std::find_if(std::begin(kSeverityNames), std::end(kSeverityNames),
                                       [&severity](const auto& name) { return severity == name.second; });
      if (named == std::end(kSeverityNames)) return std::nullopt;
      Diagnostic& diagnostic = result.diagnostics.emplace_back();
      diagnostic.severity = named->first;
      diagnostic.module = fields == 4 ? entry.at(1).get<int>() : 0;
      diagnostic.line = entry.at(fields - 2).get<int>();
      diagnostic.message = entry.at(fields - 1).get<std::string>();
    }
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return result;
}

// ReadSassAnswer reads a "sass/1" answer, a JSON array of one lowering per
// form, or nullopt when it is not one of `forms` strings.
std::optional<std::vector<std::string>> ReadSassAnswer(const std::string& text, size_t forms) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> lowering;
  try {
    lowering = json.get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  if (lowering.size() != forms) return std::nullopt;
  return lowering;
}

}  // namespace

absl::Status CacheFailure(const absl::Status& status) {
  return MarkInfrastructure(
      absl::IsDataLoss(status) ? InfrastructureCause::kOutOfDisk : InfrastructureCause::kHarnessError, status);
}

absl::StatusOr<AssembleResult> CachedCompiler::Assemble(absl::string_view module_text, Target target) const {
  return Answered(Question("assemble/1", target, module_text), /*with_modules=*/false,
                  [&] { return compiler_.Assemble(module_text, target); });
}

absl::StatusOr<AssembleResult> CachedCompiler::AssembleModules(const std::vector<std::string>& modules,
                                                               Target target) const {
  std::string texts;
  for (const std::string& module : modules) absl::StrAppend(&texts, module.size(), "\n", module);
  return Answered(Question("assemble-modules/1", target, texts), /*with_modules=*/true,
                  [&] { return compiler_.AssembleModules(modules, target); });
}

absl::StatusOr<AssembleResult> CachedCompiler::Answered(
    std::string question, bool with_modules, const std::function<absl::StatusOr<AssembleResult>()>& ask) const {
  const AnswerForm form = with_modules ? AnswerForm::kModules : AnswerForm::kOneModule;
  absl::StatusOr<std::optional<std::string>> kept = cache_.Find(identity_, question);
  if (!kept.ok()) return CacheFailure(kept.status());
  if (kept->has_value()) {
    if (std::optional<AssembleResult> answer = ReadAssembleAnswer(**kept, form); answer.has_value()) return *answer;
  }
  absl::StatusOr<AssembleResult> result = ask();
  if (!result.ok()) return result;
  std::lock_guard<std::mutex> lock(mutex_);
  held_.push_back({std::move(question), AssembleAnswer(*result, form)});
  return result;
}

absl::Status CachedCompiler::KeepAnswers() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status kept = cache_.Keep(identity_, held_); !kept.ok()) return CacheFailure(kept);
  held_.clear();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> LowerToSassCached(VerdictCache& cache, const std::string& identity,
                                                           const Ptxas& ptxas, const std::string& cuobjdump,
                                                           const std::vector<RawInstruction>& forms, PtxVersion ptx,
                                                           Target target) {
  const std::string question = Question("sass/1", target, SassModule(forms, ptx, target));
  absl::StatusOr<std::optional<std::string>> kept = cache.Find(identity, question);
  if (!kept.ok()) return CacheFailure(kept.status());
  if (kept->has_value()) {
    if (std::optional<std::vector<std::string>> answer = ReadSassAnswer(**kept, forms.size()); answer.has_value()) {
      return *answer;
    }
  }
  absl::StatusOr<std::vector<std::string>> lowering = LowerToSass(ptxas, cuobjdump, forms, ptx, target);
  if (!lowering.ok()) return lowering;
  if (absl::Status stored = cache.Keep(identity, {{question, nlohmann::json(*lowering).dump()}}); !stored.ok()) {
    return CacheFailure(stored);
  }
  return lowering;
}

}  // namespace matload
