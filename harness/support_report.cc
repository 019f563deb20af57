#include "harness/support_report.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "harness/output_files.h"
#include "harness/ptx_module.h"
#include "harness/rule_provenance.h"
#include "nlohmann/json.hpp"
#include "reference/enumerate.h"
#include "reference/parser.h"

namespace matload {
namespace {

// CellState classifies one matrix cell.
enum class CellState { kBoth, kNeither, kModelOnly, kCompilerOnly, kModelLegalUncompiled, kModelIllegalUncompiled };

CellState StateOf(const SupportCell& cell) {
  if (!cell.compiled) return cell.model_legal ? CellState::kModelLegalUncompiled : CellState::kModelIllegalUncompiled;
  if (cell.model_legal) return cell.compiler_accepted ? CellState::kBoth : CellState::kModelOnly;
  return cell.compiler_accepted ? CellState::kCompilerOnly : CellState::kNeither;
}

// Legend: {state, markdown symbol, html class, meaning}.
struct LegendEntry {
  CellState state;
  const char* symbol;
  const char* css;
  const char* meaning;
};
constexpr LegendEntry kLegend[] = {
    {CellState::kBoth, "✓", "both", "legal by the model, accepted by the compiler"},
    {CellState::kNeither, "·", "neither", "illegal by the model, rejected by the compiler"},
    {CellState::kModelOnly, "✗", "model", "legal by the model, REJECTED by the compiler"},
    {CellState::kCompilerOnly, "!", "compiler", "illegal by the model, ACCEPTED by the compiler"},
    {CellState::kModelLegalUncompiled, "m", "uncompiled", "legal by the model; the compiler cannot target it"},
    {CellState::kModelIllegalUncompiled, " ", "none", "illegal by the model; the compiler cannot target it"},
};

const LegendEntry& LegendOf(CellState state) {
  for (const LegendEntry& entry : kLegend) {
    if (entry.state == state) return entry;
  }
  return kLegend[0];
}

std::string HtmlEscape(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

// DisagreementGroup is every disagreement with one registry id (or one
// unexplained disagreement on its own).
struct DisagreementGroup {
  std::string id;
  size_t count = 0;
  std::set<std::string> targets;
  const Disagreement* example = nullptr;
};

std::vector<DisagreementGroup> Group(const SupportSweep& sweep) {
  std::map<std::string, DisagreementGroup> groups;
  size_t unexplained = 0;
  for (const Disagreement& disagreement : sweep.disagreements) {
    const std::string id =
        disagreement.registry_id.empty() ? absl::StrCat("unexplained-", ++unexplained) : disagreement.registry_id;
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

std::string Markdown(const SupportSweep& sweep, const DiscrepancyRegistry& registry, const ReportContext& context,
                     const std::vector<DisagreementGroup>& groups) {
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
  for (const DisagreementGroup& group : groups) {
    absl::StrAppend(&md, "### ", group.id, "\n\n- ", group.count, " forms on ", absl::StrJoin(group.targets, ", "),
                    "\n");
    for (const DiscrepancyEntry& entry : registry.entries()) {
      if (entry.id == group.id) absl::StrAppend(&md, "- ", entry.judgement, "\n- Model rule: `", entry.rule, "`\n");
    }
    absl::StrAppend(&md, "- Example (", group.example->target, ", model says ",
                    group.example->model_legal ? "legal" : "illegal", "): `", group.example->instruction, "`\n");
    if (!group.example->compiler_messages.empty()) {
      absl::StrAppend(&md, "- Compiler: ", absl::StrJoin(group.example->compiler_messages, " | "), "\n");
    }
    absl::StrAppend(&md, "- Reproduce: `", ReproducerCommand(context, group.example->target, group.id), "` (",
                    group.example->model_legal ? "rejects" : "accepts", " it)\n\n");
  }
  absl::StrAppend(&md, RuleProvenanceMarkdown(registry, sweep.compiler));
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
      absl::StrAppend(&md, " ", LegendOf(StateOf(row.cells.at(target))).symbol, " |");
    }
    absl::StrAppend(&md, "\n");
  }
  return md;
}

std::string Html(const SupportSweep& sweep, const ReportContext& context) {
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>matload support: ", HtmlEscape(sweep.compiler),
      "</title>\n<style>body{font:13px sans-serif;margin:1em}table{border-collapse:collapse}"
      "th,td{border:1px solid #ddd;padding:1px 4px}th{position:sticky;top:0;background:#fff}"
      "td.q{font-family:monospace;white-space:nowrap}td.c{width:1.6em;text-align:center}"
      ".both{background:#3a3}.neither{background:#eee}.model{background:#d22}.compiler{background:#f90}"
      ".uncompiled{background:#9c9}.none{background:#fafafa}</style></head><body>\n<h1>Support matrix: ",
      HtmlEscape(sweep.compiler), ", PTX ISA ", sweep.ptx.ToString(), "</h1>\n<p>Made by <code>",
      HtmlEscape(context.command), "</code> on ", context.date, " (", HtmlEscape(context.machine),
      "). Rows are qualifier sets legal on some target; hover a cell for the compiler's messages.</p>\n<p>");
  for (const LegendEntry& entry : kLegend) {
    absl::StrAppend(&html, "<span class=\"", entry.css, "\">&nbsp;&nbsp;&nbsp;</span> ", entry.meaning, "<br>\n");
  }
  absl::StrAppend(&html, "</p>\n");
  std::string family;
  for (const SupportRow& row : sweep.rows) {
    if (row.family != family) {
      if (!family.empty()) absl::StrAppend(&html, "</table>\n");
      family = row.family;
      absl::StrAppend(&html, "<h2>", HtmlEscape(family), "</h2>\n<table><tr><th>qualifiers</th>");
      for (const std::string& target : sweep.targets) absl::StrAppend(&html, "<th>", target, "</th>");
      absl::StrAppend(&html, "</tr>\n");
    }
    absl::StrAppend(&html, "<tr><td class=\"q\">", HtmlEscape(row.opcode), "</td>");
    for (const std::string& target : sweep.targets) {
      const SupportCell& cell = row.cells.at(target);
      const LegendEntry& entry = LegendOf(StateOf(cell));
      absl::StrAppend(&html, "<td class=\"c ", entry.css, "\" title=\"", target, ": ", entry.meaning,
                      cell.sass.empty() ? "" : absl::StrCat("\nSASS: ", cell.sass),
                      cell.compiler_messages.empty() ? "" : "\n",
                      cell.compiler_messages.empty() ? "" : HtmlEscape(cell.compiler_messages.front()), "\"></td>");
    }
    absl::StrAppend(&html, "</tr>\n");
  }
  absl::StrAppend(&html, "</table>\n</body></html>\n");
  return html;
}

nlohmann::json Json(const SupportSweep& sweep, const ReportContext& context,
                    const std::vector<DisagreementGroup>& groups) {
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
    json["disagreements"].push_back({{"id", group.id},
                                     {"explained", group.example->registry_id == group.id},
                                     {"count", group.count},
                                     {"targets", group.targets},
                                     {"example", group.example->instruction},
                                     {"example_target", group.example->target},
                                     {"model", group.example->model_legal ? "legal" : "illegal"},
                                     {"compiler_messages", group.example->compiler_messages},
                                     {"reproducer", absl::StrCat("reproducers/", group.id, ".ptx")}});
  }
  return json;
}

// JsonWithProvenance is `json` with the misdiagnoses and unstated rules
// (harness/rule_provenance.h) added.
nlohmann::json JsonWithProvenance(nlohmann::json json, const DiscrepancyRegistry& registry,
                                  absl::string_view toolchain) {
  AddRuleProvenance(registry, toolchain, json);
  return json;
}

}  // namespace

absl::Status WriteSupportReport(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                const ReportContext& context, const std::string& directory) {
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
       {std::pair<std::string, std::string>{"support.md", Markdown(sweep, registry, context, groups)},
        {"support.html", Html(sweep, context)},
        {"support.json", JsonWithProvenance(Json(sweep, context, groups), registry, sweep.compiler)
                             .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)}}) {
    absl::Status written = WriteFile(std::filesystem::path(directory) / name, text);
    if (!written.ok()) return written;
  }
  return absl::OkStatus();
}

}  // namespace matload
