#include "harness/support/support_matrix_page.h"

#include <algorithm>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/judge/rule_provenance.h"
#include "harness/report/case_facets.h"
#include "harness/report/data_block.h"
#include "harness/report/html_page.h"
#include "harness/report/outcome_class.h"
#include "harness/report/report_view.h"
#include "harness/runs/case_id.h"
#include "reference/families.h"

namespace matload {
namespace {

using kainjow::mustache::data;
using kainjow::mustache::list;
using kainjow::mustache::object;

// MatrixLegendEntry says how the page shows one cell state.
struct MatrixLegendEntry {
  CellState state;
  const char* css;  // harness/report/templates/report.css
  const char* meaning;
};
constexpr MatrixLegendEntry kMatrixLegend[] = {
    {CellState::kBoth, "m-both", "legal by the model, accepted by the compiler"},
    {CellState::kNeither, "m-neither", "illegal by the model, rejected by the compiler"},
    {CellState::kModelOnly, "m-model", "legal by the model, REJECTED by the compiler"},
    {CellState::kCompilerOnly, "m-compiler", "illegal by the model, ACCEPTED by the compiler"},
    {CellState::kModelLegalUncompiled, "m-uncompiled", "legal by the model; the compiler cannot target it (hatched)"},
    {CellState::kModelIllegalUncompiled, "m-none", "illegal by the model; the compiler cannot target it (hatched)"},
};

const MatrixLegendEntry& MatrixLegendOf(CellState state) {
  for (const MatrixLegendEntry& entry : kMatrixLegend) {
    if (entry.state == state) return entry;
  }
  return kMatrixLegend[0];
}

// Anchor makes `text` an HTML id: letters, digits, '-' and '_', the rest '_'.
std::string Anchor(absl::string_view text) {
  std::string anchor(text);
  for (char& c : anchor) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-') c = '_';
  }
  return anchor;
}

// Opcode is an instruction's opcode: its text up to the first blank.
std::string Opcode(absl::string_view instruction) {
  instruction = absl::StripLeadingAsciiWhitespace(instruction);
  return std::string(instruction.substr(0, instruction.find_first_of(" \t")));
}

// FacetsOfForm reads the facets of `opcode` on `target` as of the case ID
// it would have (docs/case-ids.md): the family's '.' and '::' written '_'.
CaseFacets FacetsOfForm(const std::string& target, const std::string& opcode) {
  std::string form = absl::StrReplaceAll(opcode, {{"::", "_"}});
  for (const FamilySpec* spec : AllFamilies()) {
    absl::string_view rest = form;
    if (absl::ConsumePrefix(&rest, absl::StrCat(spec->MnemonicText(), "."))) {
      form = absl::StrCat(FamilyToken(*spec), ".", rest);
      break;
    }
  }
  return FacetsOf(absl::StrCat(target, ".", form));
}

// FamilyOf is the family among `families` whose opcodes `opcode` starts, or "".
std::string FamilyOf(const std::string& opcode, const std::vector<std::string>& families) {
  for (const std::string& family : families) {
    if (absl::StartsWith(opcode, family + ".")) return family;
  }
  return "";
}

// Located says where a disagreement shows: its qualifier set's row (by
// opcode and target) or its family's last row, with the first one's anchor.
struct Located {
  std::map<std::pair<std::string, std::string>, std::pair<size_t, std::string>> by_cell;    // (opcode, target)
  std::map<std::pair<std::string, std::string>, std::pair<size_t, std::string>> by_family;  // (family, target)
};

// Count adds one disagreement, anchored at `anchor`, to `counts[key]`.
void Count(std::map<std::pair<std::string, std::string>, std::pair<size_t, std::string>>& counts,
           const std::pair<std::string, std::string>& key, const std::string& anchor) {
  auto& [count, first] = counts[key];
  if (count++ == 0) first = anchor;
}

// CountCell is a cell's count and link, or false where it has none.
void SetCount(object& cell, const std::pair<size_t, std::string>* count) {
  if (count == nullptr) {
    cell["count"] = data(false);
    return;
  }
  cell["count"] = std::to_string(count->first);
  cell["href"] = count->second;
}

// RuleOf is the model rule a registry entry names, and the source of that
// rule where the PTX text does not state it (empty where it does).
std::pair<std::string, std::string> RuleOf(const DiscrepancyRegistry& registry, const std::string& registry_id) {
  static const auto* const kUnstated = new std::vector<SpecRef>(UnstatedRules());
  for (const DiscrepancyEntry& entry : registry.entries()) {
    if (entry.id != registry_id) continue;
    for (const SpecRef& rule : *kUnstated) {
      if (rule.id == entry.rule) return {entry.rule, std::string(RuleSourceName(rule.source))};
    }
    return {entry.rule, ""};
  }
  return {"", ""};
}

// MisdiagnosisRows are the toolchain's known misdiagnoses (rule_provenance.h).
list MisdiagnosisRows(const DiscrepancyRegistry& registry, const std::string& toolchain) {
  list rows;
  for (const DiscrepancyEntry* entry : Misdiagnoses(registry, toolchain)) {
    std::vector<std::string> targets;
    for (Target target : entry->targets) targets.push_back(target.Name());
    rows.push_back(object{{"id", entry->id},
                          {"rule", entry->rule},
                          {"targets", absl::StrJoin(targets, ", ")},
                          {"message", entry->toolchain_message},
                          {"judgement", entry->judgement},
                          {"example", entry->example}});
  }
  return rows;
}

// DisagreementRows are the sweep's disagreements as the data block that
// templates/report.js renders as the rows of the disagreement table (its
// "disagreement" renderer); each is counted in `located` where it shows.
DataBlock DisagreementRows(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                           const MatrixPageContext& context, const std::vector<std::string>& families,
                           Located& located) {
  std::map<std::string, bool> row_opcodes;
  for (const SupportRow& row : sweep.rows) row_opcodes[row.opcode] = true;
  DataBlock rows({"anchor", "instruction", "target", "family", "shape", "type", "outcome", "disagreement", "model",
                  "compiler_verdict", "css", "registry", "rule", "rule_label", "message", "reproducer"},
                 3);
  for (size_t i = 0; i < sweep.disagreements.size(); ++i) {
    const Disagreement& disagreement = sweep.disagreements[i];
    const std::string opcode = Opcode(disagreement.instruction);
    const std::string family = FamilyOf(opcode, families);
    const std::string anchor = absl::StrCat("d", i);
    if (row_opcodes.contains(opcode)) {
      Count(located.by_cell, {opcode, disagreement.target}, anchor);
    } else {
      Count(located.by_family, {family, disagreement.target}, anchor);
    }
    const CaseFacets facets = FacetsOfForm(disagreement.target, opcode);
    const bool explained = !disagreement.registry_id.empty();
    const CaseOutcome outcome = OutcomeOf(disagreement);
    const auto [rule, rule_source] = RuleOf(registry, disagreement.registry_id);
    rows.AddRow({anchor, disagreement.instruction, disagreement.target, facets.family, facets.shape, facets.type,
                 std::string(CaseOutcomeWord(outcome)), "1", disagreement.model_legal ? "legal" : "illegal",
                 disagreement.compiler_crashed ? "crashed"
                 : disagreement.model_legal    ? "rejected"
                                               : "accepted",
                 LegendOf(ClassOf(outcome, !explained)).css, explained ? disagreement.registry_id : "unexplained", rule,
                 rule_source, disagreement.compiler_messages.empty() ? "" : disagreement.compiler_messages.front(),
                 i < context.reproducers.size() ? context.reproducers[i] : ""});
  }
  return rows;
}

// CellTitle is a cell's hover text: target, state, SASS and first message.
std::string CellTitle(const std::string& target, const SupportCell& cell) {
  std::string title = absl::StrCat(target, ": ", MatrixLegendOf(CellStateOf(cell)).meaning);
  if (!cell.sass.empty()) absl::StrAppend(&title, "\nSASS: ", cell.sass);
  if (!cell.compiler_messages.empty()) absl::StrAppend(&title, "\n", cell.compiler_messages.front());
  return title;
}

// FamilyView is one family's table: its rows in natural order, as a data
// block (report.js's "matrix" renderer), then its other forms' row.
object FamilyView(const std::string& family, const SupportSweep& sweep, const Located& located,
                  const list& targets) {
  std::vector<const SupportRow*> ordered;
  for (const SupportRow& row : sweep.rows) {
    if (row.family == family) ordered.push_back(&row);
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const SupportRow* a, const SupportRow* b) { return NaturalLess(a->opcode, b->opcode); });
  DataBlock rows({"anchor", "opcode", "css", "titles", "counts", "hrefs"}, 2);
  for (const SupportRow* row : ordered) {
    std::vector<std::string> css, titles, counts, hrefs;
    for (const std::string& target : sweep.targets) {
      const SupportCell& cell = row->cells.at(target);
      css.push_back(MatrixLegendOf(CellStateOf(cell)).css);
      titles.push_back(CellTitle(target, cell));
      const auto found = located.by_cell.find({row->opcode, target});
      const bool counted = found != located.by_cell.end();
      counts.push_back(counted ? std::to_string(found->second.first) : "");
      hrefs.push_back(counted ? found->second.second : "");
    }
    rows.AddRow({Anchor(row->opcode), row->opcode, css, titles, counts, hrefs});
  }
  list others;
  for (const std::string& target : sweep.targets) {
    object view;
    const auto found = located.by_family.find({family, target});
    SetCount(view, found == located.by_family.end() ? nullptr : &found->second);
    others.push_back(view);
  }
  return object{{"family", family},
                {"anchor", Anchor(family)},
                {"rows", rows.ScriptText()},
                {"others", others},
                {"targets", targets}};
}

