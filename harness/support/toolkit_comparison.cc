#include "harness/support/toolkit_comparison.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/platform/without_home.h"

namespace matload {
namespace {

// Verdict of one compiler on one cell, as a word.
std::string CellWord(const SupportCell& cell) {
  if (!cell.compiled) return "not compiled";
  return cell.compiler_accepted ? "accepts" : "rejects";
}

}  // namespace

std::string ToolkitComparisonMarkdown(const std::vector<SupportSweep>& sweeps, const std::string& command,
                                      const std::string& date) {
  std::vector<std::string> names;
  for (const SupportSweep& sweep : sweeps) names.push_back(sweep.compiler);
  std::string md = absl::StrCat("# Toolkits compared: ", absl::StrJoin(names, ", "), ", PTX ISA ",
                                sweeps.front().ptx.ToString(), "\n\n- Made by: `", WithoutHome(command), "` on ", date,
                                "\n- Each compiler's own report is in the directory named after it.\n\n");

  absl::StrAppend(&md, "## Per target\n\nForms agreeing with the model / known discrepancies / unexplained "
                       "disagreements, per compiler.\n\n| target | ",
                  absl::StrJoin(names, " | "), " |\n| --- |");
  for (size_t i = 0; i < names.size(); ++i) absl::StrAppend(&md, " --- |");
  absl::StrAppend(&md, "\n");
  for (size_t t = 0; t < sweeps.front().summaries.size(); ++t) {
    absl::StrAppend(&md, "| ", sweeps.front().summaries[t].target, " |");
    for (const SupportSweep& sweep : sweeps) {
      const TargetSummary& summary = sweep.summaries[t];
      if (!summary.compiled) {
        absl::StrAppend(&md, " cannot target |");
      } else {
        absl::StrAppend(&md, " ", summary.agree, " / ", summary.explained, " / ", summary.unexplained, " |");
      }
    }
    absl::StrAppend(&md, "\n");
  }

  absl::StrAppend(&md, "\n## Known discrepancies per compiler\n\nForms each registry entry explains, over all "
                       "targets. A count that drops to 0 is a toolchain change that fixed it.\n\n| entry | ",
                  absl::StrJoin(names, " | "), " |\n| --- |");
  for (size_t i = 0; i < names.size(); ++i) absl::StrAppend(&md, " ---: |");
  absl::StrAppend(&md, "\n");
  std::map<std::string, std::vector<size_t>> per_entry;
  for (size_t s = 0; s < sweeps.size(); ++s) {
    for (const Disagreement& disagreement : sweeps[s].disagreements) {
      const std::string id = disagreement.registry_id.empty() ? "(unexplained)" : disagreement.registry_id;
      per_entry[id].resize(sweeps.size());
      ++per_entry[id][s];
    }
  }
  for (const auto& [id, counts] : per_entry) absl::StrAppend(&md, "| ", id, " | ", absl::StrJoin(counts, " | "), " |\n");

  absl::StrAppend(&md, "\n## Matrix cells that differ\n\nQualifier sets legal on some target whose verdict on a "
                       "target differs between compilers (cells a compiler cannot target are left out).\n\n");
  size_t differing_cells = 0;
  std::string cells = absl::StrCat("| qualifiers | target | model | ", absl::StrJoin(names, " | "), " |\n| --- | --- | --- |");
  for (size_t i = 0; i < names.size(); ++i) absl::StrAppend(&cells, " --- |");
  absl::StrAppend(&cells, "\n");
  for (size_t r = 0; r < sweeps.front().rows.size(); ++r) {
    for (const auto& [target, first] : sweeps.front().rows[r].cells) {
      std::set<bool> verdicts;
      for (const SupportSweep& sweep : sweeps) {
        const SupportCell& cell = sweep.rows[r].cells.at(target);
        if (cell.compiled) verdicts.insert(cell.compiler_accepted);
      }
      if (verdicts.size() < 2) continue;
      ++differing_cells;
      absl::StrAppend(&cells, "| `", sweeps.front().rows[r].opcode, "` | ", target, " | ",
                      first.model_legal ? "legal" : "illegal", " |");
      for (const SupportSweep& sweep : sweeps) absl::StrAppend(&cells, " ", CellWord(sweep.rows[r].cells.at(target)), " |");
      absl::StrAppend(&cells, "\n");
    }
  }
  absl::StrAppend(&md, differing_cells == 0 ? "None.\n" : cells);

  absl::StrAppend(&md, "\n## Near-miss and legal forms whose verdict differs\n\nA form that disagrees with the "
                       "model under one compiler and not under another, on a target every compiler can build "
                       "for.\n\n");
  std::map<std::pair<std::string, std::string>, std::vector<bool>> forms;  // (target, instruction) -> per sweep
  for (size_t s = 0; s < sweeps.size(); ++s) {
    for (const Disagreement& disagreement : sweeps[s].disagreements) {
      auto& flags = forms[{disagreement.target, disagreement.instruction}];
      flags.resize(sweeps.size());
      flags[s] = true;
    }
  }
  std::set<std::string> buildable_everywhere;
  for (size_t t = 0; t < sweeps.front().summaries.size(); ++t) {
    bool everywhere = true;
    for (const SupportSweep& sweep : sweeps) everywhere = everywhere && sweep.summaries[t].compiled;
    if (everywhere) buildable_everywhere.insert(sweeps.front().summaries[t].target);
  }
  size_t differing_forms = 0;
  std::string rows = absl::StrCat("| target | form | ", absl::StrJoin(names, " | "), " |\n| --- | --- |");
  for (size_t i = 0; i < names.size(); ++i) absl::StrAppend(&rows, " --- |");
  absl::StrAppend(&rows, "\n");
  for (const auto& [key, flags] : forms) {
    if (!buildable_everywhere.contains(key.first)) continue;
    std::set<bool> distinct(flags.begin(), flags.end());
    if (distinct.size() < 2) continue;
    if (++differing_forms > 200) continue;
    absl::StrAppend(&rows, "| ", key.first, " | `", key.second, "` |");
    for (bool disagrees : flags) absl::StrAppend(&rows, disagrees ? " differs from the model |" : " agrees |");
    absl::StrAppend(&rows, "\n");
  }
  if (differing_forms == 0) {
    absl::StrAppend(&md, "None.\n");
  } else {
    absl::StrAppend(&md, differing_forms, " forms", differing_forms > 200 ? " (the first 200 listed)" : "", ":\n\n",
                    rows);
  }
  return md;
}

}  // namespace matload
