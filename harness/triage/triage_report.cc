#include "harness/triage/triage_report.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "harness/families/family_runtime.h"
#include "harness/kernels/reproducer.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "harness/report/html_page.h"

namespace matload {
namespace {

// Outcome is a build's outcome in words.
std::string Outcome(const BuildReplay& replay, const std::string& signature) {
  if (!replay.build.image.ok()) return absl::StrCat("not built: ", replay.build.image.status().message());
  if (!replay.tally.has_value()) return "built; not run: no GPU here";
  if (replay.tally->passes() == replay.tally->runs) return replay.tally->Describe(signature);
  return absl::StrCat(replay.tally->Verdict(signature), signature.empty() ? "" : absl::StrCat(": ", signature));
}

ReportSection CaseSection(const TriageCase& triage_case) {
  const Variant& variant = triage_case.variant;
  ReportSection section{.id = "case", .title = "The case", .headers = {"what", "value"}};
  section.rows = {
      {"form", triage_case.program->Label()},
      {"target, PTX", absl::StrCat(triage_case.program->instruction().target().Name(), ", PTX ",
                                   triage_case.program->instruction().ptx().ToString())},
      {"replay key", absl::StrCat("seed ", triage_case.seed, ", variant ", variant.index, " (", variant.kind, ", ",
                                  DataPatternName(variant.pattern), " data)")},
      {"found on", triage_case.recorded_identity},
      {"found through", triage_case.recorded_compile_path},
      {"found as", absl::StrCat(triage_case.recorded_outcome, ": ", triage_case.recorded_detail)},
      {"kernel", triage_case.kernel_is_matloads ? "the kernel this matload builds for the form"
                                                : "NOT the kernel this matload builds for the form"},
  };
  return section;
}

ReportSection ReproduceSection(const TriageResult& result) {
  ReportSection section{.id = "reproduce", .title = "Does it reproduce", .headers = {"GPU", "ordinal", "runs"}};
  for (const GpuReplay& gpu : result.gpus) {
    section.rows.push_back({gpu.identity, absl::StrCat(gpu.ordinal), gpu.tally.Verdict(result.signature)});
  }
  section.paragraphs.push_back(result.signature.empty() ? "No run failed: the finding does not reproduce here."
                                                        : absl::StrCat("The failure: ", result.signature, "."));
  return section;
}

ReportSection StagesSection(const TriageResult& result) {
  ReportSection section{.id = "stages",
                        .title = "Which stage",
                        .headers = {"build", "toolchain", "runs on GPU 0", "SASS loads", "unnamed SASS"}};
  section.paragraphs.push_back(
      "The same kernel through every compile path, each run on the same GPU and judged "
      "with the model.");
  for (const BuildReplay& replay : result.builds) {
    section.rows.push_back({replay.build.name, replay.build.toolchain, Outcome(replay, result.signature),
                            replay.sass.has_value() ? replay.sass->Loads() : replay.sass_error,
                            replay.sass.has_value() ? absl::StrCat(replay.sass->unnamed) : ""});
  }
  return section;
}

ReportSection CulpritSection(const TriageResult& result) {
  ReportSection section{.id = "culprit", .title = "Culprit", .headers = {"evidence"}};
  section.paragraphs.push_back(absl::StrCat(result.culprit.stage, ": ", result.culprit.because, "."));
  for (const std::string& fact : result.culprit.evidence) section.rows.push_back({fact});
  return section;
}

ReportSection RangeSection(const TriageResult& result) {
  ReportSection section{.id = "range", .title = "Since which toolkit", .headers = {"release", "state", "detail"}};
  if (!result.range.has_value()) {
    section.paragraphs.push_back(result.release_names.empty() ? "No toolkit releases were given (--ptxas none)."
                                                              : "Not bisected: the failure does not reproduce.");
    return section;
  }
  section.paragraphs.push_back(absl::StrCat("ptxas cubins of the kernel, run on GPU 0, ",
                                            result.gpus.empty() ? 0 : result.gpus.front().tally.runs,
                                            " runs each; probed in this order: ", result.range->verdict, "."));
  for (const ReleaseProbe& probe : result.range->probed) {
    section.rows.push_back({result.release_names[probe.index], ReleaseStateName(probe.state), probe.detail});
  }
  return section;
}

// ReducedProgram is the reduced reproducer's form: a sibling, or the case's own.
const TestProgram& ReducedProgram(const TriageCase& triage_case, const TriageResult& result) {
  return result.reduced_program != nullptr ? *result.reduced_program : *triage_case.program;
}

ReportSection ReductionSection(const TriageCase& triage_case, const TriageResult& result) {
  ReportSection section{
      .id = "reduction", .title = "The smallest input that still fails", .headers = {"candidate", "outcome"}};
  if (!result.reduction.has_value()) {
    section.paragraphs.push_back(triage_case.kernel_is_matloads ? "Not reduced: nothing failed."
                                                                : "Not reduced: the kernel is not matload's.");
    return section;
  }
  section.paragraphs.push_back(
      "Each candidate moves the variant toward its form's variant 0 (tagged data, default "
      "operands, then the lanes' own addresses in ever smaller groups) or aligns its address; "
      "the model must call it defined, and it is kept only when every run fails the same way.");
  for (const ReductionStep& step : result.reduction->steps) section.rows.push_back({step.change, step.outcome});
  if (result.reduction->steps.empty()) section.paragraphs.push_back("The variant is its form's simplest already.");
  if (!result.reduction->lanes_needed.empty()) {
    section.paragraphs.push_back(absl::StrCat(
        "The failure needs the own addresses of lane", result.reduction->lanes_needed.size() == 1 ? " " : "s ",
        absl::StrJoin(result.reduction->lanes_needed, ", "), "; every other lane gives variant 0's address."));
  }
  const TestProgram& reduced = ReducedProgram(triage_case, result);
  section.paragraphs.push_back(absl::StrCat(
      "The reduced reproducer (reduced/): ", reduced.Label(), " with operands ",
      RuntimeOf(reduced.instruction().form().family).OperandsJson(result.reduction->variant).dump(), ", ",
      DataPatternName(result.reduction->variant.pattern), " data; re-run: ",
      result.reduced_rerun.has_value() ? result.reduced_rerun->Verdict(result.signature) : "not run", "."));
  return section;
}

ReportSection SiblingSection(const TriageResult& result) {
  ReportSection section{.id = "siblings",
                        .title = "Sibling forms on the reduced input",
                        .headers = {"sibling", "form", "runs (driver JIT)", "SASS loads (ptxas cubin)"}};
  if (result.siblings.empty()) section.paragraphs.push_back("The form has no sibling that reads the same record.");
  for (const SiblingReplay& sibling : result.siblings) {
    section.rows.push_back({sibling.change, sibling.label, sibling.tally.Describe(result.signature),
                            sibling.loads.empty() ? sibling.loads_error : sibling.loads});
  }
  return section;
}

// SassLineText is one instruction, its offset first and its encoding last.
std::string SassLineText(const SassLine& line) {
  return absl::StrCat("/*", line.offset, "*/ ", line.opcode.empty() ? "(unnamed) " : "", line.text, "   ",
                      line.encoding, "\n");
}

// SassText is a build's SASS: its loads and any instruction no name was given.
std::string SassText(const BuildReplay& replay) {
  std::string text = absl::StrCat(replay.build.name, " (", replay.build.toolchain, ")\n");
  for (const SassLine& line : replay.sass->lines) {
    if (!line.load && !line.opcode.empty()) continue;
    absl::StrAppend(&text, "  ", SassLineText(line));
  }
  return text;
}

ReportSection SassSection(const TriageResult& result) {
  ReportSection section{.id = "sass", .title = "SASS side by side"};
  section.paragraphs.push_back(
      "Each cubin's load instructions (cuobjdump -sass), with every instruction the "
      "disassembler could not name, shown with its encoding. The whole listings are in "
      "builds/.");
  for (const BuildReplay& replay : result.builds) {
    if (replay.sass.has_value()) section.code.push_back(SassText(replay));
  }
  return section;
}

ReportSection ReproducerSection(const TriageResult& result) {
  ReportSection section{.id = "reproducer", .title = "Reproducers"};
  section.paragraphs.push_back(absl::StrCat(
      "original/ holds the bundle's reproducer", result.reduction.has_value() ? " and reduced/ the reduced one" : "",
      ": kernel.ptx, record.bin, expected.bin and repro.cpp, which needs only cuda.h and prints PASS or FAIL. "
      "builds/ holds each cubin and its whole SASS. Run them with:"));
  for (const char* folder : {"original", "reduced"}) {
    if (std::string(folder) == "reduced" && !result.reduction.has_value()) continue;
    section.code.push_back(
        absl::StrCat("cd ", folder, " && g++ -std=c++17 -I$CUDA_HOME/include repro.cpp -o repro -lcuda && ./repro"));
  }
  return section;
}

ReportSection AgainSection(const TriageCase& triage_case) {
  ReportSection section{.id = "again", .title = "Triage again"};
  section.code.push_back(absl::StrCat("matload triage ", OutsideText(triage_case.bundle.string()), " --out DIR"));
  return section;
}

// SassListingText is a whole listing, one instruction a line.
std::string SassListingText(const SassListing& listing) {
  std::string text;
  for (const SassLine& line : listing.lines) absl::StrAppend(&text, SassLineText(line));
  return text;
}

// HistoryJson is the case's runs in the store.
nlohmann::json HistoryJson(const std::vector<CaseNight>& nights) {
  nlohmann::json json = nlohmann::json::array();
  for (const CaseNight& night : nights) {
    json.push_back(
        {{"run", night.run.id}, {"gpu", night.run.gpu_name}, {"outcome", std::string(CaseOutcomeWord(night.outcome))}});
  }
  return json;
}

// MarkdownCell keeps a cell on its row.
std::string MarkdownCell(const std::string& text) { return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}}); }

