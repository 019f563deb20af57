#include "harness/runs/junit_export.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/platform/source_tree.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

const RunRecord kRun{.id = "conform-1",
                     .command = "conform",
                     .command_line = "matload conform --device 0",
                     .matload_version = "0.1 RelWithDebInfo",
                     .git_commit = "abc123",
                     .toolkits = "ptxas 13.0.88",
                     .driver = "CUDA driver 13000",
                     .gpu_name = "NVIDIA H100",
                     .gpu_uuid = "GPU-1",
                     .host = "gpu-17",
                     .directory = "/runs/conform-1",
                     .started = absl::FromUnixSeconds(1795497780),  // 2026-11-24T05:23:00Z
                     .ended = absl::FromUnixSeconds(1795497780 + 92),
                     .status = "findings",
                     .exit_status = 1};

// Junit is the run's one JUnit document.
std::string Junit(const RunRecord& run, const std::vector<CaseRecord>& cases, const JunitContext& context = {}) {
  const std::vector<std::string> documents = JunitXml(run, cases, context);
  EXPECT_THAT(documents, SizeIs(1));
  return documents.empty() ? "" : documents[0];
}

TEST(JunitXmlTest, WritesOneTestcasePerCaseTimedByTheCase) {
  const std::vector<CaseRecord> cases = {
      {.id = "ldmatrix.m8n8.x4.addr64.driver_jit", .outcome = CaseOutcome::kPass, .seconds = 0.25},
      {.id = "wmma_load.a.row.ptxas_cubin",
       .outcome = CaseOutcome::kMismatch,
       .finding = true,
       .counts = {{CaseOutcome::kMismatch, 3}, {CaseOutcome::kPass, 61}},
       .first_failures = {0, 5, 9},
       .detail = "lane 3 r2: got 0x1, want 0x2",
       .bundle = "bundles/wmma-1",
       .seconds = 1.5},
      {.id = "sm_90.tcgen05_ld.x", .outcome = CaseOutcome::kUnsupported, .detail = "sm_90 lacks tcgen05"},
      {.id = "tcgen05_ld.y",
       .outcome = CaseOutcome::kFlake,
       .finding = true,
       .attempts = {CaseOutcome::kMismatch, CaseOutcome::kPass},
       .seconds = 0.0004},
      {.id = "nodot", .outcome = CaseOutcome::kExpectedFault, .seconds = 1},
  };
  EXPECT_EQ(Junit(kRun, cases), R"xml(<?xml version="1.0" encoding="UTF-8"?>
<!-- matload junit export of run conform-1 -->
<testsuites name="matload" tests="5" failures="2" errors="0" time="92.000">
  <testsuite name="matload conform" tests="5" failures="2" errors="0" skipped="1" time="92.000" timestamp="2026-11-24T05:23:00" hostname="gpu-17">
    <properties>
      <property name="run_id" value="conform-1"/>
      <property name="command_line" value="matload conform --device 0"/>
      <property name="matload_version" value="0.1 RelWithDebInfo"/>
      <property name="git_commit" value="abc123"/>
      <property name="toolkits" value="ptxas 13.0.88"/>
      <property name="driver" value="CUDA driver 13000"/>
      <property name="gpu_name" value="NVIDIA H100"/>
      <property name="gpu_uuid" value="GPU-1"/>
      <property name="directory" value="/runs/conform-1"/>
      <property name="status" value="findings"/>
      <property name="how_it_ended" value="ended with findings (exit 1)"/>
      <property name="cases" value="5"/>
      <property name="findings" value="2"/>
    </properties>
    <testcase classname="ldmatrix.m8n8.x4.addr64" name="driver_jit" time="0.250"/>
    <testcase classname="wmma_load.a.row" name="ptxas_cubin" time="1.500">
      <failure message="mismatch: lane 3 r2: got 0x1, want 0x2" type="mismatch">outcome: mismatch
detail: lane 3 r2: got 0x1, want 0x2
counts: mismatch=3, pass=61
first failing variants: 0, 5, 9
bundle: /runs/conform-1/bundles/wmma-1</failure>
    </testcase>
    <testcase classname="sm_90.tcgen05_ld" name="x" time="0.000">
      <skipped message="unsupported: sm_90 lacks tcgen05"/>
    </testcase>
    <testcase classname="tcgen05_ld" name="y" time="0.000">
      <failure message="flake" type="flake">outcome: flake
attempts: mismatch, pass</failure>
    </testcase>
    <testcase classname="matload" name="nodot" time="1.000"/>
  </testsuite>
</testsuites>
)xml");
}

