#include "harness/support/support_history_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "harness/compile/ptx_module.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/platform/without_home.h"
#include "nlohmann/json.hpp"
#include "reference/enumerate.h"
#include "reference/parser.h"

namespace matload {
namespace {

// Shown is how the report writes a path or command line it was given:
// without $HOME, and as OutsideText, since a path may hold any bytes.
std::string Shown(absl::string_view given) { return OutsideText(WithoutHome(given)); }

// kChangesShown bounds the change groups history.md lists per pair of
// releases; changes.tsv lists every one.
constexpr size_t kChangesShown = 25;

// Cell makes `text` safe in a Markdown table cell.
std::string Cell(absl::string_view text) { return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}}); }

// Tsv makes `text` one tab-separated field.
std::string Tsv(absl::string_view text) { return absl::StrReplaceAll(text, {{"\t", " "}, {"\n", " "}}); }

// Release names toolkit `t` of `history` by its version: "12.4.131".
std::string Release(const SupportHistory& history, size_t t) {
  const std::string& toolchain = history.toolkits()[t].toolchain;
  return toolchain.substr(toolchain.find(' ') + 1);
}

// ReleaseOr is Release of `t`, or `none` when there is none.
std::string ReleaseOr(const SupportHistory& history, const std::optional<size_t>& t, absl::string_view none) {
  return t.has_value() ? Release(history, *t) : std::string(none);
}

// Range spells toolkits `first` to `last`: "12.0.140", "12.0.140 to 13.5.37".
std::string Range(const SupportHistory& history, size_t first, size_t last) {
  return first == last ? Release(history, first)
                       : absl::StrCat(Release(history, first), " to ", Release(history, last));
}

// Reproducer is where the misdiagnosis numbered `n` has its module.
std::string Reproducer(size_t n) { return absl::StrCat("reproducers/misdiagnosis-", n, ".ptx"); }

void AppendHeader(const SupportHistory& history, const HistoryContext& context, std::string& md) {
  const std::vector<HistoryToolkit>& toolkits = history.toolkits();
  absl::StrAppend(&md, "# Support history: ", toolkits.front().toolchain, " to ", toolkits.back().toolchain,
                  "\n\n- Made by: `", Shown(context.command), "` on ", context.date, ", ",
                  static_cast<long>(context.seconds + 0.5), " s of sweeps\n- Machine: ", context.machine,
                  "\n- matload: ", context.matload, "; it knows PTX ISA ", AllPtxVersions().front().ToString(), " to ",
                  NewestPtxVersion().ToString(), "\n- Each toolkit is swept at the newest PTX ISA version it and ",
                  "matload both speak, and every toolkit that speaks it at the common version, PTX ISA ",
                  history.common().ToString(), ".\n\n## Toolkits\n\n",
                  "| toolkit | speaks PTX | from | swept at | targets it builds for | binary |\n",
                  "| --- | --- | --- | --- | ---: | --- |\n");
  for (const HistoryToolkit& toolkit : toolkits) {
    absl::StrAppend(&md, "| ", toolkit.toolchain, " | ", toolkit.dialect.spoken.ToString(), " | ",
                    !toolkit.dialect.from_message ? "its release"
                    : toolkit.dialect.crashed     ? "its message (then it crashed)"
                                                  : "its message",
                    " | ", toolkit.newest.ToString(),
                    toolkit.newest == history.common() ? "" : absl::StrCat(", ", history.common().ToString()), " | ",
                    toolkit.targets.size(), " | `", Shown(toolkit.path), "`",
                    toolkit.identity.empty()
                        ? ""
                        : absl::StrCat(" (", toolkit.identity.substr(toolkit.identity.find('@') + 1), ")"),
                    " |\n");
  }
  for (const HistoryToolkit& toolkit : toolkits) {
    if (const std::string note = DialectNote(toolkit.toolchain, toolkit.dialect); !note.empty()) {
      absl::StrAppend(&md, "\n", note, ".\n");
    }
  }
}