// GpusThatFail says on how many GPUs of the host it fails, and which where
// it is specific to some: "fails on 1 of 2 GPUs: specific to GPU 1".
std::string GpusThatFail(const TriageResult& result) {
  std::vector<std::string> failing;
  for (const GpuReplay& gpu : result.gpus) {
    if (gpu.tally.FailuresOfKind(result.signature) > 0) failing.push_back(absl::StrCat(gpu.ordinal));
  }
  std::string text = absl::StrCat("fails on ", failing.size(), " of ", result.gpus.size(), " GPUs");
  if (!failing.empty() && failing.size() < result.gpus.size()) {
    absl::StrAppend(&text, ": specific to GPU ", absl::StrJoin(failing, ", GPU "));
  }
  return text;
}

}  // namespace

ReportSection CaseHistorySection(const std::vector<CaseNight>& nights) {
  ReportSection section{.id = "history",
                        .title = "Has it ever passed",
                        .headers = {"run", "started", "GPU", "driver", "toolkits", "outcome"}};
  section.paragraphs.push_back(CaseHistorySummary(nights));
  for (const CaseNight& night : nights) {
    section.rows.push_back({night.run.id, absl::FormatTime("%Y-%m-%d %H:%M", night.run.started, absl::UTCTimeZone()),
                            night.run.gpu_name, night.run.driver, night.run.toolkits,
                            std::string(CaseOutcomeWord(night.outcome))});
  }
  return section;
}