// A run the GPU judged says how many SMs of each GPU gave verdicts, and
// which called blocks wrong; a run without verdicts says neither.
TEST(JunitXmlTest, TheGpuJudgesSmsAreProperties) {
  JunitContext context;
  context.sm_verdicts[{0, 0}] = {.blocks = 9};
  context.sm_verdicts[{0, 12}] = {.blocks = 9, .disagreed = 3};
  context.sm_verdicts[{1, 0}] = {.blocks = 9};
  const std::string xml = Junit(kRun, {{.id = "a.b", .outcome = CaseOutcome::kPass}}, context);
  EXPECT_THAT(xml, HasSubstr("<property name=\"sms_judged\" value=\"3 (GPU 0: 2, GPU 1: 1)\"/>"));
  EXPECT_THAT(xml, HasSubstr("<property name=\"sms_that_disagreed\" value=\"GPU 0 SM 12 (3 blocks)\"/>"));
  EXPECT_THAT(Junit(kRun, {{.id = "a.b", .outcome = CaseOutcome::kPass}}), Not(HasSubstr("sms_judged")));
}

TEST(JunitXmlTest, AnUnsupportedFindingIsAFailureNotASkip) {
  const std::string xml = Junit(kRun, {{.id = "a.b", .outcome = CaseOutcome::kUnsupported, .finding = true}});
  EXPECT_THAT(xml, HasSubstr(R"xml(failures="1" errors="0" skipped="0")xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(<failure message="unsupported" type="unsupported">)xml"));
}

