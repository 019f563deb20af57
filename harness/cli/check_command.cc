#include "harness/cli/check_command.h"

#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace matload {

absl::StatusOr<std::vector<LabeledSnippet>> ReadSnippetFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot read snippet file ", path));
  std::vector<LabeledSnippet> snippets;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text[0] == '#') continue;
    snippets.push_back({absl::StrCat(path, ":", number), std::string(text)});
  }
  if (file.bad()) return absl::DataLossError(absl::StrCat("error while reading ", path));
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
