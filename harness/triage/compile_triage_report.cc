#include "harness/triage/compile_triage_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/platform/output_files.h"

namespace matload {
namespace {

// Newest is the newest release that has the case.
const ReleaseVerdict& Newest(const CompileTriage& triage) {
  for (auto release = triage.releases.rbegin(); release != triage.releases.rend(); ++release) {
    if (release->present) return *release;
  }
  return triage.releases.back();
}

ReportSection ReleasesSection(const CompileTriage& triage) {
  ReportSection section{.id = "releases", .title = "Across releases",
                        .headers = {"release", "PTX", "model", "ptxas", "its messages", "registry entry"}};
  section.paragraphs.push_back("Each release compiled the case through the support sweep, at the newest PTX version "
                               "both it and matload speak.");
  for (const ReleaseVerdict& release : triage.releases) {
    if (!release.present) {
      section.rows.push_back({release.toolchain, release.ptx.ToString(), "", "", "no such case at this version", ""});
      continue;
    }
    section.rows.push_back({release.toolchain, release.ptx.ToString(), release.model_legal ? "legal" : "illegal",
                            release.crashed ? "crashes" : release.accepted ? "accepts" : "rejects",
                            absl::StrJoin(release.messages, " / "), release.registry_id});
  }
  return section;
}

ReportSection RegistrySection(const CompileTriage& triage) {
  ReportSection section{.id = "registry", .title = "The registry"};
  const nlohmann::json draft = triage.DraftEntry();
  if (!triage.RegistryIds().empty()) {
    section.paragraphs.push_back(absl::StrCat("Explained by ", absl::StrJoin(triage.RegistryIds(), " and "),
                                              " (corpora/known_discrepancies.json)."));
  } else if (draft.is_null()) {
    section.paragraphs.push_back("No release disagrees with the model on this case: nothing to register.");
  } else {
    section.paragraphs.push_back("No entry explains it. draft-entry.json holds a draft to finish and add to "
                                 "corpora/known_discrepancies.json:");
    section.code.push_back(draft.dump(2));
  }
  return section;
}

}  // namespace

TriageDocument DescribeCompileTriage(const CompileTriage& triage) {
  const ReleaseVerdict& newest = Newest(triage);
  TriageDocument document{.title = absl::StrCat("Triage: support case ", triage.case_id)};
  const std::vector<std::string> transitions = triage.Transitions();
  document.summary = absl::StrCat(
      "`", triage.instruction, "` on ", triage.target.Name(), ": the model says ",
      newest.model_legal ? "legal" : "illegal", "; ", absl::StrJoin(transitions, ". "), ". ",
      triage.RegistryIds().empty() ? "No registry entry explains it."
                                   : absl::StrCat("Registry: ", absl::StrJoin(triage.RegistryIds(), ", "), "."));
  ReportSection changes{.id = "changes", .title = "What changed", .headers = {"release by release"}};
  for (const std::string& transition : transitions) changes.rows.push_back({transition});
  document.sections = {ReleasesSection(triage), changes, RegistrySection(triage), CaseHistorySection(triage.history)};
  return document;
}

nlohmann::json CompileTriageJson(const CompileTriage& triage) {
  nlohmann::json releases = nlohmann::json::array();
  for (const ReleaseVerdict& release : triage.releases) {
    releases.push_back({{"toolchain", release.toolchain}, {"ptx", release.ptx.ToString()},
                        {"present", release.present}, {"model_legal", release.model_legal},
                        {"accepted", release.accepted}, {"crashed", release.crashed},
                        {"messages", release.messages}, {"registry_id", release.registry_id}});
  }
  return nlohmann::json{{"case", triage.case_id},         {"target", triage.target.Name()},
                        {"instruction", triage.instruction}, {"releases", releases},
                        {"transitions", triage.Transitions()}, {"registry_ids", triage.RegistryIds()},
                        {"draft_entry", triage.RegistryIds().empty() ? triage.DraftEntry() : nullptr}};
}

absl::Status WriteCompileTriage(const std::filesystem::path& directory, const CompileTriage& triage) {
  if (absl::Status written = WriteTriageDocument(directory, DescribeCompileTriage(triage), CompileTriageJson(triage));
      !written.ok()) {
    return written;
  }
  const nlohmann::json draft = triage.DraftEntry();
  if (!triage.RegistryIds().empty() || draft.is_null()) return absl::OkStatus();
  return WriteFile(directory / "draft-entry.json", draft.dump(2) + "\n");
}

}  // namespace matload