// What the registry explains, and a finding the baseline expects, are
// skipped tests that say why; a finding the baseline lists with another
// outcome is still a failure.
TEST(JunitXmlTest, KnownDiscrepanciesAndExpectedFailuresAreSkippedSayingWhy) {
  const std::vector<CaseRecord> cases = {
      {.id = "a.known_fault",
       .outcome = CaseOutcome::kKnownFault,
       .detail = "rows-16: cuCtxSynchronize: misaligned address"},
      {.id = "a.jit_compile", .outcome = CaseOutcome::kIllegalAccepted, .detail = "known discrepancy repeated-sync"},
      {.id = "a.unlisted", .outcome = CaseOutcome::kIllegalAccepted, .detail = "known discrepancy not-in-registry"},
      {.id = "a.expected", .outcome = CaseOutcome::kMismatch, .finding = true, .detail = "lane 0"},
      {.id = "a.regressed", .outcome = CaseOutcome::kTimeout, .finding = true},
      {.id = "a.carried",
       .outcome = CaseOutcome::kIllegalAccepted,
       .detail = "known discrepancy repeated-sync (also seen on ptxas 13.6.1)"},
  };
  const JunitContext context{.expected = {{"a.expected", "mismatch"}, {"a.regressed", "mismatch"}},
                             .judgements = {{"rows-16", "ptxas lowers to LDSM"}, {"repeated-sync", "ptxas is lax"}}};
  const std::string xml = Junit(kRun, cases, context);
  EXPECT_THAT(xml, HasSubstr(R"xml(tests="6" failures="1" errors="0" skipped="5")xml"));
  EXPECT_THAT(xml,
              HasSubstr(R"xml(<skipped message="known discrepancy repeated-sync (illegal_accepted; also seen on )xml"
                        R"xml(ptxas 13.6.1): ptxas is lax"/>)xml"));
  EXPECT_THAT(xml,
              HasSubstr(R"xml(<skipped message="known discrepancy rows-16 (known_fault): ptxas lowers to LDSM"/>)xml"));
  EXPECT_THAT(
      xml, HasSubstr(R"xml(<skipped message="known discrepancy repeated-sync (illegal_accepted): ptxas is lax"/>)xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(<skipped message="known discrepancy not-in-registry (illegal_accepted)"/>)xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(<skipped message="expected by the baseline: mismatch: lane 0"/>)xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(<failure message="timeout" type="timeout">)xml"));
}

// A run that did not finish says so as an error, first, with how it
// ended; a run without a GPU, which judged nothing, is then one error, not
// an empty suite of 0 tests.
TEST(JunitXmlTest, ARunThatDidNotFinishIsAnErrorSayingHowItEnded) {
  RunRecord no_gpu = kRun;
  no_gpu.status = "compile-only";
  no_gpu.exit_status = 3;
  const std::string xml = Junit(no_gpu, {});
  EXPECT_THAT(xml, HasSubstr(R"xml(<testsuites name="matload" tests="1" failures="0" errors="1")xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(tests="1" failures="0" errors="1" skipped="0")xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(    <testcase classname="matload" name="run" time="0.000">
      <error message="run conform-1 did not finish: it found no usable GPU (exit 3): matload was compile-only on gpu-17" type="compile-only"/>
    </testcase>
)xml"));
  RunRecord running = kRun;
  running.status = "running";
  running.ended = absl::InfinitePast();
  const std::string partial = Junit(running, {{.id = "a.b", .outcome = CaseOutcome::kPass, .seconds = 2.5}});
  EXPECT_THAT(partial, HasSubstr(R"xml(tests="2" failures="0" errors="1" skipped="0" time="2.500")xml"));
  EXPECT_THAT(partial, HasSubstr("is still running, or was killed"));
}

// A support sweep's cases are grouped: one testcase per qualifier set of a
// target's matrix, listing its cases by operand style (a near miss that
// decodes to it too), and one for a target's and family's other near misses.
TEST(JunitXmlTest, ASupportRunIsOneTestcasePerQualifierSet) {
  RunRecord support = kRun;
  support.command = "support";
  const std::vector<CaseRecord> cases = {
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.addr64", .outcome = CaseOutcome::kPass, .seconds = 0.5},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.addr_offset", .outcome = CaseOutcome::kPass, .seconds = 0.25},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.ops_0a1b2c3d",
       .outcome = CaseOutcome::kIllegalAccepted,
       .detail = "known discrepancy repeated-sync"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x2.b16.addr64",
       .outcome = CaseOutcome::kLegalRejected,
       .finding = true,
       .detail = "ptxas: bad"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x2.b16.addr32", .outcome = CaseOutcome::kPass},
      {.id = "sm_90.ldmatrix.sync.sync.aligned.m8n8.x1.b16.raw_01234567", .outcome = CaseOutcome::kPass},
      {.id = "sm_90.ldmatrix.aligned.m8n8.x1.b16.raw_89abcdef", .outcome = CaseOutcome::kPass},
      {.id = "sm_70.wmma_load.a.sync.aligned.row.m16n16k16.global.f16.addr64.stride_reg",
       .outcome = CaseOutcome::kNotCompiled},
  };
  const std::string xml = Junit(support, cases, {.judgements = {{"repeated-sync", "ptxas is lax"}}});
  EXPECT_THAT(xml,
              HasSubstr(R"xml(<testsuite name="matload support" tests="4" failures="1" errors="0" skipped="2")xml"));
  EXPECT_THAT(xml, HasSubstr(R"xml(    <testcase classname="sm_90.ldmatrix" name="near misses" time="0.000">
      <system-out>pass: aligned.m8n8.x1.b16.raw_89abcdef sync.sync.aligned.m8n8.x1.b16.raw_01234567
</system-out>
    </testcase>
    <testcase classname="sm_90.ldmatrix" name="sync.aligned.m8n8.x1.b16" time="0.750">
      <skipped message="known discrepancy repeated-sync (illegal_accepted): ptxas is lax (1 of 3)"/>
      <system-out>illegal_accepted: ops_0a1b2c3d
pass: addr64 addr_offset
</system-out>
    </testcase>
    <testcase classname="sm_90.ldmatrix" name="sync.aligned.m8n8.x2.b16" time="0.000">
      <failure message="1 of 2 cases fail" type="findings">sm_90.ldmatrix.sync.aligned.m8n8.x2.b16.addr64: legal_rejected: ptxas: bad
</failure>
      <system-out>legal_rejected: addr64
pass: addr32
</system-out>
    </testcase>
)xml"));
  EXPECT_THAT(
      xml, HasSubstr(R"xml(<testcase classname="sm_70.wmma_load" name="a.sync.aligned.row.m16n16k16.global.f16")xml"));
  // The testcases group the cases; the properties say the store's counts.
  EXPECT_THAT(xml, HasSubstr(R"xml(<property name="cases" value="8"/>
      <property name="findings" value="1"/>)xml"));
}

// Testcases that do not fit in one document go to as many as they fill,
// each whole, counting its own testcases and naming its part.
TEST(JunitXmlTest, TestcasesThatDoNotFitAreSplitIntoDocumentsThatDo) {
  std::vector<CaseRecord> cases;
  for (int i = 0; i < 100; ++i) {
    cases.push_back({.id = absl::StrFormat("a.case%03d", i),
                     .outcome = i % 10 == 0 ? CaseOutcome::kMismatch : CaseOutcome::kPass,
                     .finding = i % 10 == 0,
                     .seconds = 1});
  }
  RunRecord stopped = kRun;
  stopped.status = "interrupted";
  stopped.exit_status = 143;
  const std::vector<std::string> documents = JunitXml(stopped, cases, {.most_bytes = 4000});
  ASSERT_GT(documents.size(), 2u);
  size_t testcases = 0;
  for (size_t i = 0; i < documents.size(); ++i) {
    EXPECT_LE(documents[i].size(), 4000u) << i;
    EXPECT_THAT(documents[i], HasSubstr(absl::StrCat(R"xml(<property name="part" value=")xml", i + 1, " of ",
                                                     documents.size(), "\"/>")));
    for (size_t at = documents[i].find("<testcase "); at != std::string::npos;
         at = documents[i].find("<testcase ", at + 1)) {
      ++testcases;
    }
  }
  EXPECT_EQ(testcases, 101u);  // the cases, and the error that says the run did not finish
  EXPECT_THAT(documents[0], HasSubstr(R"xml(<testcase classname="matload" name="run")xml"));
  EXPECT_THAT(documents.back(), HasSubstr(R"xml(name="case099")xml"));
}

// kNasty is in every field of the escaping tests: markup, quotes, a CDATA end, a control byte.
const std::string kNasty = "<script>\"x\"&'y']]>\x01";
const std::string kNastyEscaped = "&lt;script&gt;&quot;x&quot;&amp;&apos;y&apos;]]&gt;\xEF\xBF\xBD";

// NastyRun is a run with kNasty in every text field.
RunRecord NastyRun() {
  return RunRecord{.id = kNasty,
                   .command = kNasty,
                   .command_line = kNasty,
                   .matload_version = kNasty,
                   .git_commit = kNasty,
                   .toolkits = kNasty,
                   .driver = kNasty,
                   .gpu_name = kNasty,
                   .gpu_uuid = kNasty,
                   .host = kNasty,
                   .directory = kNasty,
                   .status = kNasty};
}

// NastyCases are a failing, a skipped and a passing case with kNasty in every text field (an outcome and
// its counts are no text: case_outcome.h, case_counts.h).
std::vector<CaseRecord> NastyCases() {
  const CaseRecord failing{.id = kNasty + "." + kNasty,
                           .outcome = CaseOutcome::kMismatch,
                           .finding = true,
                           .counts = {{CaseOutcome::kMismatch, 1}},
                           .attempts = {CaseOutcome::kMismatch},
                           .detail = kNasty,
                           .bundle = kNasty};
  return {failing,
          {.id = kNasty, .outcome = CaseOutcome::kUnsupported, .detail = kNasty},
          {.id = kNasty, .outcome = CaseOutcome::kPass}};
}

TEST(JunitXmlTest, EscapesEveryField) {
  const std::string xml = Junit(NastyRun(), NastyCases());
  EXPECT_THAT(xml, Not(HasSubstr("<script")));
  EXPECT_THAT(xml, Not(HasSubstr("]]>")));
  EXPECT_THAT(xml, Not(HasSubstr("\x01")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<testsuite name=\"matload ", kNastyEscaped, "\"")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("hostname=\"", kNastyEscaped, "\">")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<property name=\"gpu_name\" value=\"", kNastyEscaped, "\"/>")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<testcase classname=\"", kNastyEscaped, "\" name=\"", kNastyEscaped, "\"")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<failure message=\"mismatch: ", kNastyEscaped,
                                          "\" type=\"mismatch\">outcome: mismatch\ndetail: ", kNastyEscaped,
                                          "\ncounts: mismatch=1\nattempts: mismatch", "\nbundle: ", kNastyEscaped, "/",
                                          kNastyEscaped, "</failure>")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<skipped message=\"unsupported: ", kNastyEscaped, "\"/>")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<error message=\"run ", kNastyEscaped, " did not finish")));
}