// TargetColumns head the matrix's columns: each target with its accepted
// qualifier sets and its disagreements.
list TargetColumns(const SupportSweep& sweep) {
  list columns;
  for (const std::string& target : sweep.targets) {
    size_t accepted = 0, disagreements = 0;
    for (const SupportRow& row : sweep.rows) accepted += row.cells.at(target).compiler_accepted;
    for (const Disagreement& disagreement : sweep.disagreements) disagreements += disagreement.target == target;
    columns.push_back(object{{"name", target},
                             {"accepted", Thousands(accepted)},
                             {"disagreements", Thousands(disagreements)}});
  }
  return columns;
}

list SummaryRows(const SupportSweep& sweep) {
  list rows;
  for (const TargetSummary& summary : sweep.summaries) {
    std::string note = summary.compiled ? "" : "model only: the compiler cannot target it";
    if (!summary.sass_error.empty()) note = absl::StrCat("no SASS lowering: ", summary.sass_error);
    rows.push_back(object{{"target", summary.target},
                          {"matrix_rows", Thousands(summary.matrix_rows)},
                          {"legal", Thousands(summary.legal)},
                          {"near_miss", Thousands(summary.near_miss)},
                          {"agree", summary.compiled ? Thousands(summary.agree) : ""},
                          {"explained", std::to_string(summary.explained)},
                          {"unexplained", std::to_string(summary.unexplained)},
                          {"note", note}});
  }
  return rows;
}

}  // namespace

