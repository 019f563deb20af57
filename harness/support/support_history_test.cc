// The support history on sweeps made by hand: three releases, each
// comparing the same five forms of sm_80 at the common version, and a
// matrix row at its newest, so that every range, change and misdiagnosis
// is known beforehand. `matload history` on fake toolkits is
// harness/cli/history_command_test.cc.
#include "harness/support/support_history.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/support/support_history_report.h"
#include "reference/parser.h"

namespace matload {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

constexpr PtxVersion kCommon{7, 8};

// The registry: a leniency measured on 12.9.86 only, and a misdiagnosis.
constexpr absl::string_view kRegistry = R"json({"discrepancies": [
  {"id": "dup-sync", "pattern": "\\.sync\\.sync\\.", "direction": "toolchain-accepts", "rule": "syntax.duplicate-qualifier",
   "toolchains": ["ptxas 12.9.86"], "toolchain_message": "(accepted)", "judgement": "lenient", "example": "x"},
  {"id": "wmma-helper", "pattern": "^wmma\\.load\\.c\\.", "direction": "toolchain-misdiagnoses", "targets": ["sm_80"],
   "rule": "wmma.shape", "toolchains": ["ptxas 13.0.88"], "toolchain_message": "__cuda_sm7x_wmma",
   "judgement": "names a helper", "example": "x"}]})json";

// The forms, all of sm_80; the verdict of each release follows.
const char* const kForms[] = {
    "ldmatrix.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];",
    "ldmatrix.sync.aligned.m8n8.x3.b16 {%r0}, [%addr];",
    "ldmatrix.sync.sync.aligned.m8n8.x1.b16 {%r0}, [%addr];",
    "wmma.load.c.sync.aligned.row.m16n16k8.f16 {%r0, %r1, %r2, %r3}, [%addr];",
    "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%h0];",
};
const bool kModelLegal[] = {true, false, false, false, false};

// Verdicts are each release's verdicts on kForms: 12.4 rejects the legal
// ldmatrix, 13.0 rewords "Unknown modifier", every release accepts the
// repeated .sync, names a wmma helper on no line, and names 'mov'.
std::vector<CompilerVerdict> Verdicts(size_t release) {
  return {
      release == 0 ? CompilerVerdict{.messages = {"fake rejection"}} : CompilerVerdict{.accepted = true},
      {.messages = {release == 2 ? "Unknown qualifier '.x3'" : "Unknown modifier '.x3'"}},
      {.accepted = true},
      {.messages = {"Call to '__cuda_sm7x_wmma_m16n16k8_acc_f16' fails"}, .unplaced = 1},
      {.messages = {"Arguments mismatch for instruction 'mov'"}},
  };
}

class SupportHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(kRegistry);
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_.emplace(*std::move(registry));
    std::vector<HistoryToolkit> toolkits;
    for (const auto& [release, newest] :
         {std::pair<const char*, PtxVersion>{"12.4.131", {8, 4}}, {"12.9.86", {8, 8}}, {"13.0.88", {9, 0}}}) {
      toolkits.push_back({.toolchain = absl::StrCat("ptxas ", release),
                          .path = absl::StrCat("/fake/", release, "/ptxas"),
                          .dialect = {newest},
                          .newest = newest,
                          .targets = {"sm_80"}});
    }
    history_.emplace(std::move(toolkits), kCommon, *registry_);
    for (const char* text : kForms) {
      instructions_.push_back(ParseSnippet(text)->instruction);
      texts_.push_back(text);
    }
    for (size_t release = 0; release < 3; ++release) {
      Sweep(release, kCommon);
      Sweep(release, history_->toolkits()[release].newest);
    }
  }

  // Sweep tells the history release `release`'s sweep at `ptx`.
  void Sweep(size_t release, PtxVersion ptx) {
    const std::vector<CompilerVerdict> verdicts = Verdicts(release);
    const std::vector<bool> model_legal(std::begin(kModelLegal), std::end(kModelLegal));
    history_->Compared(release, ptx)({*ParseTarget("sm_80"), 0, instructions_, texts_, model_legal, verdicts});
    SupportSweep sweep{.compiler = history_->toolkits()[release].toolchain, .ptx = ptx, .targets = {"sm_80"}};
    sweep.rows.push_back({"ldmatrix",
                          "ldmatrix.sync.aligned.m8n8.x1.b16",
                          kForms[0],
                          {{"sm_80", {.model_legal = true, .compiled = true, .compiler_accepted = release > 0}}}});
    sweep.summaries.push_back({.target = "sm_80", .legal = 1, .near_miss = 4, .matrix_rows = 1});
    for (size_t i = 0; i < texts_.size(); ++i) {
      if (kModelLegal[i] == verdicts[i].accepted) continue;
      sweep.disagreements.push_back({.target = "sm_80",
                                     .instruction = texts_[i],
                                     .model_legal = kModelLegal[i],
                                     .compiler_messages = verdicts[i].messages,
                                     .registry_id = i == 2 && release == 1 ? "dup-sync" : ""});
    }
    history_->Add(release, sweep, {.seconds = 1});
  }

  std::optional<DiscrepancyRegistry> registry_;
  std::optional<SupportHistory> history_;
  std::vector<RawInstruction> instructions_;
  std::vector<std::string> texts_;
};

TEST_F(SupportHistoryTest, AFormClassIsFirstAcceptedWhereItsNewestSweepAcceptsIt) {
  const std::vector<FormClassHistory> classes = history_->FormClasses();
  ASSERT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes[0].states, "NYY");
  EXPECT_THAT(classes[0].first_accepted, Optional(1u));
  EXPECT_THAT(classes[0].last_accepted, Optional(2u));
}

TEST_F(SupportHistoryTest, ADisagreementHasItsRangeAndTheEntryOfAnyToolchain) {
  std::map<std::pair<std::string, std::string>, DisagreementHistory> at;
  for (const DisagreementHistory& d : history_->Disagreements()) at[{d.ptx.ToString(), d.instruction}] = d;
  const DisagreementHistory& rejected = at.at({"7.8", kForms[0]});
  EXPECT_EQ(rejected.states, "Xoo");
  EXPECT_EQ(rejected.first_bad, 0u);
  EXPECT_EQ(rejected.last_bad, 0u);
  EXPECT_EQ(rejected.last_good, std::nullopt);
  EXPECT_THAT(rejected.first_fixed, Optional(1u));
  EXPECT_EQ(rejected.message, "fake rejection");
  EXPECT_EQ(rejected.entry, "");
  const DisagreementHistory& lenient = at.at({"7.8", kForms[2]});
  EXPECT_EQ(lenient.states, "XEX") << "the entry lists 12.9.86 only";
  EXPECT_EQ(lenient.entry, "dup-sync");
  EXPECT_EQ(lenient.first_bad, 0u);
  EXPECT_EQ(lenient.last_bad, 2u);
  // Each newest sweep is the only one at its version.
  EXPECT_EQ(at.at({"8.4", kForms[2]}).states, "X  ");
}

TEST_F(SupportHistoryTest, SweepsCountWhatTheRegistryExplainsAndWhere) {
  ASSERT_EQ(history_->sweeps().size(), 6u);
  const HistorySweep& common_129 = history_->sweeps()[2];
  EXPECT_EQ(common_129.toolkit, 1u);
  EXPECT_TRUE(common_129.common);
  EXPECT_EQ(common_129.explained, 1u);
  EXPECT_EQ(common_129.unexplained, 0u);
  const HistorySweep& common_130 = history_->sweeps()[4];
  EXPECT_EQ(common_130.explained_elsewhere, 1u) << "dup-sync, measured on 12.9.86";
  EXPECT_EQ(history_->sweeps()[0].unexplained, 1u) << "12.4 rejects a legal form under no entry";
}