TriageDocument DescribeTriage(const TriageCase& triage_case, const TriageResult& result) {
  TriageDocument document{.title = absl::StrCat("Triage: ", triage_case.program->Label(), ", variant ",
                                                triage_case.variant.index, " of seed ", triage_case.seed)};
  document.summary =
      absl::StrCat(triage_case.program->Label(), " (", triage_case.program->instruction().target().Name(), ", PTX ",
                   triage_case.program->instruction().ptx().ToString(), "): ",
                   !result.no_gpu.empty()
                       ? absl::StrCat("not run: no GPU here (", result.no_gpu, "); the builds and their SASS only")
                   : result.signature.empty() ? "does not reproduce"
                                              : result.signature,
                   ". ",
                   result.gpus.empty() ? ""
                                       : absl::StrCat(result.gpus.front().tally.Verdict(result.signature),
                                                      " on GPU 0; ", GpusThatFail(result), ". "),
                   "Culprit: ", result.culprit.stage, ", because ", result.culprit.because, ".",
                   result.range.has_value() ? absl::StrCat(" Toolkits: ", result.range->verdict, ".") : "");
  document.sections = {CaseSection(triage_case),
                       ReproduceSection(result),
                       CaseHistorySection(result.history),
                       StagesSection(result),
                       CulpritSection(result),
                       RangeSection(result),
                       ReductionSection(triage_case, result),
                       SiblingSection(result),
                       SassSection(result),
                       ReproducerSection(result),
                       AgainSection(triage_case)};
  return document;
}

