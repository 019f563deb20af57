#include "harness/cli/check_command.h"

#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/platform/input_files.h"

namespace matload {

absl::StatusOr<std::vector<LabeledSnippet>> ReadSnippetFile(const std::string& path) {
  const absl::StatusOr<std::string> read = ReadFileBytes(path);
  if (!read.ok()) {
    return absl::Status(read.status().code(), absl::StrCat("snippet file: ", read.status().message()));
  }
  const std::string& text = *read;
  if (text.size() > kMaxSnippetFileBytes) {
    return absl::FailedPreconditionError(
        absl::StrCat("snippet file ", path, " is larger than ", kMaxSnippetFileBytes >> 20, " MiB"));
  }
  std::vector<LabeledSnippet> snippets;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    snippets.push_back({absl::StrCat(path, ":", number), std::string(line)});
  }
  return snippets;
}

nlohmann::json VerdictJson(const std::string& instruction, Target target, PtxVersion ptx, const Verdict& verdict) {
  nlohmann::json reasons = nlohmann::json::array();
  for (const Reason& reason : verdict.reasons()) {
    reasons.push_back({{"code", std::string(ReasonCodeName(reason.code))},
                       {"rule", std::string(reason.rule.id)},
                       {"message", reason.message}});
  }
  return {{"instruction", instruction},
          {"target", target.Name()},
          {"ptx", ptx.ToString()},
          {"verdict", verdict.legal() ? "legal" : "illegal"},
          {"reasons", reasons}};
}

std::string VerdictText(const Verdict& verdict) {
  if (verdict.legal()) return "legal";
  return absl::StrCat("illegal: ", absl::StrJoin(verdict.reasons(), "; ", [](std::string* out, const Reason& r) {
                        absl::StrAppend(out, ReasonCodeName(r.code), " (", r.rule.id, "): ", r.message);
                      }));
}

void WriteCheck(const std::vector<LabeledSnippet>& snippets, const std::vector<Target>& targets, PtxVersion ptx,
                bool json, std::ostream& out) {
  const bool single = snippets.size() == 1 && targets.size() == 1;
  for (const LabeledSnippet& snippet : snippets) {
    for (Target target : targets) {
      const Verdict verdict = JudgeText(snippet.text, ptx, target);
      if (json) {
        out << VerdictJson(snippet.text, target, ptx, verdict).dump(-1, ' ', false,
                                                                    nlohmann::json::error_handler_t::replace)
            << "\n";
      } else if (single) {
        out << VerdictText(verdict) << "\n";
      } else {
        out << snippet.label << "\t" << target.Name() << "\t" << VerdictText(verdict) << "\n";
      }
    }
  }
}

}  // namespace matload