void AppendSweeps(const SupportHistory& history, std::string& md) {
  absl::StrAppend(
      &md, "\n## Sweeps\n\nForms compared on the targets the toolkit builds for; disagreements an entry ",
      "of `corpora/known_discrepancies.json` measured on the toolkit explains, that an entry measured on ",
      "earlier releases only explains (in force until a release no longer shows it: known, also seen on ",
      "this one), that fall under an entry not in force here (measured on later releases or other tools ",
      "only, or fixed by then), and under none; the forms both reject, with the misdiagnoses among them ",
      "(internal symbol / no line / wrong reason) and those no entry lists.\n\n",
      "| toolkit | PTX | targets | forms | agree | explained | also seen | elsewhere | unexplained | ",
      "both reject | misdiagnosed | unregistered | compiler runs | cache found / compiled | seconds |\n",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: |\n");
  for (const HistorySweep& sweep : history.sweeps()) {
    absl::StrAppend(&md, "| ", Release(history, sweep.toolkit), " | ", sweep.ptx.ToString(),
                    sweep.newest && sweep.common ? "" : (sweep.newest ? " (newest)" : " (common)"), " | ",
                    sweep.targets_compiled, " | ", sweep.forms, " | ", sweep.agree, " | ", sweep.explained, " | ",
                    sweep.also_seen, " | ", sweep.explained_elsewhere, " | ", sweep.unexplained, " | ",
                    sweep.both_reject, " | ", absl::StrJoin(sweep.misdiagnosed, " / "), " | ", sweep.unregistered,
                    " | ", sweep.compiler_runs, " | ", sweep.facts.cache_found, " / ", sweep.facts.cache_kept, " | ",
                    absl::StrFormat("%.1f", sweep.facts.seconds), " |\n");
  }
}

void AppendFormClasses(const SupportHistory& history, const std::vector<FormClassHistory>& classes, std::string& md) {
  absl::StrAppend(&md, "\n## Form classes: the first and last toolkit that accepts each\n\n", classes.size(),
                  " qualifier sets on their targets, each toolkit at its newest version, grouped by family, target ",
                  "and range; `forms.tsv` has each with every toolkit's verdict. \"never\": no toolkit accepts it; ",
                  "a last toolkit before the newest that swept it means later ones reject it.\n\n",
                  "| family | target | qualifier sets | first accepted by | last accepted by | example |\n",
                  "| --- | --- | ---: | --- | --- | --- |\n");
  using Key = std::tuple<std::string, std::string, std::optional<size_t>, std::optional<size_t>>;
  std::map<Key, std::pair<size_t, std::string>> groups;
  for (const FormClassHistory& form : classes) {
    auto& [count, example] = groups[{form.family, form.target, form.first_accepted, form.last_accepted}];
    if (count++ == 0) example = form.opcode;
  }
  for (const auto& [key, group] : groups) {
    const auto& [family, target, first, last] = key;
    absl::StrAppend(&md, "| ", family, " | ", target, " | ", group.first, " | ", ReleaseOr(history, first, "never"),
                    " | ", ReleaseOr(history, last, "never"), " | `", group.second, "` |\n");
  }
}

void AppendDisagreements(const SupportHistory& history, const std::vector<DisagreementHistory>& disagreements,
                         std::string& md) {
  absl::StrAppend(
      &md, "\n## Disagreements: their ranges\n\n", disagreements.size(),
      " forms disagree with the model on some toolkit, grouped by registry entry, direction, PTX version ",
      "and range; `disagreements.tsv` has each. Last good: the last toolkit before the first bad that ",
      "agrees; first fixed: the first after the last bad that agrees.\n\n",
      "| entry | model says | PTX | forms | targets | last good | first bad | last bad | first fixed | example |\n",
      "| --- | --- | --- | ---: | --- | --- | --- | --- | --- | --- |\n");
  using Key = std::tuple<std::string, bool, PtxVersion, std::optional<size_t>, size_t, size_t, std::optional<size_t>>;
  std::map<Key, std::tuple<size_t, std::set<std::string>, std::string>> groups;
  for (const DisagreementHistory& d : disagreements) {
    auto& [count, targets, example] =
        groups[{d.entry, d.model_legal, d.ptx, d.last_good, d.first_bad, d.last_bad, d.first_fixed}];
    if (count++ == 0) example = d.instruction;
    targets.insert(d.target);
  }
  for (const auto& [key, group] : groups) {
    const auto& [entry, legal, ptx, last_good, first_bad, last_bad, first_fixed] = key;
    const auto& [count, targets, example] = group;
    absl::StrAppend(&md, "| ", entry.empty() ? "(none)" : entry, " | ", legal ? "legal" : "illegal", " | ",
                    ptx.ToString(), " | ", count, " | ", absl::StrJoin(targets, " "), " | ",
                    ReleaseOr(history, last_good, "-"), " | ", Release(history, first_bad), " | ",
                    Release(history, last_bad), " | ", ReleaseOr(history, first_fixed, "-"), " | `", Cell(example),
                    "` |\n");
  }
}

void AppendChanges(const SupportHistory& history, const std::vector<ReleaseChange>& changes, std::string& md) {
  absl::StrAppend(&md, "\n## What changed between consecutive releases\n\nEach form's verdict against the last ",
                  "toolkit before it that compared the form at the same PTX version and target: newly accepted, ",
                  "newly rejected, or rejected in other words. Groups share the messages before and after; ",
                  "`changes.tsv` lists every group and every accepted or rejected form.\n");
  const std::vector<HistoryToolkit>& toolkits = history.toolkits();
  for (size_t to = 1; to < toolkits.size(); ++to) {
    absl::StrAppend(&md, "\n### ", toolkits[to - 1].toolchain, " to ", toolkits[to].toolchain, "\n\n");
    std::vector<std::string> added;
    std::vector<std::string> dropped;
    for (const std::string& target : toolkits[to].targets) {
      const auto& before = toolkits[to - 1].targets;
      if (std::find(before.begin(), before.end(), target) == before.end()) added.push_back(target);
    }
    for (const std::string& target : toolkits[to - 1].targets) {
      const auto& after = toolkits[to].targets;
      if (std::find(after.begin(), after.end(), target) == after.end()) dropped.push_back(target);
    }
    if (!added.empty()) absl::StrAppend(&md, "- Targets it builds for since: ", absl::StrJoin(added, ", "), "\n");
    if (!dropped.empty())
      absl::StrAppend(&md, "- Targets it no longer builds for: ", absl::StrJoin(dropped, ", "), "\n");
    std::string rows;
    size_t groups = 0;
    for (const ReleaseChange& change : changes) {
      if (change.to != to || ++groups > kChangesShown) continue;
      absl::StrAppend(&rows, "| ", ChangeKindName(change.kind), " | ", change.ptx.ToString(),
                      change.from == to - 1 ? "" : absl::StrCat(" (since ", Release(history, change.from), ")"), " | ",
                      change.count, " | ", absl::StrJoin(change.targets, " "), " | ", Cell(change.before), " | ",
                      Cell(change.after), " | `", Cell(change.forms.front()), "` |\n");
    }
    if (groups == 0) {
      absl::StrAppend(&md, "No form's verdict or messages changed.\n");
      continue;
    }
    absl::StrAppend(&md, "| change | PTX | forms | targets | messages before | messages after | example |\n",
                    "| --- | --- | ---: | --- | --- | --- | --- |\n", rows);
    if (groups > kChangesShown) absl::StrAppend(&md, "\n", groups - kChangesShown, " more groups in changes.tsv.\n");
  }
}

void AppendMisdiagnoses(const SupportHistory& history, const std::vector<DistinctMisdiagnosis>& distinct,
                        std::string& md) {
  const std::vector<HistoryToolkit>& toolkits = history.toolkits();
  absl::StrAppend(&md, "\n## Misdiagnoses\n\nEvery form both reject, judged (harness/judge/diagnostic_judge.h): ",
                  "a message that names an internal symbol (`__cuda_...`, a builtin, a prototype, an instruction ",
                  "not written), points at no line of the form (`<builtin>`), or gives a reason the model does ",
                  "not. Per toolkit, both sweeps:\n\n",
                  "| toolkit | both reject | internal symbol | no line | wrong reason | unregistered |\n",
                  "| --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (size_t t = 0; t < toolkits.size(); ++t) {
    HistorySweep total;
    for (const HistorySweep& sweep : history.sweeps()) {
      if (sweep.toolkit != t) continue;
      total.both_reject += sweep.both_reject;
      total.unregistered += sweep.unregistered;
      for (size_t k = 0; k < kMisdiagnosisKinds; ++k) total.misdiagnosed[k] += sweep.misdiagnosed[k];
    }
    absl::StrAppend(&md, "| ", Release(history, t), " | ", total.both_reject, " | ",
                    absl::StrJoin(total.misdiagnosed, " | "), " | ", total.unregistered, " |\n");
  }
  absl::StrAppend(&md, "\n", distinct.size(), " distinct misdiagnoses (by kind, family and message, quoted parts ",
                  "aside), unregistered first; `misdiagnoses.tsv` has each toolkit's count.\n");
  for (size_t n = 0; n < distinct.size(); ++n) {
    const DistinctMisdiagnosis& m = distinct[n];
    size_t first = toolkits.size();
    size_t last = 0;
    size_t forms = 0;
    for (size_t t = 0; t < m.per_toolkit.size(); ++t) {
      if (m.per_toolkit[t] == 0) continue;
      first = std::min(first, t);
      last = t;
      forms += m.per_toolkit[t];
    }
    absl::StrAppend(&md, "\n### ", n + 1, ". ", MisdiagnosisKindName(m.kind), ", ", m.family, ": ", Cell(m.shape),
                    "\n\n- Registry: ", m.entry.empty() ? "**not listed**" : absl::StrCat("`", m.entry, "`"),
                    "\n- Toolkits: ", Range(history, first, last), " (", forms, " forms)\n- Example (",
                    toolkits[m.toolkit].toolchain, ", PTX ", m.ptx.ToString(), ", ", m.target, "): `",
                    Cell(m.instruction), "`\n- Messages: ", Cell(absl::StrJoin(m.messages, " | ")), "\n");
    if (m.entry.empty()) {
      absl::StrAppend(&md, "- Reproduce: `", Shown(toolkits[m.toolkit].path), " -arch=", m.target, " ",
                      Reproducer(n + 1), " -o /dev/null`\n");
    }
  }
}

std::string Markdown(const SupportHistory& history, const HistoryContext& context,
                     const std::vector<FormClassHistory>& classes,
                     const std::vector<DisagreementHistory>& disagreements, const std::vector<ReleaseChange>& changes,
                     const std::vector<DistinctMisdiagnosis>& distinct) {
  std::string md;
  AppendHeader(history, context, md);
  AppendSweeps(history, md);
  AppendFormClasses(history, classes, md);
  AppendDisagreements(history, disagreements, md);
  AppendChanges(history, changes, md);
  AppendMisdiagnoses(history, distinct, md);
  return md;
}

std::string FormsTsv(const SupportHistory& history, const std::vector<FormClassHistory>& classes) {
  std::string tsv = "family\ttarget\topcode\tfirst_accepted\tlast_accepted";
  for (size_t t = 0; t < history.toolkits().size(); ++t) absl::StrAppend(&tsv, "\t", Release(history, t));
  absl::StrAppend(&tsv, "\n");
  for (const FormClassHistory& form : classes) {
    absl::StrAppend(&tsv, form.family, "\t", form.target, "\t", form.opcode, "\t",
                    ReleaseOr(history, form.first_accepted, ""), "\t", ReleaseOr(history, form.last_accepted, ""));
    for (char state : form.states) absl::StrAppend(&tsv, "\t", std::string(1, state == kNotSwept ? '.' : state));
    absl::StrAppend(&tsv, "\n");
  }
  return tsv;
}

std::string DisagreementsTsv(const SupportHistory& history, const std::vector<DisagreementHistory>& disagreements) {
  std::string tsv =
      "ptx\ttarget\tmodel\tentry\tlast_good\tfirst_bad\tlast_bad\tfirst_fixed\tstates\tinstruction\tmessage\n";
  for (const DisagreementHistory& d : disagreements) {
    absl::StrAppend(&tsv, d.ptx.ToString(), "\t", d.target, "\t", d.model_legal ? "legal" : "illegal", "\t", d.entry,
                    "\t", ReleaseOr(history, d.last_good, ""), "\t", Release(history, d.first_bad), "\t",
                    Release(history, d.last_bad), "\t", ReleaseOr(history, d.first_fixed, ""), "\t",
                    absl::StrReplaceAll(d.states, {{" ", "."}}), "\t", Tsv(d.instruction), "\t", Tsv(d.message), "\n");
  }
  return tsv;
}

std::string ChangesTsv(const SupportHistory& history, const std::vector<ReleaseChange>& changes) {
  std::string tsv = "from\tto\tptx\tchange\tforms\ttargets\tbefore\tafter\tform\n";
  for (const ReleaseChange& change : changes) {
    for (const std::string& form : change.forms) {
      absl::StrAppend(&tsv, Release(history, change.from), "\t", Release(history, change.to), "\t",
                      change.ptx.ToString(), "\t", ChangeKindName(change.kind), "\t", change.count, "\t",
                      absl::StrJoin(change.targets, " "), "\t", Tsv(change.before), "\t", Tsv(change.after), "\t",
                      Tsv(form), "\n");
    }
  }
  return tsv;
}

std::string MisdiagnosesTsv(const SupportHistory& history, const std::vector<DistinctMisdiagnosis>& distinct) {
  std::string tsv = "kind\tfamily\tshape\tentry";
  for (size_t t = 0; t < history.toolkits().size(); ++t) absl::StrAppend(&tsv, "\t", Release(history, t));
  absl::StrAppend(&tsv, "\texample_toolkit\tptx\ttarget\tinstruction\tmessages\tother_forms\n");
  for (const DistinctMisdiagnosis& m : distinct) {
    absl::StrAppend(&tsv, MisdiagnosisKindName(m.kind), "\t", m.family, "\t", Tsv(m.shape), "\t", m.entry, "\t",
                    absl::StrJoin(m.per_toolkit, "\t"), "\t", Release(history, m.toolkit), "\t", m.ptx.ToString(), "\t",
                    m.target, "\t", Tsv(m.instruction), "\t", Tsv(absl::StrJoin(m.messages, " | ")), "\t",
                    Tsv(absl::StrJoin(m.others, " || ")), "\n");
  }
  return tsv;
}

nlohmann::json Json(const SupportHistory& history, const HistoryContext& context,
                    const std::vector<DisagreementHistory>& disagreements, const std::vector<ReleaseChange>& changes,
                    const std::vector<DistinctMisdiagnosis>& distinct) {
  nlohmann::json json = {{"command", Shown(context.command)},
                         {"date", context.date},
                         {"machine", context.machine},
                         {"matload", context.matload},
                         {"seconds", context.seconds},
                         {"common_ptx", history.common().ToString()},
                         {"newest_known_ptx", NewestPtxVersion().ToString()}};
  for (const HistoryToolkit& toolkit : history.toolkits()) {
    json["toolkits"].push_back({{"toolchain", toolkit.toolchain},
                                {"path", Shown(toolkit.path)},
                                {"identity", toolkit.identity},
                                {"speaks", toolkit.dialect.spoken.ToString()},
                                {"speaks_from_message", toolkit.dialect.from_message},
                                {"newest", toolkit.newest.ToString()},
                                {"targets", toolkit.targets}});
  }
  for (const HistorySweep& s : history.sweeps()) {
    json["sweeps"].push_back({{"toolkit", history.toolkits()[s.toolkit].toolchain},
                              {"ptx", s.ptx.ToString()},
                              {"newest", s.newest},
                              {"common", s.common},
                              {"targets_compiled", s.targets_compiled},
                              {"forms", s.forms},
                              {"agree", s.agree},
                              {"explained", s.explained},
                              {"also_seen", s.also_seen},
                              {"explained_elsewhere", s.explained_elsewhere},
                              {"unexplained", s.unexplained},
                              {"both_reject", s.both_reject},
                              {"misdiagnosed", s.misdiagnosed},
                              {"unregistered", s.unregistered},
                              {"compiler_runs", s.compiler_runs},
                              {"cache_found", s.facts.cache_found},
                              {"cache_kept", s.facts.cache_kept},
                              {"seconds", s.facts.seconds}});
  }
  size_t unexplained = 0;
  for (const DisagreementHistory& d : disagreements) unexplained += d.entry.empty() ? 1 : 0;
  json["disagreements"] = {{"forms", disagreements.size()}, {"under_no_entry", unexplained}};
  json["change_groups"] = changes.size();
  for (const DistinctMisdiagnosis& m : distinct) {
    json["misdiagnoses"].push_back({{"kind", MisdiagnosisKindName(m.kind)},
                                    {"family", m.family},
                                    {"shape", m.shape},
                                    {"entry", m.entry},
                                    {"per_toolkit", m.per_toolkit},
                                    {"example",
                                     {{"toolkit", history.toolkits()[m.toolkit].toolchain},
                                      {"ptx", m.ptx.ToString()},
                                      {"target", m.target},
                                      {"instruction", m.instruction},
                                      {"messages", m.messages}}}});
  }
  return json;
}

// WriteReproducers writes the module of each distinct misdiagnosis no
// entry lists, numbered as history.md numbers them.
absl::Status WriteReproducers(const std::vector<DistinctMisdiagnosis>& distinct, const std::string& directory) {
  for (size_t n = 0; n < distinct.size(); ++n) {
    if (!distinct[n].entry.empty()) continue;
    if (absl::Status made = CreateDirectories(std::filesystem::path(directory) / "reproducers"); !made.ok())
      return made;
    absl::StatusOr<Snippet> snippet = ParseSnippet(distinct[n].instruction);
    if (!snippet.ok()) return snippet.status();
    snippet->declarations = UsedStandardDeclarations(snippet->instruction);
    const PtxModule module = BuildModule({*snippet}, distinct[n].ptx, *ParseTarget(distinct[n].target));
    if (absl::Status written = WriteFile(std::filesystem::path(directory) / Reproducer(n + 1), module.text);
        !written.ok()) {
      return written;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteHistoryReport(const SupportHistory& history, const HistoryContext& context,
                                const std::string& directory) {
  const std::vector<FormClassHistory> classes = history.FormClasses();
  const std::vector<DisagreementHistory> disagreements = history.Disagreements();
  const std::vector<ReleaseChange> changes = history.Changes();
  const std::vector<DistinctMisdiagnosis> distinct = history.Misdiagnoses();
  if (absl::Status written = WriteReproducers(distinct, directory); !written.ok()) return written;
  for (const auto& [name, text] : {
           std::pair<std::string, std::string>{"history.md",
                                               Markdown(history, context, classes, disagreements, changes, distinct)},
           {"history.json", Json(history, context, disagreements, changes, distinct)
                                .dump(1, ' ', false, nlohmann::json::error_handler_t::replace)},
           {"forms.tsv", FormsTsv(history, classes)},
           {"disagreements.tsv", DisagreementsTsv(history, disagreements)},
           {"changes.tsv", ChangesTsv(history, changes)},
           {"misdiagnoses.tsv", MisdiagnosesTsv(history, distinct)},
       }) {
    if (absl::Status written = WriteFile(std::filesystem::path(directory) / name, text); !written.ok()) {
      return written;
    }
  }
  return absl::OkStatus();
}

}  // namespace matload