TEST(JunitXmlTest, KeepsValidUtf8AndReplacesWhatXmlForbids) {
  const std::string detail =
      "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80|\t\n\r|\xFF|\xC0\xAF|\xED\xA0\x80|\xE2\x82|\x7F";
  const std::string xml =
      Junit(kRun, {{.id = "a.b", .outcome = CaseOutcome::kMismatch, .finding = true, .detail = detail}});
  EXPECT_THAT(xml, HasSubstr("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80|&#9;&#10;&#13;|\xEF\xBF\xBD|"
                             "\xEF\xBF\xBD\xEF\xBF\xBD|\xEF\xBF\xBD|"
                             "\xEF\xBF\xBD\xEF\xBF\xBD|\x7F\""));
}

// Xmllint runs xmllint with `arguments` on `xml` (in a file of the test's
// own), giving its exit status and output.
std::pair<int, std::string> Xmllint(const std::string& arguments, const std::string& xml) {
  const std::filesystem::path path =
      std::filesystem::path(::testing::TempDir()) /
      absl::StrCat("junit_export_test_", ::testing::UnitTest::GetInstance()->current_test_info()->name(), ".xml");
  std::ofstream(path, std::ios::binary) << xml;
  FILE* pipe = popen(absl::StrCat("xmllint ", arguments, " ", path.string(), " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  return {pclose(pipe), output};
}

// HasXmllint says whether xmllint, which scripts/install-deps.sh installs, is at hand.
bool HasXmllint() { return std::system("command -v xmllint >/dev/null 2>&1") == 0; }

TEST(JunitXmlTest, XmllintReadsTheEscapedDocumentBackToTheText) {
  if (!HasXmllint()) GTEST_SKIP() << "xmllint is not installed (apt-get install libxml2-utils)";
  const std::string xml = Junit(NastyRun(), NastyCases());
  const auto [status, output] = Xmllint("--noout", xml);
  EXPECT_EQ(status, 0) << output;
  const std::string read_back = "<script>\"x\"&'y']]>\xEF\xBF\xBD\n";  // \x01 became U+FFFD; xmllint adds the \n
  EXPECT_EQ(Xmllint("--xpath 'string(//property[@name=\"gpu_name\"]/@value)'", xml).second, read_back);
  EXPECT_EQ(Xmllint("--xpath 'string(//failure/@message)'", xml).second, "mismatch: " + read_back);
}

// Every kind of document the export writes is valid against the schema
// Jenkins' xUnit plugin reads JUnit with (harness/runs/junit-jenkins.xsd):
// a run of every verdict, a support run's groups, a run without a GPU, a
// part of a split run, and kNasty everywhere.
TEST(JunitXmlTest, EveryDocumentIsValidAgainstTheSchemaJenkinsReads) {
  if (!HasXmllint()) GTEST_SKIP() << "xmllint is not installed (apt-get install libxml2-utils)";
  const std::string schema = SourceTreePath("harness/runs/junit-jenkins.xsd");
  RunRecord support = kRun;
  support.command = "support";
  RunRecord no_gpu = kRun;
  no_gpu.status = "compile-only";
  no_gpu.exit_status = 3;
  const std::vector<CaseRecord> cases = {
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.addr64", .outcome = CaseOutcome::kPass, .seconds = 1234.5},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x1.b16.ops_0a1b2c3d",
       .outcome = CaseOutcome::kIllegalAccepted,
       .detail = "known discrepancy repeated-sync"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x2.b16.addr64",
       .outcome = CaseOutcome::kMismatch,
       .finding = true,
       .counts = {{CaseOutcome::kMismatch, 1}},
       .first_failures = {0},
       .detail = "lane 0",
       .bundle = "bundles/1"},
      {.id = "sm_90.ldmatrix.sync.aligned.m8n8.x4.b16.addr64", .outcome = CaseOutcome::kMismatch, .finding = true},
      {.id = "sm_90.ldmatrix.sync.sync.aligned.m8n8.x1.b16.raw_01234567", .outcome = CaseOutcome::kPass},
      {.id = "sm_70.ldmatrix.sync.aligned.m8n8.x4.b16.addr64", .outcome = CaseOutcome::kNotCompiled},
  };
  const JunitContext context{.expected = {{"sm_90.ldmatrix.sync.aligned.m8n8.x4.b16.addr64", "mismatch"}}};
  std::vector<std::pair<std::string, std::string>> documents = {
      {"conform", Junit(kRun, cases, context)},
      {"support", Junit(support, cases, context)},
      {"no GPU", Junit(no_gpu, {})},
      {"nasty", Junit(NastyRun(), NastyCases())},
  };
  const std::vector<std::string> parts = JunitXml(no_gpu, cases, {.most_bytes = 2500});
  ASSERT_GT(parts.size(), 1u);
  documents.push_back({"part 2", parts[1]});
  for (const auto& [what, xml] : documents) {
    const auto [status, output] = Xmllint(absl::StrCat("--noout --schema ", schema), xml);
    EXPECT_EQ(status, 0) << what << ": " << output;
  }
}

// A support sweep of every target has up to 560,000 cases (`matload forms
// --ids`, legal and --illegal, on each of 31 targets): 58,700 qualifier
// sets written with standard operands, with 390,000 cases between them,
// and 170,000 near misses that decode to none. Grouped, a fifth of a sweep
// of that shape (a whole one takes seconds to make) is one document of
// less than a fifth of the most a file holds. (The sweep of every target
// with ptxas 13.0.88, 481,741 cases, exports as one file of 22.5 MB.)
TEST(JunitXmlTest, AFullSupportSweepIsOneFile) {
  constexpr int kFifth = 5;
  RunRecord support = kRun;
  support.command = "support";
  std::vector<CaseRecord> cases;
  const auto add = [&cases](std::string id, bool known) {
    cases.push_back({.id = std::move(id),
                     .outcome = known ? CaseOutcome::kIllegalAccepted : CaseOutcome::kPass,
                     .detail = known ? "known discrepancy ptxas-ignores-format-qualifiers-on-wmma-and-tcgen05" : "",
                     .seconds = 0.0001});
  };
  for (int set = 0; set < 58700 / kFifth; ++set) {
    for (const char* style : {"addr64", "addr32", "addr_offset", "addr64.stride_reg", "addr64.stride_imm",
                              "ops_0a1b2c3d", "ops_4e5f6a7b"}) {
      add(absl::StrFormat("sm_%d.wmma_load.a.sync.aligned.row.m16n16k16.shared_cta.f16.set%d.%s", set % 25, set, style),
          set % 30 == 0);
    }
  }
  for (int near_miss = 0; near_miss < 170000 / kFifth; ++near_miss) {
    add(absl::StrFormat("sm_%d.wmma_load.a.sync.sync.aligned.row.m16n16k16.shared_cta.f16.raw_%08x", near_miss % 25,
                        near_miss),
        near_miss % 30 == 0);
  }
  const std::vector<std::string> documents = JunitXml(support, cases, {});
  ASSERT_THAT(documents, SizeIs(1));
  EXPECT_LT(documents[0].size(), kMostJunitBytes / kFifth);
  EXPECT_THAT(documents[0], HasSubstr(R"xml(tests="11765")xml"));  // the sets, and each target's near misses
}

}  // namespace
}  // namespace matload
