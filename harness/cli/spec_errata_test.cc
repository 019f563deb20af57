// Keeps reports/spec-errata.md honest: every reproducer in it is run and
// must give the result the report states.
//
// The report's format (its head says the same): each erratum is a section
// "### E<n>. <title>" with a "- **Class:** <class>" line naming one of the
// classes below and a "- **Rule:** " line, and at least one reproducer, a
// fenced block whose info string is `repro`:
//   $ <command>            run by bash from the repository root; `matload`
//                          is the built binary, scripts/ptxas-snippet.sh
//                          assembles with $MATLOAD_PTXAS (ptxas 13.0), and
//                          $PTXAS_12_9 names ptxas 12.9.86
//   exit <n>               its exit status
//   output: <text>         a line its stdout or stderr must contain (any
//                          number of these)
//   needs: ptxas-12.9      run only where ptxas 12.9.86 is installed
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "harness/platform/source_tree.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

// Reproducer is one `repro` block of the report.
struct Reproducer {
  std::string erratum;  // the section it sits in, "E3"
  std::string command;
  int exit_code = -1;
  std::vector<std::string> output;
  bool needs_ptxas_12_9 = false;
};

// Erratum is one "### E<n>." section: its class, whether it names a rule,
// and how many reproducers it holds.
struct Erratum {
  std::string id;
  std::string erratum_class;
  bool names_rule = false;
  int reproducers = 0;
};

struct Report {
  std::vector<Erratum> errata;
  std::vector<Reproducer> reproducers;
};

std::string ReadReport() {
  std::ifstream in(SourceTreePath("reports/spec-errata.md"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// ParseBlockLine adds one line of a `repro` block to `reproducer`; a line
// it does not know fails the test.
void ParseBlockLine(absl::string_view line, Reproducer& reproducer) {
  if (absl::ConsumePrefix(&line, "$ ")) {
    reproducer.command = std::string(line);
  } else if (absl::ConsumePrefix(&line, "exit ")) {
    EXPECT_TRUE(absl::SimpleAtoi(line, &reproducer.exit_code)) << reproducer.erratum << ": bad exit line";
  } else if (absl::ConsumePrefix(&line, "output: ")) {
    reproducer.output.emplace_back(line);
  } else if (line == "needs: ptxas-12.9") {
    reproducer.needs_ptxas_12_9 = true;
  } else if (!line.empty()) {
    ADD_FAILURE() << reproducer.erratum << ": unknown reproducer line '" << line << "'";
  }
}

Report ParseReport(const std::string& text) {
  Report report;
  bool in_block = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (in_block) {
      if (line == "```") {
        in_block = false;
        EXPECT_FALSE(report.reproducers.back().command.empty()) << report.errata.back().id << ": a block without $";
        EXPECT_GE(report.reproducers.back().exit_code, 0) << report.errata.back().id << ": a block without exit";
      } else {
        ParseBlockLine(line, report.reproducers.back());
      }
    } else if (absl::ConsumePrefix(&line, "### E")) {
      report.errata.push_back({.id = absl::StrCat("E", line.substr(0, line.find('.')))});
    } else if (report.errata.empty()) {
      continue;
    } else if (line == "```repro") {
      in_block = true;
      ++report.errata.back().reproducers;
      report.reproducers.push_back({.erratum = report.errata.back().id});
    } else if (absl::ConsumePrefix(&line, "- **Class:** ")) {
      report.errata.back().erratum_class = std::string(line.substr(0, line.find_first_of(".;(")));
    } else if (absl::StartsWith(line, "- **Rule:** ")) {
      report.errata.back().names_rule = true;
    }
  }
  EXPECT_FALSE(in_block) << "an unclosed repro block";
  return report;
}

std::string Ptxas129() {
  if (const char* path = std::getenv("MATLOAD_PTXAS_12_9")) return path;
  const char* home = std::getenv("HOME");
  return absl::StrCat(home == nullptr ? "" : home, "/.cache/matload/cuda-12.9.86/ptxas");
}

// RunReproducer runs one reproducer and checks its stated result.
void RunReproducer(const Reproducer& reproducer) {
  SCOPED_TRACE(absl::StrCat(reproducer.erratum, ": ", reproducer.command));
  const std::string binary_dir = std::filesystem::path(MATLOAD_BINARY).parent_path();
  const std::string script = absl::StrCat("export PATH=\"", binary_dir, ":$PATH\" PTXAS_12_9=\"", Ptxas129(),
                                          "\" && cd \"$MATLOAD_SOURCE_DIR\" && ", reproducer.command);
  absl::StatusOr<ProcessResult> result = RunProcess({"bash", "-c", script}, std::chrono::seconds(120));
  ASSERT_TRUE(result.ok()) << result.status();
  const std::string output = result->standard_output + result->standard_error;
  EXPECT_EQ(result->exit_code, reproducer.exit_code) << output;
  for (const std::string& line : reproducer.output) EXPECT_TRUE(absl::StrContains(output, line)) << line << "\n" << output;
}

TEST(SpecErrataTest, EveryErratumIsClassifiedAndReproducible) {
  const std::set<std::string> classes = {"wrong example",  "self-contradiction",       "ambiguity",
                                         "missing rule",   "version or target note wrong", "comment wrong"};
  const Report report = ParseReport(ReadReport());
  EXPECT_GE(report.errata.size(), 20u);
  std::set<std::string> ids;
  for (const Erratum& erratum : report.errata) {
    EXPECT_TRUE(ids.insert(erratum.id).second) << erratum.id << " twice";
    EXPECT_TRUE(classes.contains(erratum.erratum_class)) << erratum.id << ": class '" << erratum.erratum_class << "'";
    EXPECT_TRUE(erratum.names_rule) << erratum.id << " names no rule";
    EXPECT_GE(erratum.reproducers, 1) << erratum.id << " has no reproducer";
  }
}

TEST(SpecErrataTest, EveryReproducerGivesTheStatedResult) {
  int ran = 0;
  for (const Reproducer& reproducer : ParseReport(ReadReport()).reproducers) {
    if (reproducer.needs_ptxas_12_9) continue;
    RunReproducer(reproducer);
    ++ran;
  }
  EXPECT_GE(ran, 20);
}

TEST(SpecErrataTest, EveryPtxas129ReproducerGivesTheStatedResult) {
  if (!std::filesystem::exists(Ptxas129())) {
    GTEST_SKIP() << "ptxas 12.9.86 is not at " << Ptxas129() << " (scripts/fetch-cuda-tools.sh ptxas@12.9.86)";
  }
  int ran = 0;
  for (const Reproducer& reproducer : ParseReport(ReadReport()).reproducers) {
    if (!reproducer.needs_ptxas_12_9) continue;
    RunReproducer(reproducer);
    ++ran;
  }
  EXPECT_GE(ran, 1);
}

}  // namespace
}  // namespace matload