// A later release's sweep that the entry explains, carried from 12.9.86,
// counts it as known, also seen on that release: not as explained there.
TEST_F(SupportHistoryTest, AnEntryCarriedToALaterReleaseIsAlsoSeenOnIt) {
  SupportSweep sweep{.compiler = "ptxas 13.0.88", .ptx = kCommon, .targets = {"sm_80"}};
  sweep.disagreements.push_back(
      {.target = "sm_80", .instruction = kForms[2], .model_legal = false, .registry_id = "dup-sync"});
  history_->Add(2, sweep, {.seconds = 1});
  const HistorySweep& counted = history_->sweeps().back();
  EXPECT_EQ(counted.also_seen, 1u);
  EXPECT_EQ(counted.explained, 0u);
  EXPECT_EQ(counted.explained_elsewhere, 0u);
}

TEST_F(SupportHistoryTest, ConsecutiveReleasesChangeVerdictsAndWords) {
  const std::vector<ReleaseChange> changes = history_->Changes();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].kind, ChangeKind::kNewlyAccepted);
  EXPECT_EQ(changes[0].from, 0u);
  EXPECT_EQ(changes[0].to, 1u);
  EXPECT_EQ(changes[0].before, "fake rejection");
  EXPECT_THAT(changes[0].forms, ElementsAre(absl::StrCat("sm_80 ", kForms[0])));
  EXPECT_EQ(changes[1].kind, ChangeKind::kReworded);
  EXPECT_EQ(changes[1].to, 2u);
  EXPECT_EQ(changes[1].before, "Unknown modifier '.x3'");
  EXPECT_EQ(changes[1].after, "Unknown qualifier '.x3'");
}

// Once forgotten, a version's verdicts are held against no later sweep.
TEST_F(SupportHistoryTest, AForgottenVersionIsComparedNoMore) {
  history_->Forget(kCommon);
  Sweep(2, kCommon);
  EXPECT_EQ(history_->Changes().size(), 2u) << "13.0.88's sweep again, compared with nothing";
}

TEST_F(SupportHistoryTest, MisdiagnosesAreCountedPerToolkitAndMatchedToTheRegistry) {
  std::map<std::string, DistinctMisdiagnosis> by_shape;
  for (const DistinctMisdiagnosis& m : history_->Misdiagnoses()) by_shape[m.shape] = m;
  const DistinctMisdiagnosis& helper = by_shape.at("Call to '…' fails");
  EXPECT_EQ(helper.kind, MisdiagnosisKind::kInternalSymbol);
  EXPECT_EQ(helper.family, "wmma.load");
  EXPECT_EQ(helper.entry, "wmma-helper") << "an entry's targets and toolchains do not limit what it lists";
  EXPECT_THAT(helper.per_toolkit, ElementsAre(2u, 2u, 2u)) << "two sweeps each";
  const DistinctMisdiagnosis& mov = by_shape.at("Arguments mismatch for instruction '…'");
  EXPECT_EQ(mov.entry, "");
  EXPECT_EQ(mov.toolkit, 0u);
  EXPECT_EQ(mov.instruction, kForms[4]);
  EXPECT_EQ(history_->Misdiagnoses().front().entry, "") << "unregistered first";
  for (const HistorySweep& sweep : history_->sweeps()) {
    EXPECT_GE(sweep.misdiagnosed[static_cast<size_t>(MisdiagnosisKind::kInternalSymbol)], 2u);
    EXPECT_GE(sweep.unregistered, 1u);
  }
}