std::string TriageMarkdown(const TriageDocument& document) {
  std::string text = absl::StrCat("# ", document.title, "\n\n", document.summary, "\n");
  for (const ReportSection& section : document.sections) {
    absl::StrAppend(&text, "\n## ", section.title, "\n");
    for (const std::string& paragraph : section.paragraphs) absl::StrAppend(&text, "\n", paragraph, "\n");
    if (!section.headers.empty() && !section.rows.empty()) {
      absl::StrAppend(&text, "\n| ", absl::StrJoin(section.headers, " | "), " |\n|",
                      absl::StrJoin(std::vector<std::string>(section.headers.size(), " --- "), "|"), "|\n");
      for (const std::vector<std::string>& row : section.rows) {
        absl::StrAppend(
            &text, "| ",
            absl::StrJoin(row, " | ",
                          [](std::string* out, const std::string& cell) { out->append(MarkdownCell(cell)); }),
            " |\n");
      }
    }
    for (const std::string& code : section.code)
      absl::StrAppend(&text, "\n```\n", code, code.ends_with('\n') ? "" : "\n", "```\n");
  }
  return text;
}

absl::StatusOr<std::string> TriageHtml(const TriageDocument& document) {
  using kainjow::mustache::data;
  using kainjow::mustache::list;
  list sections;
  for (const ReportSection& section : document.sections) {
    data view;
    view.set("id", section.id);
    view.set("title", section.title);
    list paragraphs, headers, rows, code;
    for (const std::string& paragraph : section.paragraphs) paragraphs.push_back(data(paragraph));
    for (const std::string& header : section.headers) headers.push_back(data(header));
    for (const std::vector<std::string>& row : section.rows) {
      list cells;
      for (const std::string& cell : row) cells.push_back(data(cell));
      data row_view;
      row_view.set("cells", cells);
      rows.push_back(row_view);
    }
    for (const std::string& block : section.code) code.push_back(data(block));
    view.set("paragraphs", paragraphs);
    view.set("headers", headers);
    view.set("rows", rows);
    view.set("code", code);
    view.set("has_table",
             data(!section.headers.empty() && !section.rows.empty() ? data::type::bool_true : data::type::bool_false));
    sections.push_back(view);
  }
  data page;
  page.set("title", document.title);
  page.set("summary", document.summary);
  page.set("sections", sections);
  return RenderPage("triage_report.mustache", page);
}

nlohmann::json TriageJson(const TriageCase& triage_case, const TriageResult& result) {
  nlohmann::json json = {
      {"case",
       {{"form", triage_case.program->Label()},
        {"target", triage_case.program->instruction().target().Name()},
        {"ptx", triage_case.program->instruction().ptx().ToString()},
        {"seed", triage_case.seed},
        {"variant", triage_case.variant.index},
        {"bundle", OutsideText(triage_case.bundle.string())},
        {"found_on", triage_case.recorded_identity},
        {"found_as", triage_case.recorded_outcome},
        {"kernel_is_matloads", triage_case.kernel_is_matloads}}},
      {"failure", result.signature},
      {"culprit", result.culprit.Json()},
      {"history", HistoryJson(result.history)},
      {"gpus", nlohmann::json::array()},
      {"builds", nlohmann::json::array()},
  };
  for (const GpuReplay& gpu : result.gpus) {
    json["gpus"].push_back({{"ordinal", gpu.ordinal},
                            {"identity", gpu.identity},
                            {"runs", gpu.tally.runs},
                            {"outcomes", gpu.tally.signatures}});
  }
  for (const BuildReplay& replay : result.builds) {
    nlohmann::json build = {
        {"name", replay.build.name}, {"toolchain", replay.build.toolchain}, {"built", replay.tally.has_value()}};
    if (!replay.tally.has_value()) build["not_built"] = std::string(replay.build.image.status().message());
    if (replay.tally.has_value()) build["outcomes"] = replay.tally->signatures;
    if (replay.sass.has_value()) build["sass"] = {{"loads", replay.sass->Loads()}, {"unnamed", replay.sass->unnamed}};
    json["builds"].push_back(std::move(build));
  }
  if (result.reduction.has_value()) {
    nlohmann::json steps = nlohmann::json::array();
    for (const ReductionStep& step : result.reduction->steps) {
      steps.push_back({{"change", step.change}, {"outcome", step.outcome}, {"kept", step.kept}});
    }
    const TestProgram& reduced = ReducedProgram(triage_case, result);
    json["reduction"] = {
        {"steps", steps},
        {"form", reduced.Label()},
        {"operands", RuntimeOf(reduced.instruction().form().family).OperandsJson(result.reduction->variant)},
        {"data", DataPatternName(result.reduction->variant.pattern)},
        {"lanes_needed", result.reduction->lanes_needed},
        {"rerun", result.reduced_rerun.has_value() ? nlohmann::json(result.reduced_rerun->signatures) : nullptr}};
  }
  for (const SiblingReplay& sibling : result.siblings) {
    json["siblings"].push_back(
        {{"change", sibling.change},
         {"form", sibling.label},
         {"outcomes", sibling.tally.signatures},
         {"loads", sibling.loads.empty() ? nlohmann::json(nullptr) : nlohmann::json(sibling.loads)},
         {"loads_error", sibling.loads_error}});
  }
  if (result.range.has_value()) {
    nlohmann::json probed = nlohmann::json::array();
    for (const ReleaseProbe& probe : result.range->probed) {
      probed.push_back({{"release", result.release_names[probe.index]},
                        {"state", ReleaseStateName(probe.state)},
                        {"detail", probe.detail}});
    }
    json["range"] = {{"verdict", result.range->verdict}, {"regression", result.range->regression}, {"probed", probed}};
    if (result.range->before.has_value()) json["range"]["before"] = result.release_names[*result.range->before];
    if (result.range->after.has_value()) json["range"]["after"] = result.release_names[*result.range->after];
  }
  return json;
}

