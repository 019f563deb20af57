#include "harness/compile/compile_oracle.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

TEST(ParsePtxasDiagnosticsTest, ReadsEachForm) {
  std::vector<Diagnostic> diagnostics = ParsePtxasDiagnostics(
      "ptxas /tmp/a.ptx, line 6; error   : Unknown modifier '.x3'\n"
      "ptxas /tmp/a, line 1; b.ptx, line 9; warning : something odd\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n"
      "ptxas error : a: b\n"
      "ptxas /tmp/a.ptx, line x; error   : no line number\n");
  ASSERT_EQ(diagnostics.size(), 5u);
  EXPECT_EQ(diagnostics[0].line, 6);
  EXPECT_EQ(diagnostics[0].message, "Unknown modifier '.x3'");
  EXPECT_EQ(diagnostics[1].line, 9) << "the last ', line N; ' before the severity names the line";
  EXPECT_EQ(diagnostics[1].severity, Diagnostic::Severity::kWarning);
  EXPECT_EQ(diagnostics[2].severity, Diagnostic::Severity::kFatal);
  EXPECT_EQ(diagnostics[2].line, 0);
  EXPECT_EQ(diagnostics[3].severity, Diagnostic::Severity::kError);
  EXPECT_EQ(diagnostics[3].message, "a: b");
  EXPECT_EQ(diagnostics[4].severity, Diagnostic::Severity::kUnrecognised);
}

TEST(ParsePtxasDiagnosticsTest, KeepsUnrecognisedLinesVerbatimAsUnrecognised) {
  std::vector<Diagnostic> diagnostics =
      ParsePtxasDiagnostics("ERROR: ld.so: object 'x.so' from LD_PRELOAD cannot be preloaded: ignored.\r\n");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Diagnostic::Severity::kUnrecognised);
  EXPECT_EQ(diagnostics[0].line, 0);
  EXPECT_EQ(diagnostics[0].message, "ERROR: ld.so: object 'x.so' from LD_PRELOAD cannot be preloaded: ignored.");
}

// std::regex overflowed the stack on a line of 60 KB; a megabyte is read
// in one pass, whichever way the line is built.
TEST(ParsePtxasDiagnosticsTest, ReadsAOneMegabyteLine) {
  const std::string megabyte(1 << 20, 'x');
  std::vector<Diagnostic> error = ParsePtxasDiagnostics("ptxas /tmp/a.ptx, line 7; error   : " + megabyte);
  ASSERT_EQ(error.size(), 1u);
  EXPECT_EQ(error[0].line, 7);
  EXPECT_EQ(error[0].message.size(), megabyte.size());
  std::string markers;
  while (markers.size() < (1u << 20)) markers += ", line 1; ";
  std::vector<Diagnostic> no_severity = ParsePtxasDiagnostics("ptxas " + markers);
  ASSERT_EQ(no_severity.size(), 1u);
  EXPECT_EQ(no_severity[0].severity, Diagnostic::Severity::kUnrecognised);
  std::vector<Diagnostic> garbage = ParsePtxasDiagnostics(megabyte);
  ASSERT_EQ(garbage.size(), 1u);
  EXPECT_EQ(garbage[0].severity, Diagnostic::Severity::kUnrecognised);
}

}  // namespace
}  // namespace matload