absl::StatusOr<std::string> SupportMatrixHtml(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                              const MatrixPageContext& context) {
  std::vector<std::string> families;
  for (const SupportRow& row : sweep.rows) {
    if (std::find(families.begin(), families.end(), row.family) == families.end()) families.push_back(row.family);
  }
  Located located;
  const DataBlock disagreements = DisagreementRows(sweep, registry, context, families, located);
  const list targets = TargetColumns(sweep);
  list family_views, matrix_legend;
  for (const std::string& family : families) family_views.push_back(FamilyView(family, sweep, located, targets));
  for (const MatrixLegendEntry& entry : kMatrixLegend) {
    matrix_legend.push_back(object{{"css", entry.css}, {"meaning", entry.meaning}});
  }
  std::vector<std::string> filter_ids, outcomes;
  for (const Disagreement& disagreement : sweep.disagreements) {
    const CaseFacets facets = FacetsOfForm(disagreement.target, Opcode(disagreement.instruction));
    filter_ids.push_back(absl::StrCat(facets.target, ".", facets.family, ".", facets.shape, ".", facets.type));
    outcomes.emplace_back(CaseOutcomeWord(OutcomeOf(disagreement)));
  }
  data view;
  view.set("compiler", sweep.compiler);
  view.set("ptx", sweep.ptx.ToString());
  view.set("command", context.command);
  view.set("date", context.date);
  view.set("seconds", absl::StrFormat("%.0f", context.seconds));
  view.set("machine", context.machine);
  view.set("compiler_path", context.compiler_path);
  view.set("summaries", SummaryRows(sweep));
  view.set("families", family_views);
  view.set("disagreements", disagreements.ScriptText());
  view.set("disagreement_count", std::to_string(sweep.disagreements.size()));
  view.set("filters", FilterView(filter_ids, outcomes));
  view.set("matrix_legend", matrix_legend);
  view.set("misdiagnoses", MisdiagnosisRows(registry, sweep.compiler));
  view.set("legend", LegendView());
  return RenderPage("support_matrix.mustache", view);
}

}  // namespace matload