// The report does not depend on which target's sweep ends first: a
// misdiagnosis's example is its first form by toolkit, version, target and
// text, a rewording's by text, and changes come in the order of their words.
TEST_F(SupportHistoryTest, TheOrderInWhichTargetsEndChangesNothing) {
  const std::vector<bool> model_legal(std::begin(kModelLegal), std::end(kModelLegal));
  const auto told = [&](std::vector<const char*> targets) {
    SupportHistory history(history_->toolkits(), kCommon, *registry_);
    for (size_t release = 0; release < 3; ++release) {
      const std::vector<CompilerVerdict> verdicts = Verdicts(release);
      for (const char* target : targets) {
        history.Compared(release, kCommon)({*ParseTarget(target), 0, instructions_, texts_, model_legal, verdicts});
      }
    }
    std::vector<std::string> said;
    for (const ReleaseChange& change : history.Changes()) {
      said.push_back(absl::StrCat(change.before, " > ", change.after, ": ", absl::StrJoin(change.forms, ", ")));
    }
    for (const DistinctMisdiagnosis& m : history.Misdiagnoses()) {
      said.push_back(absl::StrCat(m.target, " ", m.instruction, "; ", absl::StrJoin(m.others, ", ")));
    }
    return said;
  };
  const std::vector<std::string> in_order = told({"sm_80", "sm_90"});
  EXPECT_EQ(told({"sm_90", "sm_80"}), in_order);
  EXPECT_THAT(in_order, ::testing::Contains(HasSubstr("Unknown qualifier '.x3': sm_80 ")));
}

TEST_F(SupportHistoryTest, TheReportSaysItAll) {
  const std::filesystem::path directory = std::filesystem::path(testing::TempDir()) / "history-report";
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  const HistoryContext context{.command = "matload history",
                               .date = "2026-11-27",
                               .machine = "x86_64, 2 cores",
                               .matload = "matload test",
                               .seconds = 6};
  ASSERT_TRUE(WriteHistoryReport(*history_, context, directory.string()).ok());
  const auto read = [&directory](const char* name) {
    std::ifstream file(directory / name);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  };
  const std::string md = read("history.md");
  EXPECT_THAT(md, HasSubstr("# Support history: ptxas 12.4.131 to ptxas 13.0.88"));
  EXPECT_THAT(md, HasSubstr("| ldmatrix | sm_80 | 1 | 12.9.86 | 13.0.88 | `ldmatrix.sync.aligned.m8n8.x1.b16` |"));
  EXPECT_THAT(md, HasSubstr("| dup-sync | illegal | 7.8 | 1 | sm_80 | - | 12.4.131 | 13.0.88 | - |"));
  EXPECT_THAT(md, HasSubstr("### ptxas 12.9.86 to ptxas 13.0.88"));
  EXPECT_THAT(md, HasSubstr("| reworded | 7.8 | 1 | sm_80 | Unknown modifier '.x3' | Unknown qualifier '.x3' |"));
  EXPECT_THAT(md, HasSubstr("- Registry: **not listed**"));
  EXPECT_THAT(md, HasSubstr("/fake/12.4.131/ptxas -arch=sm_80 reproducers/misdiagnosis-1.ptx -o /dev/null"));
  EXPECT_THAT(read("reproducers/misdiagnosis-1.ptx"), HasSubstr("[%h0]"));
  EXPECT_THAT(read("forms.tsv"),
              HasSubstr("ldmatrix\tsm_80\tldmatrix.sync.aligned.m8n8.x1.b16\t12.9.86\t13.0.88\tN\tY\tY\n"));
  EXPECT_THAT(read("changes.tsv"),
              HasSubstr("12.4.131\t12.9.86\t7.8\tnewly accepted\t1\tsm_80\tfake rejection\t\tsm_80 "));
  EXPECT_THAT(read("disagreements.tsv"), HasSubstr("7.8\tsm_80\tillegal\tdup-sync\t\t12.4.131\t13.0.88\t\tXEX\t"));
  EXPECT_THAT(read("misdiagnoses.tsv"),
              HasSubstr("internal symbol\twmma.load\tCall to '…' fails\twmma-helper\t2\t2\t2\t"));
  const nlohmann::json json = nlohmann::json::parse(read("history.json"));
  EXPECT_EQ(json["common_ptx"], "7.8");
  EXPECT_EQ(json["sweeps"].size(), 6u);
  EXPECT_EQ(json["toolkits"][2]["toolchain"], "ptxas 13.0.88");
}

}  // namespace
}  // namespace matload