absl::Status CheckTriageDirectory(const std::filesystem::path& directory) {
  std::error_code error;
  if (std::filesystem::exists(directory, error) && !std::filesystem::is_empty(directory, error)) {
    return absl::FailedPreconditionError(
        absl::StrCat(OutsideText(directory.string()), " is not empty: a triage writes only into a new directory"));
  }
  return absl::OkStatus();
}

absl::Status WriteTriageDocument(const std::filesystem::path& directory, const TriageDocument& document,
                                 const nlohmann::json& json) {
  if (absl::Status free = CheckTriageDirectory(directory); !free.ok()) return free;
  absl::StatusOr<std::string> html = TriageHtml(document);
  if (!html.ok()) return html.status();
  if (absl::Status made = CreateDirectories(directory); !made.ok()) return made;
  for (const absl::Status& status :
       {WriteFile(directory / "triage.md", TriageMarkdown(document)), WriteFile(directory / "triage.html", *html),
        WriteFile(directory / "triage.json", json.dump(2) + "\n")}) {
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status WriteTriage(const std::filesystem::path& directory, const TriageCase& triage_case,
                         const TriageResult& result) {
  if (absl::Status written =
          WriteTriageDocument(directory, DescribeTriage(triage_case, result), TriageJson(triage_case, result));
      !written.ok()) {
    return written;
  }
  std::vector<absl::Status> written;
  for (const char* folder : {"original", "builds"}) written.push_back(CreateDirectories(directory / folder));
  for (const char* name : {"case.json", "kernel.ptx", "record.bin", "expected.bin", "actual.bin", "diff.txt",
                           "repro.cpp", "kernel.cubin"}) {
    absl::StatusOr<std::string> bytes = ReadFileBytes(triage_case.bundle / name);
    if (bytes.ok()) written.push_back(WriteFile(directory / "original" / name, *bytes));
  }
  if (result.reduction.has_value()) {
    const TestProgram& reduced = ReducedProgram(triage_case, result);
    const Variant& variant = result.reduction->variant;
    written.push_back(CreateDirectories(directory / "reduced"));
    written.push_back(WriteFile(directory / "reduced" / "kernel.ptx", reduced.kernel()));
    const std::vector<std::uint8_t> record = reduced.Record(variant);
    written.push_back(WriteFile(directory / "reduced" / "record.bin", std::string(record.begin(), record.end())));
    if (const auto* values = std::get_if<LaneValues>(&result.reduced_expected)) {
      const std::vector<std::uint8_t> expected = ExpectedBytes(*values);
      written.push_back(
          WriteFile(directory / "reduced" / "expected.bin", std::string(expected.begin(), expected.end())));
    }
    written.push_back(WriteFile(directory / "reduced" / "repro.cpp",
                                ReproducerSource(reduced.Label(), reduced.entry(), reduced.frame())));
  }
  for (const BuildReplay& replay : result.builds) {
    if (!replay.build.cubin || !replay.build.image.ok()) continue;
    const std::filesystem::path folder = directory / "builds" / Slug(replay.build.name);
    written.push_back(CreateDirectories(folder));
    written.push_back(WriteFile(folder / "kernel.cubin", *replay.build.image));
    if (replay.sass.has_value()) written.push_back(WriteFile(folder / "sass.txt", SassListingText(*replay.sass)));
  }
  for (const absl::Status& status : written) {
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace matload
