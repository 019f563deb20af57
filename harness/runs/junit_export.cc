#include "harness/runs/junit_export.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "harness/platform/xml_escape.h"
#include "harness/runs/case_counts.h"
#include "harness/runs/case_id.h"
#include "harness/runs/export_marker.h"
#include "harness/runs/run_journal.h"

namespace matload {
namespace {

// Verdict is what a testcase is to a CI server, in rising severity.
enum class Verdict { kPassed, kSkipped, kFailed, kError };

// Judged is a case's verdict and the message that says why, for a
// skipped or failed one.
struct Judged {
  Verdict verdict = Verdict::kPassed;
  std::string message;
};

// Message is a case's one-line message: "OUTCOME: DETAIL", or the outcome alone.
std::string Message(const CaseRecord& record) {
  const absl::string_view outcome = CaseOutcomeWord(record.outcome);
  return record.detail.empty() ? std::string(outcome) : absl::StrCat(outcome, ": ", record.detail);
}

// RegistryEntryOf is the registry entry that explains a case that is no
// finding, as its detail names it ("known discrepancy ENTRY", or a known
// fault's "ENTRY: what the GPU said"); empty for a case no entry explains.
std::string RegistryEntryOf(const CaseRecord& record) {
  if (record.finding) return "";
  absl::string_view detail = record.detail;
  if (absl::ConsumePrefix(&detail, "known discrepancy ")) return std::string(detail.substr(0, detail.find(' ')));
  if (record.outcome == CaseOutcome::kKnownFault) return std::string(detail.substr(0, detail.find(':')));
  return "";
}

// EntryStanding is what a known discrepancy's detail says after the entry's
// id, in parentheses: "also seen on ptxas 13.6.1" where the entry was not
// measured on the run's compiler (harness/judge/discrepancy_registry.h,
// Standing); empty otherwise.
std::string EntryStanding(const CaseRecord& record) {
  absl::string_view detail = record.detail;
  if (!absl::ConsumePrefix(&detail, "known discrepancy ") || !absl::ConsumeSuffix(&detail, ")")) return "";
  const size_t open = detail.find(" (");
  return open == absl::string_view::npos ? "" : std::string(detail.substr(open + 2));
}

// Judge is a case's verdict (the rules are in junit_export.h).
Judged Judge(const CaseRecord& record, const JunitContext& context) {
  if (record.finding) {
    const auto expected = context.expected.find(record.id);
    if (expected != context.expected.end() && expected->second == CaseOutcomeWord(record.outcome)) {
      return {Verdict::kSkipped, absl::StrCat("expected by the baseline: ", Message(record))};
    }
    return {Verdict::kFailed, Message(record)};
  }
  if (const std::string entry = RegistryEntryOf(record); !entry.empty()) {
    const auto judgement = context.judgements.find(entry);
    return {Verdict::kSkipped,
            absl::StrCat("known discrepancy ", entry, " (", CaseOutcomeWord(record.outcome),
                         EntryStanding(record).empty() ? "" : absl::StrCat("; ", EntryStanding(record)), ")",
                         judgement == context.judgements.end() ? "" : absl::StrCat(": ", judgement->second))};
  }
  if (record.outcome == CaseOutcome::kUnsupported || record.outcome == CaseOutcome::kNotCompiled)
    return {Verdict::kSkipped, Message(record)};
  return {};
}

// FailureBody is the text of a finding's <failure>: one "LABEL: VALUE" line per thing the case has.
std::string FailureBody(const RunRecord& run, const CaseRecord& record) {
  const std::pair<absl::string_view, std::string> facts[] = {
      {"outcome", std::string(CaseOutcomeWord(record.outcome))},
      {"detail", record.detail},
      {"counts", CountsText(record, ", ")},
      {"first failing variants", absl::StrJoin(record.first_failures, ", ")},
      {"attempts",
       absl::StrJoin(record.attempts, ", ",
                     [](std::string* out, CaseOutcome attempt) { absl::StrAppend(out, CaseOutcomeWord(attempt)); })},
      {"bundle", record.bundle.empty() ? "" : (std::filesystem::path(run.directory) / record.bundle).string()},
  };
  std::vector<std::string> lines;
  for (const auto& [label, value] : facts) {
    if (!value.empty()) lines.push_back(absl::StrCat(label, ": ", XmlEscape(value)));
  }
  return absl::StrJoin(lines, "\n");
}

// Testcase is one <testcase>'s text, and what its suite counts of it.
struct Testcase {
  std::string xml;
  Verdict verdict = Verdict::kPassed;
  double seconds = 0;
};

// OpenTestcase is a <testcase> start tag, without its closing '>' or "/>".
std::string OpenTestcase(absl::string_view classname, absl::string_view name, double seconds) {
  return absl::StrFormat("    <testcase classname=\"%s\" name=\"%s\" time=\"%.3f\"", XmlEscape(classname),
                         XmlEscape(name), seconds);
}

// CaseTestcase is one case's testcase (the classname and name are explained in junit_export.h).
Testcase CaseTestcase(const RunRecord& run, const CaseRecord& record, const JunitContext& context) {
  const Judged judged = Judge(record, context);
  const std::size_t dot = record.id.rfind('.');
  const absl::string_view id = record.id;
  const std::string open =
      OpenTestcase(dot == std::string::npos ? "matload" : id.substr(0, dot), id.substr(dot + 1), record.seconds);
  Testcase testcase{.verdict = judged.verdict, .seconds = record.seconds};
  switch (judged.verdict) {
    case Verdict::kFailed:
      testcase.xml = absl::StrCat(open, ">\n      <failure message=\"", XmlEscape(judged.message), "\" type=\"",
                                  XmlEscape(CaseOutcomeWord(record.outcome)), "\">", FailureBody(run, record),
                                  "</failure>\n    </testcase>\n");
      break;
    case Verdict::kSkipped:
      testcase.xml =
          absl::StrCat(open, ">\n      <skipped message=\"", XmlEscape(judged.message), "\"/>\n    </testcase>\n");
      break;
    case Verdict::kPassed:
    case Verdict::kError: testcase.xml = absl::StrCat(open, "/>\n"); break;
  }
  return testcase;
}

// Member is one case of a group: the case, what follows the group's name
// in its ID, and its verdict.
struct Member {
  const CaseRecord* record;
  std::string rest;
  Judged judged;
};

// GroupTestcase is a group's testcase: a <failure> listing its failing
// cases, or a <skipped> saying why its skipped cases were, with how many
// have each message; and every case, by the rest of its ID, under its
// outcome (junit_export.h).
Testcase GroupTestcase(const std::string& classname, const std::string& name, const std::vector<Member>& members) {
  Testcase testcase;
  std::string failing;
  size_t failed = 0;
  std::map<std::string, size_t> skipped;                   // by message
  std::map<std::string, std::vector<std::string>> listed;  // the rests of the cases' IDs, by outcome
  for (const Member& member : members) {
    testcase.verdict = std::max(testcase.verdict, member.judged.verdict);
    testcase.seconds += member.record->seconds;
    listed[std::string(CaseOutcomeWord(member.record->outcome))].push_back(member.rest);
    if (member.judged.verdict == Verdict::kFailed) {
      ++failed;
      absl::StrAppend(&failing, XmlEscape(absl::StrCat(member.record->id, ": ", member.judged.message)), "\n");
    }
    if (member.judged.verdict == Verdict::kSkipped) ++skipped[member.judged.message];
  }
  testcase.xml = absl::StrCat(OpenTestcase(classname, name, testcase.seconds), ">\n");
  if (testcase.verdict == Verdict::kFailed) {
    absl::StrAppend(&testcase.xml, "      <failure message=\"", failed, " of ", members.size(),
                    " cases fail\" type=\"findings\">", failing, "</failure>\n");
  } else if (testcase.verdict == Verdict::kSkipped) {
    std::vector<std::string> why;
    for (const auto& [message, count] : skipped) {
      why.push_back(absl::StrCat(message, " (", count, " of ", members.size(), ")"));
    }
    absl::StrAppend(&testcase.xml, "      <skipped message=\"", XmlEscape(absl::StrJoin(why, "; ")), "\"/>\n");
  }
  absl::StrAppend(&testcase.xml, "      <system-out>");
  for (const auto& [outcome, rests] : listed) {
    absl::StrAppend(&testcase.xml, XmlEscape(absl::StrCat(outcome, ": ", absl::StrJoin(rests, " "))), "\n");
  }
  absl::StrAppend(&testcase.xml, "</system-out>\n    </testcase>\n");
  return testcase;
}

// kNearMisses names the group of a target's and family's near misses
// whose qualifiers are none of its matrix's.
constexpr absl::string_view kNearMisses = "near misses";

// IsNearMissStyle says whether a CaseGroup's style is a near miss's hash.
bool IsNearMissStyle(absl::string_view style) {
  return absl::StartsWith(style, "ops_") || absl::StartsWith(style, "raw_");
}

// SupportTestcases are a support run's testcases: one per qualifier set
// of a target's matrix (a CaseGroup some case of which has an operand
// style), with the near misses that decode to it, and one per target and
// family for the other near misses; in order of their names.
std::vector<Testcase> SupportTestcases(absl::Span<const CaseRecord> cases, const JunitContext& context) {
  std::map<std::pair<std::string, std::string>, std::vector<Member>> groups;
  for (const CaseRecord& record : cases) {
    CaseGroup place = SupportCaseGroup(record.id);
    groups[{std::move(place.matrix), std::move(place.qualifiers)}].push_back(
        {&record, std::move(place.style), Judge(record, context)});
  }
  std::map<std::pair<std::string, std::string>, std::vector<Member>> testcases;
  for (auto& [name, members] : groups) {
    const bool in_matrix = absl::c_any_of(members, [](const Member& member) { return !IsNearMissStyle(member.rest); });
    if (in_matrix) {
      testcases[name] = std::move(members);
      continue;
    }
    std::vector<Member>& near_misses = testcases[{name.first, std::string(kNearMisses)}];
    for (Member& member : members) {
      member.rest = name.second.empty() ? member.rest : absl::StrCat(name.second, ".", member.rest);
      near_misses.push_back(std::move(member));
    }
  }
  std::vector<Testcase> xml;
  for (const auto& [name, members] : testcases) xml.push_back(GroupTestcase(name.first, name.second, members));
  return xml;
}

// UnfinishedTestcase is the error that says a run did not finish, and how
// it ended.
Testcase UnfinishedTestcase(const RunRecord& run) {
  return {.xml = absl::StrCat(OpenTestcase("matload", "run", 0), ">\n      <error message=\"",
                              XmlEscape(absl::StrCat("run ", run.id, " did not finish: it ", HowItEnded(run))),
                              "\" type=\"", XmlEscape(run.status), "\"/>\n    </testcase>\n"),
          .verdict = Verdict::kError};
}

// Part is one document's share of a run's testcases: [first, end), the
// part's number from 1 and how many parts there are.
struct Part {
  size_t first = 0;
  size_t end = 0;
  size_t number = 1;
  size_t parts = 1;
};

// RunCounts are the run's cases and findings as the store counts them
// (docs/reports.md, "What is counted"): a support sweep's testcases group
// its cases, so the document says the store's numbers too.
struct RunCounts {
  std::string cases;
  std::string findings;
  std::string sms_judged;          // "264 (GPU 0: 132, GPU 1: 132)", or empty: no GPU judge's verdicts
  std::string sms_that_disagreed;  // "GPU 0 SM 12 (3 blocks)", ..., or "none"
};

// CountSms fills `counts`'s SM properties from the GPU judge's verdicts.
void CountSms(const SmVerdicts& verdicts, RunCounts& counts) {
  if (verdicts.empty()) return;
  std::map<int, size_t> by_gpu;
  std::vector<std::string> disagreed;
  for (const auto& [where, sm] : verdicts) {
    ++by_gpu[where.first];
    if (sm.disagreed > 0)
      disagreed.push_back(absl::StrCat("GPU ", where.first, " SM ", where.second, " (", sm.disagreed, " blocks)"));
  }
  std::vector<std::string> gpus;
  for (const auto& [gpu, sms] : by_gpu) gpus.push_back(absl::StrCat("GPU ", gpu, ": ", sms));
  counts.sms_judged = absl::StrCat(verdicts.size(), " (", absl::StrJoin(gpus, ", "), ")");
  counts.sms_that_disagreed = disagreed.empty() ? "none" : absl::StrJoin(disagreed, ", ");
}

// PropertiesXml is the <properties> naming the run, what it ran on, its
// counts, and the document's part of it when there are several.
std::string PropertiesXml(const RunRecord& run, const RunCounts& counts, const Part& part) {
  const std::string how_it_ended = HowItEnded(run);
  const std::string part_text = absl::StrCat(part.number, " of ", part.parts);
  std::vector<std::pair<absl::string_view, absl::string_view>> properties = {
      {"run_id", run.id},
      {"command_line", run.command_line},
      {"matload_version", run.matload_version},
      {"git_commit", run.git_commit},
      {"toolkits", run.toolkits},
      {"driver", run.driver},
      {"gpu_name", run.gpu_name},
      {"gpu_uuid", run.gpu_uuid},
      {"directory", run.directory},
      {"status", run.status},
      {"how_it_ended", how_it_ended},
      {"cases", counts.cases},
      {"findings", counts.findings},
  };
  if (!counts.sms_judged.empty()) {
    properties.push_back({"sms_judged", counts.sms_judged});
    properties.push_back({"sms_that_disagreed", counts.sms_that_disagreed});
  }
  if (part.parts > 1) properties.push_back({"part", part_text});
  std::string xml = "    <properties>\n";
  for (const auto& [name, value] : properties) {
    absl::StrAppend(&xml, "      <property name=\"", name, "\" value=\"", XmlEscape(value), "\"/>\n");
  }
  return absl::StrCat(xml, "    </properties>\n");
}

// Document is one JUnit document: `part` of `testcases`, counted, and
// timed by the run's wall clock when it is the whole of a run that ended,
// else by its testcases' times.
std::string Document(const RunRecord& run, const RunCounts& counts, const std::vector<Testcase>& testcases,
                     const Part& part) {
  size_t failures = 0;
  size_t errors = 0;
  size_t skipped = 0;
  double seconds = 0;
  std::string body;
  for (size_t i = part.first; i < part.end; ++i) {
    const Testcase& testcase = testcases[i];
    failures += testcase.verdict == Verdict::kFailed ? 1 : 0;
    errors += testcase.verdict == Verdict::kError ? 1 : 0;
    skipped += testcase.verdict == Verdict::kSkipped ? 1 : 0;
    seconds += testcase.seconds;
    absl::StrAppend(&body, testcase.xml);
  }
  if (part.parts == 1 && run.ended > run.started) seconds = absl::ToDoubleSeconds(run.ended - run.started);
  const size_t tests = part.end - part.first;
  return absl::StrCat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", ExportMarker(ExportKind::kJunit, run.id), "\n",
      absl::StrFormat("<testsuites name=\"matload\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n", tests,
                      failures, errors, seconds),
      absl::StrFormat(
          "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\" "
          "timestamp=\"%s\" hostname=\"%s\">\n",
          XmlEscape(absl::StrCat("matload ", run.command)), tests, failures, errors, skipped, seconds,
          absl::FormatTime("%Y-%m-%dT%H:%M:%S", run.started, absl::UTCTimeZone()), XmlEscape(run.host)),
      PropertiesXml(run, counts, part), body, "  </testsuite>\n</testsuites>\n");
}

// kHeadRoom bounds what a document's counts, time and part number can add
// to the size of a document of no testcases.
constexpr size_t kHeadRoom = 256;

}  // namespace

