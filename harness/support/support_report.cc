#include "harness/support/support_report.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/compile/ptx_module.h"
#include "harness/judge/rule_provenance.h"
#include "harness/platform/output_files.h"
#include "harness/platform/without_home.h"
#include "harness/support/registry_standing.h"
#include "harness/support/support_matrix_page.h"
#include "nlohmann/json.hpp"
#include "reference/enumerate.h"
#include "reference/parser.h"

namespace matload {
namespace {

// Legend: {state, markdown symbol, meaning}.
struct LegendEntry {
  CellState state;
  const char* symbol;
  const char* meaning;
};
constexpr LegendEntry kLegend[] = {
    {CellState::kBoth, "✓", "legal by the model, accepted by the compiler"},
    {CellState::kNeither, "·", "illegal by the model, rejected by the compiler"},
    {CellState::kModelOnly, "✗", "legal by the model, REJECTED by the compiler"},
    {CellState::kCompilerOnly, "!", "illegal by the model, ACCEPTED by the compiler"},
    {CellState::kModelLegalUncompiled, "m", "legal by the model; the compiler cannot target it"},
    {CellState::kModelIllegalUncompiled, " ", "illegal by the model; the compiler cannot target it"},
};

const LegendEntry& LegendOf(CellState state) {
  for (const LegendEntry& entry : kLegend) {
    if (entry.state == state) return entry;
  }
  return kLegend[0];
}

// DisagreementGroup is every disagreement with one registry id (or one
// unexplained disagreement on its own).
struct DisagreementGroup {
  std::string id;
  size_t count = 0;
  std::set<std::string> targets;
  const Disagreement* example = nullptr;
};

// GroupIds names each disagreement's group, in the sweep's order: its
// registry id, or "unexplained-N" for the Nth unexplained one.
std::vector<std::string> GroupIds(const SupportSweep& sweep) {
  std::vector<std::string> ids;
  size_t unexplained = 0;
  for (const Disagreement& disagreement : sweep.disagreements) {
    ids.push_back(disagreement.registry_id.empty() ? absl::StrCat("unexplained-", ++unexplained)
                                                   : disagreement.registry_id);
  }
  return ids;
}

std::vector<DisagreementGroup> Group(const SupportSweep& sweep) {
  std::map<std::string, DisagreementGroup> groups;
  const std::vector<std::string> ids = GroupIds(sweep);
  for (size_t i = 0; i < sweep.disagreements.size(); ++i) {
    const Disagreement& disagreement = sweep.disagreements[i];
    const std::string& id = ids[i];
    DisagreementGroup& group = groups[id];
    group.id = id;
    ++group.count;
    group.targets.insert(disagreement.target);
    if (group.example == nullptr) group.example = &disagreement;
  }
  std::vector<DisagreementGroup> ordered;
  for (auto& [id, group] : groups) ordered.push_back(group);
  return ordered;
}

std::string ReproducerCommand(const ReportContext& context, const std::string& target, const std::string& id) {
  return absl::StrCat(context.compiler_path, " -arch=", target, " reproducers/", id, ".ptx -o /dev/null");
}

// GroupMarkdown is one disagreement group's section of support.md.
std::string GroupMarkdown(const SupportSweep& sweep, const DiscrepancyRegistry& registry, const ReportContext& context,
                          const DisagreementGroup& group) {
  std::string md = absl::StrCat("### ", group.id, "\n\n");
  const DiscrepancyEntry* entry = registry.ById(group.id);
  if (const std::string standing = entry == nullptr ? "" : DiscrepancyRegistry::Standing(*entry, sweep.compiler);
      !standing.empty()) {
    absl::StrAppend(&md, "- known, ", standing, " (", MeasuredOn(*entry), ")\n");
  }
  absl::StrAppend(&md, "- ", group.count, " forms on ", absl::StrJoin(group.targets, ", "), "\n");
  if (entry != nullptr) absl::StrAppend(&md, "- ", entry->judgement, "\n- Model rule: `", entry->rule, "`\n");
  absl::StrAppend(&md, "- Example (", group.example->target, ", model says ",
                  group.example->model_legal ? "legal" : "illegal", "): `", group.example->instruction, "`\n");
  if (!group.example->compiler_messages.empty()) {
    absl::StrAppend(&md, "- Compiler: ", absl::StrJoin(group.example->compiler_messages, " | "), "\n");
  }
  absl::StrAppend(&md, "- Reproduce: `", ReproducerCommand(context, group.example->target, group.id), "` (",
                  group.example->model_legal ? "rejects" : "accepts", " it)\n\n");
  return md;
}

// FixedMarkdown is support.md's section on the entries in force on the
// compiler that it no longer shows, if there are any.
std::string FixedMarkdown(const SupportSweep& sweep, const RegistryStanding& standing) {
  if (standing.fixed.empty()) return "";
  std::string md = absl::StrCat(
      "## Registry entries fixed in ", sweep.compiler, "\n\nEntries in force on ", sweep.compiler,
      " (measured on an earlier release, no fix recorded) under which no form disagrees now, though the sweep "
      "compiled forms that fall under them. Record the release in each one's `fixed_in` "
      "(docs/known-discrepancies.md).\n\n");
  for (const DiscrepancyEntry* entry : standing.fixed) {
    absl::StrAppend(&md, "- `", entry->id, "`: fixed in ", sweep.compiler, " (", MeasuredOn(*entry), ")\n");
  }
  return absl::StrCat(md, "\n");
}

std::string Markdown(const SupportSweep& sweep, const DiscrepancyRegistry& registry, const ReportContext& context,
                     const std::vector<DisagreementGroup>& groups, const RegistryStanding& standing) {
  std::string md = absl::StrCat("# Support matrix: ", sweep.compiler, ", PTX ISA ", sweep.ptx.ToString(), "\n\n");
  absl::StrAppend(&md, "- Made by: `", context.command, "` on ", context.date, ", in ",
                  absl::StrFormat("%.0f", context.seconds), " s\n- Machine: ", context.machine,
                  "\n- Compiler: ", sweep.compiler, " (", context.compiler_path, ")\n",
                  "- support.json holds the same data; support.html shows the matrix as a heat map.\n\n");
  absl::StrAppend(&md, "## Per target\n\nEvery qualifier set legal on some target (the matrix rows), every legal "
                       "form in every operand style, and every near-miss illegal form, judged by the model and "
                       "compiled.\n\n| target | matrix rows | legal forms | near-miss forms | agree | known "
                       "discrepancies | unexplained |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const TargetSummary& summary : sweep.summaries) {
    if (!summary.compiled) {
      absl::StrAppend(&md, "| ", summary.target, " | ", summary.matrix_rows, " | ", summary.legal, " | ",
                      summary.near_miss, " | model only: the compiler cannot target it | | |\n");
      continue;
    }
    absl::StrAppend(&md, "| ", summary.target, " | ", summary.matrix_rows, " | ", summary.legal, " | ",
                    summary.near_miss, " | ", summary.agree, " | ", summary.explained, " | ", summary.unexplained,
                    " |\n");
  }
  for (const TargetSummary& summary : sweep.summaries) {
    if (!summary.sass_error.empty()) {
      absl::StrAppend(&md, "\nNo SASS lowering for ", summary.target, ": ", summary.sass_error, "\n");
    }
  }
  absl::StrAppend(&md, "\n## Disagreements\n\nEach group is a known discrepancy from "
                       "`corpora/known_discrepancies.json` or an unexplained disagreement. Each has a standalone "
                       "reproducer: the module in `reproducers/` and the command below.\n\n");
  if (groups.empty()) absl::StrAppend(&md, "None.\n");
  for (const DisagreementGroup& group : groups) absl::StrAppend(&md, GroupMarkdown(sweep, registry, context, group));
  absl::StrAppend(&md, FixedMarkdown(sweep, standing), RuleProvenanceMarkdown(registry, sweep.compiler));
  bool any_sass = false;
  for (const SupportRow& row : sweep.rows) {
    for (const auto& [target, cell] : row.cells) any_sass = any_sass || !cell.sass.empty();
  }
  if (any_sass) {
    absl::StrAppend(&md, "## SASS lowering\n\nThe load instructions each accepted qualifier set compiles to (its "
                         "plain spelling in a kernel of its own, read with cuobjdump), with the targets where it "
                         "does so.\n\n| qualifiers | lowering: targets |\n| --- | --- |\n");
    for (const SupportRow& row : sweep.rows) {
      std::map<std::string, std::vector<std::string>> by_lowering;
      for (const std::string& target : sweep.targets) {
        const SupportCell& cell = row.cells.at(target);
        if (cell.model_legal && cell.compiler_accepted) by_lowering[cell.sass.empty() ? "(no load)" : cell.sass].push_back(target);
      }
      if (by_lowering.empty()) continue;
      absl::StrAppend(&md, "| `", row.opcode, "` | ",
                      absl::StrJoin(by_lowering, "; ", [](std::string* out, const auto& entry) {
                        absl::StrAppend(out, "`", entry.first, "`: ", absl::StrJoin(entry.second, " "));
                      }),
                      " |\n");
    }
    absl::StrAppend(&md, "\n");
  }
  absl::StrAppend(&md, "## The matrix\n\n");
  for (const LegendEntry& entry : kLegend) absl::StrAppend(&md, "- `", entry.symbol, "` ", entry.meaning, "\n");
  std::string family;
  for (const SupportRow& row : sweep.rows) {
    if (row.family != family) {
      family = row.family;
      absl::StrAppend(&md, "\n### ", family, "\n\n| qualifiers | ", absl::StrJoin(sweep.targets, " | "), " |\n| --- |");
      for (size_t i = 0; i < sweep.targets.size(); ++i) absl::StrAppend(&md, " :-: |");
      absl::StrAppend(&md, "\n");
    }
    absl::StrAppend(&md, "| `", row.opcode, "` |");
    for (const std::string& target : sweep.targets) {
      absl::StrAppend(&md, " ", LegendOf(CellStateOf(row.cells.at(target))).symbol, " |");
    }
    absl::StrAppend(&md, "\n");
  }
  return md;
}

// MatrixContext is what support.html says of how the sweep was made.
MatrixPageContext MatrixContext(const SupportSweep& sweep, const ReportContext& context) {
  MatrixPageContext page{.command = context.command,
                         .date = context.date,
                         .machine = context.machine,
                         .compiler_path = context.compiler_path,
                         .seconds = context.seconds};
  for (const std::string& id : GroupIds(sweep)) page.reproducers.push_back(absl::StrCat("reproducers/", id, ".ptx"));
  return page;
}

nlohmann::json Json(const SupportSweep& sweep, const DiscrepancyRegistry& registry, const ReportContext& context,
                    const std::vector<DisagreementGroup>& groups, const RegistryStanding& standing) {
  nlohmann::json json = {{"compiler", sweep.compiler}, {"ptx", sweep.ptx.ToString()}, {"command", context.command},
                         {"date", context.date},       {"machine", context.machine}, {"seconds", context.seconds},
                         {"targets", sweep.targets}};
  for (const TargetSummary& s : sweep.summaries) {
    json["summaries"].push_back({{"target", s.target}, {"compiled", s.compiled}, {"matrix_rows", s.matrix_rows},
                                 {"legal", s.legal}, {"near_miss", s.near_miss}, {"agree", s.agree},
                                 {"known_discrepancies", s.explained}, {"unexplained", s.unexplained},
                                 {"sass_error", s.sass_error}});
  }
  for (const SupportRow& row : sweep.rows) {
    nlohmann::json cells = nlohmann::json::object();
    for (const auto& [target, cell] : row.cells) {
      cells[target] = {{"model", cell.model_legal ? "legal" : "illegal"},
                       {"compiler", !cell.compiled ? "not compiled" : cell.compiler_accepted ? "accepted" : "rejected"}};
      if (!cell.sass.empty()) cells[target]["sass"] = cell.sass;
      if (!cell.compiler_messages.empty()) {
        cells[target]["message"] = cell.compiler_messages.front();
        cells[target]["messages"] = cell.compiler_messages.size();
      }
    }
    json["rows"].push_back({{"family", row.family}, {"qualifiers", row.opcode}, {"instruction", row.instruction},
                            {"cells", cells}});
  }
  json["disagreements"] = nlohmann::json::array();
  for (const DisagreementGroup& group : groups) {
    const DiscrepancyEntry* entry = registry.ById(group.id);
    json["disagreements"].push_back(
        {{"id", group.id},
         {"standing", entry == nullptr ? "" : DiscrepancyRegistry::Standing(*entry, sweep.compiler)},
         {"explained", group.example->registry_id == group.id},
         {"count", group.count},
         {"targets", group.targets},
         {"example", group.example->instruction},
         {"example_target", group.example->target},
         {"model", group.example->model_legal ? "legal" : "illegal"},
         {"compiler_messages", group.example->compiler_messages},
         {"reproducer", absl::StrCat("reproducers/", group.id, ".ptx")}});
  }
  json["fixed"] = nlohmann::json::array();
  for (const DiscrepancyEntry* entry : standing.fixed) json["fixed"].push_back(entry->id);
  return json;
}

// JsonWithProvenance is `json` with the misdiagnoses and unstated rules
// (harness/judge/rule_provenance.h) added.
nlohmann::json JsonWithProvenance(nlohmann::json json, const DiscrepancyRegistry& registry,
                                  absl::string_view toolchain) {
  AddRuleProvenance(registry, toolchain, json);
  return json;
}

}  // namespace

absl::Status WriteSupportReport(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                const ReportContext& as_made, const std::string& directory) {
  ReportContext context = as_made;
  context.command = WithoutHome(as_made.command);
  context.compiler_path = WithoutHome(as_made.compiler_path);
  const std::filesystem::path reproducers = std::filesystem::path(directory) / "reproducers";
  if (absl::Status made = CreateDirectories(reproducers); !made.ok()) return made;
  std::error_code error;
  for (std::filesystem::directory_iterator stale(reproducers, error), end; !error && stale != end;
       stale.increment(error)) {
    std::filesystem::remove(stale->path(), error);
  }
  if (error) {
    return absl::FailedPreconditionError(absl::StrCat("cannot clear ", reproducers.string(), ": ", error.message()));
  }
  const std::vector<DisagreementGroup> groups = Group(sweep);
  const RegistryStanding standing = StandingOf(registry, sweep);
  absl::StatusOr<std::string> html = SupportMatrixHtml(sweep, registry, MatrixContext(sweep, context));
  if (!html.ok()) return html.status();
  for (const DisagreementGroup& group : groups) {
    absl::StatusOr<Snippet> snippet = ParseSnippet(group.example->instruction);
    if (!snippet.ok()) return snippet.status();
    snippet->declarations = UsedStandardDeclarations(snippet->instruction);
    const PtxModule module = BuildModule({*snippet}, sweep.ptx, *ParseTarget(group.example->target));
    absl::Status written =
        WriteFile(std::filesystem::path(directory) / "reproducers" / absl::StrCat(group.id, ".ptx"), module.text);
    if (!written.ok()) return written;
  }
  for (const auto& [name, text] :
       {std::pair<std::string, std::string>{"support.md", Markdown(sweep, registry, context, groups, standing)},
        {"support.html", *html},
        {"support.json", JsonWithProvenance(Json(sweep, registry, context, groups, standing), registry, sweep.compiler)
                             .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)}}) {
    absl::Status written = WriteFile(std::filesystem::path(directory) / name, text);
    if (!written.ok()) return written;
  }
  return absl::OkStatus();
}

}  // namespace matload
