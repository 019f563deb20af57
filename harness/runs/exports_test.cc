#include "harness/runs/exports.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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
                     .status = "findings"};

TEST(JunitXmlTest, WritesOneTestcasePerCase) {
  const std::vector<CaseRecord> cases = {
      {.id = "ldmatrix.m8n8.x4.addr64.driver_jit", .outcome = "pass", .seconds = 0.25},
      {.id = "wmma_load.a.row.ptxas_cubin",
       .outcome = "mismatch",
       .finding = true,
       .counts = {{"mismatch", 3}, {"pass", 61}},
       .first_failures = {0, 5, 9},
       .detail = "lane 3 r2: got 0x1, want 0x2",
       .bundle = "bundles/wmma-1",
       .seconds = 1.5},
      {.id = "sm_90.tcgen05_ld.x", .outcome = "unsupported", .detail = "sm_90 lacks tcgen05"},
      {.id = "tcgen05_ld.y", .outcome = "flake", .finding = true, .attempts = {"mismatch", "pass"}, .seconds = 0.0004},
      {.id = "nodot", .outcome = "known_fault", .seconds = 1},
  };
  EXPECT_EQ(JunitXml(kRun, cases),
            R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="matload conform" tests="5" failures="2" errors="0" skipped="1" time="2.750" )"
            R"(timestamp="2026-11-24T05:23:00" hostname="gpu-17">
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
)");
}

TEST(JunitXmlTest, AnUnsupportedFindingIsAFailureNotASkip) {
  const std::string xml = JunitXml(kRun, {{.id = "a.b", .outcome = "unsupported", .finding = true}});
  EXPECT_THAT(xml, HasSubstr(R"(failures="1" errors="0" skipped="0")"));
  EXPECT_THAT(xml, HasSubstr(R"(<failure message="unsupported" type="unsupported">)"));
}

TEST(JunitXmlTest, WritesAnEmptySuiteForNoCases) {
  EXPECT_THAT(JunitXml(kRun, {}), HasSubstr(R"(tests="0" failures="0" errors="0" skipped="0" time="0.000")"));
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

// NastyCases are a failing, a skipped and a passing case with kNasty in every text field.
std::vector<CaseRecord> NastyCases() {
  const CaseRecord failing{.id = kNasty + "." + kNasty,
                           .outcome = kNasty,
                           .finding = true,
                           .counts = {{kNasty, 1}},
                           .attempts = {kNasty},
                           .detail = kNasty,
                           .bundle = kNasty};
  return {failing, {.id = kNasty, .outcome = "unsupported", .detail = kNasty}, {.id = kNasty, .outcome = kNasty}};
}

TEST(JunitXmlTest, EscapesEveryField) {
  const std::string xml = JunitXml(NastyRun(), NastyCases());
  EXPECT_THAT(xml, Not(HasSubstr("<script")));
  EXPECT_THAT(xml, Not(HasSubstr("]]>")));
  EXPECT_THAT(xml, Not(HasSubstr("\x01")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<testsuite name=\"matload ", kNastyEscaped, "\"")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("hostname=\"", kNastyEscaped, "\">")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<property name=\"gpu_name\" value=\"", kNastyEscaped, "\"/>")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<testcase classname=\"", kNastyEscaped, "\" name=\"", kNastyEscaped, "\"")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<failure message=\"", kNastyEscaped, ": ", kNastyEscaped, "\" type=\"",
                                          kNastyEscaped, "\">outcome: ", kNastyEscaped, "\ndetail: ", kNastyEscaped,
                                          "\ncounts: ", kNastyEscaped, "=1\nattempts: ", kNastyEscaped,
                                          "\nbundle: ", kNastyEscaped, "/", kNastyEscaped, "</failure>")));
  EXPECT_THAT(xml, HasSubstr(absl::StrCat("<skipped message=\"unsupported: ", kNastyEscaped, "\"/>")));
}

TEST(JunitXmlTest, KeepsValidUtf8AndReplacesWhatXmlForbids) {
  const std::string detail =
      "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80|\t\n\r|\xFF|\xC0\xAF|\xED\xA0\x80|\xE2\x82|\x7F";
  const std::string xml = JunitXml(kRun, {{.id = "a.b", .outcome = "mismatch", .finding = true, .detail = detail}});
  EXPECT_THAT(xml, HasSubstr("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80|&#9;&#10;&#13;|\xEF\xBF\xBD|"
                             "\xEF\xBF\xBD\xEF\xBF\xBD|\xEF\xBF\xBD|"
                             "\xEF\xBF\xBD\xEF\xBF\xBD|\x7F\""));
}

// Xmllint runs xmllint with `arguments` on `xml`, giving its exit status and output.
std::pair<int, std::string> Xmllint(const std::string& arguments, const std::string& xml) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "exports_test.xml";
  std::ofstream(path, std::ios::binary) << xml;
  FILE* pipe = popen(absl::StrCat("xmllint ", arguments, " ", path.string(), " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  return {pclose(pipe), output};
}

TEST(JunitXmlTest, XmllintReadsTheEscapedDocumentBackToTheText) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) {
    GTEST_SKIP()
        << "xmllint is not installed (apt-get install libxml2-utils) to check that the document is well-formed";
  }
  const std::string xml = JunitXml(NastyRun(), NastyCases());
  const auto [status, output] = Xmllint("--noout", xml);
  EXPECT_EQ(status, 0) << output;
  const std::string read_back = "<script>\"x\"&'y']]>\xEF\xBF\xBD\n";  // \x01 became U+FFFD; xmllint adds the \n
  EXPECT_EQ(Xmllint("--xpath 'string(//property[@name=\"gpu_name\"]/@value)'", xml).second, read_back);
  EXPECT_EQ(Xmllint("--xpath 'string(//failure/@type)'", xml).second, read_back);
}

TEST(ResultsCsvTest, WritesAHeaderAndOneLinePerCaseQuotingAsRfc4180) {
  const std::vector<CaseRecord> cases = {
      {.id = "ldmatrix.x4.driver_jit", .outcome = "pass", .seconds = 0.25},
      {.id = "a,b", .outcome = "say \"hi\"", .seconds = 1},
      {.id = "line\nbreak", .outcome = "cr\rhere", .seconds = 12.3456},
      {.id = "plain'<&>", .outcome = "mismatch"},
  };
  EXPECT_EQ(ResultsCsv(cases),
            "case,outcome,duration_s\n"
            "ldmatrix.x4.driver_jit,pass,0.250\n"
            "\"a,b\",\"say \"\"hi\"\"\",1.000\n"
            "\"line\nbreak\",\"cr\rhere\",12.346\n"
            "plain'<&>,mismatch,0.000\n");
}

TEST(ResultsCsvTest, NoCasesIsTheHeaderAlone) { EXPECT_EQ(ResultsCsv({}), "case,outcome,duration_s\n"); }

}  // namespace
}  // namespace matload