std::vector<std::string> JunitXml(const RunRecord& run, absl::Span<const CaseRecord> cases,
                                  const JunitContext& context) {
  std::vector<Testcase> testcases;
  if (!Finished(run)) testcases.push_back(UnfinishedTestcase(run));
  if (run.command == "support") {
    for (Testcase& testcase : SupportTestcases(cases, context)) testcases.push_back(std::move(testcase));
  } else {
    for (const CaseRecord& record : cases) testcases.push_back(CaseTestcase(run, record, context));
  }
  RunCounts counts{.cases = std::to_string(cases.size()),
                   .findings = std::to_string(
                       std::count_if(cases.begin(), cases.end(), [](const CaseRecord& c) { return c.finding; }))};
  CountSms(context.sm_verdicts, counts);
  // Each part takes testcases while they fit beside its head, and at least one.
  const size_t head = Document(run, counts, testcases, {.parts = 2}).size() + kHeadRoom;
  std::vector<Part> parts = {{}};
  size_t bytes = head;
  for (size_t i = 0; i < testcases.size(); ++i) {
    if (parts.back().end > parts.back().first && bytes + testcases[i].xml.size() > context.most_bytes) {
      parts.push_back({.first = i, .end = i});
      bytes = head;
    }
    ++parts.back().end;
    bytes += testcases[i].xml.size();
  }
  std::vector<std::string> documents;
  for (Part& part : parts) {
    part.number = documents.size() + 1;
    part.parts = parts.size();
    documents.push_back(Document(run, counts, testcases, part));
  }
  return documents;
}

}  // namespace matload
