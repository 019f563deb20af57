#include "harness/families/test_program.h"

#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/match.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "families/tcgen05/tcgen05_ld_table.h"
#include "families/wmma/wmma_load_table.h"
#include "gtest/gtest.h"
#include "harness/kernels/device_sweep.h"
#include "reference/enumerate.h"
#include "reference/ptx_version.h"

namespace matload {
namespace {

std::vector<CheckedInstruction> LegalForms(const FamilySpec& spec, Target target, PtxVersion ptx = {9, 0}) {
  std::vector<CheckedInstruction> forms;
  for (const QualifierSet& qualifiers : LegalQualifierSets(spec, ptx, target)) {
    std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, ptx, target);
    if (instruction.has_value()) forms.push_back(*std::move(instruction));
  }
  return forms;
}

// Every legal sm_90 form gets a program whose generated variants are all
// cases the model predicts, with records of the kernel's size.
TEST(TestProgramTest, EveryLegalSm90FormsVariantsAreDefinedCases) {
  int programs = 0;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const CheckedInstruction& instruction : LegalForms(*spec, Target{90})) {
      absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {});
      ASSERT_TRUE(program.ok()) << program.status();
      for (const Variant& variant : (*program)->Variants(12, 7, false)) {
        EXPECT_EQ((*program)->Record(variant).size(), static_cast<size_t>((*program)->frame().record_bytes));
        const Outcome outcome = (*program)->Expect(variant);
        EXPECT_TRUE(std::holds_alternative<LaneValues>(outcome))
            << (*program)->Label() << " variant " << variant.index << " (" << variant.kind << "): "
            << std::get<Undefined>(outcome).why;
      }
      ++programs;
    }
  }
  EXPECT_EQ(programs, 18 + 352);
}

// SplitsPairs says whether the sweep kernel of `instruction` has
// neighbouring lanes split the window's 64-bit words (kSplitPairsNote).
bool SplitsPairs(const CheckedInstruction& instruction, PlantedBug bug) {
  absl::StatusOr<std::unique_ptr<TestProgram>> sweeping =
      TestProgram::For(instruction, {.bug = bug, .judge_on_device = true});
  if (!sweeping.ok()) return false;
  const std::optional<std::string> kernel = (*sweeping)->SweepKernel();
  return kernel.has_value() && absl::StrContains(*kernel, kSplitPairsNote);
}

// ExpectLinesStartAtPairs checks that every line of `plan` starts at a
// multiple of 8 bytes for a defined `variant`: a sweep kernel whose lanes
// split the window's 64-bit words relies on it (device_sweep.cc), and
// would otherwise stop the run as its own error.
void ExpectLinesStartAtPairs(const LoadPlan& plan, const Variant& variant, const std::string& label) {
  for (size_t byte = 0; byte < plan.bytes.size(); byte += 4) {
    const int line = plan.bytes[byte].line;
    EXPECT_EQ(PlannedLineOffset(plan, variant.operands, line) % 8, 0u)
        << label << " variant " << variant.index << " line " << line;
  }
}

// The plan a GPU judges by (reference/load_plan.h) predicts what the model
// predicts: followed over the variant's window, for every defined variant
// of every legal form of ldmatrix and wmma.load on sm_90 at PTX 9.0 and on
// sm_90a at the newest PTX version, and with the planted transposed
// expectation. Only the forms that decompress their rows have no plan.
TEST(TestProgramTest, ThePlanPredictsWhatTheModelPredicts) {
  int planned = 0, unplanned = 0, paired = 0;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const auto& [target, ptx] : {std::pair{Target{90}, PtxVersion{9, 0}},
                                      std::pair{Target{90, TargetVariant::kArchSpecific}, NewestPtxVersion()}}) {
      for (const CheckedInstruction& instruction : LegalForms(*spec, target, ptx)) {
        for (const PlantedBug bug : {PlantedBug::kNone, PlantedBug::kTransposedExpectation}) {
          absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {.bug = bug});
          if (!program.ok()) continue;  // no transposed twin to plant
          const std::optional<LoadPlan> plan = (*program)->Plan();
          if (!plan.has_value()) {
            EXPECT_TRUE(instruction.form().qualifiers.Present(ldmatrix::kSrcFmt) ||
                        instruction.form().qualifiers.Present(ldmatrix::kCtype))
                << (*program)->Label();
            ++unplanned;
            continue;
          }
          ++planned;
          const bool splits_pairs = SplitsPairs(instruction, bug);
          paired += splits_pairs;
          std::vector<std::uint8_t> window((*program)->frame().window_bytes);
          for (const Variant& variant : (*program)->Variants(24, 3, true)) {
            const Outcome outcome = (*program)->Expect(variant);
            const auto* expected = std::get_if<LaneValues>(&outcome);
            if (expected == nullptr) continue;
            FillWindow(variant.pattern, variant.stream, absl::MakeSpan(window));
            const std::vector<std::uint32_t> words = PlannedWords(
                *plan, [&](int line) { return PlannedLineOffset(*plan, variant.operands, line); },
                [&](std::uint64_t offset) { return window.at(offset); });
            ASSERT_EQ(words, expected->words) << (*program)->Label() << " variant " << variant.index;
            if (splits_pairs) ExpectLinesStartAtPairs(*plan, variant, (*program)->Label());
          }
        }
      }
    }
  }
  EXPECT_GT(planned, 700);
  EXPECT_GT(unplanned, 0);
  EXPECT_GT(paired, 300);
}

// Predictions keep no state between calls: a host thread that has just
// predicted hundreds of other variants (wmma.load's keeps its window, and
// writes only the lines the model reads) predicts each variant as a fresh
// thread does, for every legal sm_90 form, defined and undefined variants,
// and with the planted transposed expectation, which reads other lines.
TEST(TestProgramTest, APredictionDoesNotDependOnTheThreadsEarlierOnes) {
  // Predictions of `variants` of `program` on a thread of their own, after
  // `before`: the registers, or why the model predicts none.
  const auto predict = [](const TestProgram& program, const std::vector<Variant>& before,
                          const std::vector<Variant>& variants) {
    std::vector<std::variant<LaneValues, std::string>> outcomes;
    std::thread([&] {
      for (const Variant& variant : before) program.Expect(variant);
      for (const Variant& variant : variants) {
        const Outcome outcome = program.Expect(variant);
        if (const auto* values = std::get_if<LaneValues>(&outcome)) {
          outcomes.emplace_back(*values);
        } else if (const auto* undefined = std::get_if<Undefined>(&outcome)) {
          outcomes.emplace_back(undefined->why);
        } else {
          outcomes.emplace_back(std::get<MustFault>(outcome).why);
        }
      }
    }).join();
    return outcomes;
  };
  int programs = 0;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const CheckedInstruction& instruction : LegalForms(*spec, Target{90})) {
      for (const PlantedBug bug : {PlantedBug::kNone, PlantedBug::kTransposedExpectation}) {
        absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {.bug = bug});
        if (!program.ok()) continue;  // no transposed twin to plant
        const std::vector<Variant> variants = (*program)->Variants(24, 7, true);
        const auto fresh = predict(**program, {}, variants);
        ASSERT_EQ(predict(**program, (*program)->Variants(200, 8, true), variants), fresh) << (*program)->Label();
        ++programs;
      }
    }
  }
  EXPECT_GT(programs, 18 + 352);
}

// Asked for, a share of the variants are undefined cases, and the model says why.
TEST(TestProgramTest, UndefinedVariantsAreGeneratedOnRequest) {
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    const CheckedInstruction instruction = LegalForms(*spec, Target{90}).front();
    std::unique_ptr<TestProgram> program = *TestProgram::For(instruction, {});
    int undefined = 0;
    for (const Variant& variant : program->Variants(16, 7, true)) {
      const Outcome outcome = program->Expect(variant);
      if (const auto* why = std::get_if<Undefined>(&outcome)) {
        ++undefined;
        EXPECT_FALSE(why->why.empty());
      }
    }
    EXPECT_EQ(undefined, 4) << program->Label();
  }
}

// Not asked for, no variant is undefined: the model predicts every one's
// registers. conform relies on it to leave the model out of making a run's
// variants (conform_case_work.cc's Make), so that each is predicted once,
// when its block is judged. Every legal form of sm_90 and sm_100a, 1024
// variants each (64 for tcgen05.ld, whose generator runs the model on
// every draw), whose kinds cover every generator's choice. (A planted
// transposed expectation is another form's model, which may call a variant
// undefined; conform asks it.)
TEST(TestProgramTest, WithoutUndefinedEveryVariantIsPredicted) {
  int programs = 0;
  for (const auto& [spec, target, count] :
       {std::tuple{&ldmatrix::Spec(), "sm_90", 1024}, std::tuple{&wmma::Spec(), "sm_90", 1024},
        std::tuple{&tcgen05::Spec(), "sm_100a", 64}}) {
    for (const CheckedInstruction& instruction : LegalForms(*spec, *ParseTarget(target))) {
      absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::For(instruction, {});
      ASSERT_TRUE(program.ok()) << program.status();
      for (const Variant& variant : (*program)->Variants(count, 20261127, false)) {
        const Outcome outcome = (*program)->Expect(variant);
        const auto* undefined = std::get_if<Undefined>(&outcome);
        const auto* fault = std::get_if<MustFault>(&outcome);
        ASSERT_TRUE(undefined == nullptr && fault == nullptr)
            << (*program)->Label() << ", variant " << variant.index << " (" << variant.kind
            << "): " << (undefined != nullptr ? undefined->why : fault->why);
      }
      ++programs;
    }
  }
  EXPECT_GT(programs, 400);  // 444 when written: the loops cannot pass empty
}

// The same seed replays the same variants; another seed gives others.
TEST(TestProgramTest, VariantsReplayFromTheSeed) {
  const CheckedInstruction instruction = LegalForms(wmma::Spec(), Target{90}).back();
  std::unique_ptr<TestProgram> program = *TestProgram::For(instruction, {});
  const std::vector<Variant> first = program->Variants(8, 99, false);
  const std::vector<Variant> again = program->Variants(8, 99, false);
  const std::vector<Variant> other = program->Variants(8, 100, false);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(program->Record(first[i]), program->Record(again[i]));
    EXPECT_EQ(first[i].kind, again[i].kind);
  }
  EXPECT_NE(program->Record(first[5]), program->Record(other[5]));
}

// A variant's draws are the outputs of SplitMix64 seeded with its key, each
// computed alone, and a scaled draw is its low word's share of the bound:
// what a sweep kernel computes on the device (harness/kernels/device_sweep.h).
TEST(TestProgramTest, KeyDrawsAreTheKeysSplitMix64Outputs) {
  constexpr std::uint64_t kKey = 0x0123456789ABCDEF;
  SplitMix64 generator(kKey);
  for (std::uint64_t k = 0; k < 40; ++k) EXPECT_EQ(KeyDraw(kKey, k), generator.Next()) << k;
  EXPECT_EQ(ScaledDraw(0, 224), 0u);
  EXPECT_EQ(ScaledDraw(0xFFFFFFFF, 224), 223u);
  EXPECT_EQ(ScaledDraw(0xFFFFFFFF80000000, 10), 5u);  // the high word plays no part
}

// Swept families' variants share a window of data 64 at a time, and an
// ldmatrix variant's scattered rows are its key's draws, one a lane, as the
// sweep kernel draws them.
TEST(TestProgramTest, SweptVariantsShareWindowsAndDrawFromTheirKeys) {
  constexpr std::uint64_t kSeed = 5;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    std::unique_ptr<TestProgram> program = *TestProgram::For(LegalForms(*spec, Target{90}).front(), {});
    for (int index = 1; index < 200; ++index) {
      const Variant variant = program->MakeVariant(kSeed, index, false);
      EXPECT_EQ(variant.stream, WindowStream(kSeed, index));
      EXPECT_EQ(variant.stream == program->MakeVariant(kSeed, index - 1, false).stream, index % 64 != 0) << index;
    }
  }
  std::unique_ptr<TestProgram> ldmatrix = *TestProgram::For(LegalForms(ldmatrix::Spec(), Target{90}).front(), {});
  const Variant scattered = ldmatrix->MakeVariant(kSeed, 5, false);  // index % 4 == 1
  ASSERT_EQ(scattered.kind, "scattered-rows");
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    EXPECT_EQ(scattered.operands.lane_addresses[lane], (KeyDraw(DataStream(kSeed, 5), lane) & 255) * 16) << lane;
  }
}

// A swept variant's fault case text is its fault class's, so that the
// registry's answer for each class is its answer for every variant of it
// (conform_case_work.cc skips the classes it predicts to fault). ldmatrix's
// four classes, its row generators, are all met; wmma.load's are its
// stride options times the 16 residues of p, not all of which p can take.
TEST(TestProgramTest, ASweptVariantsFaultCaseTextIsItsClasss) {
  int swept = 0;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const CheckedInstruction& instruction : LegalForms(*spec, Target{90})) {
      std::unique_ptr<TestProgram> program = *TestProgram::For(instruction, {.judge_on_device = true});
      if (!program->SweepKernel().has_value()) continue;
      ++swept;
      const std::vector<std::string> texts = program->FaultClassTexts();
      ASSERT_LE(texts.size(), static_cast<size_t>(kSweepFaultClasses)) << program->Label();
      std::set<int> met;
      for (int index = 1; index <= 1000; ++index) {
        const Variant variant = program->MakeVariant(11, index, false);
        const int fault_class = program->FaultClassOf(variant);
        ASSERT_LT(static_cast<size_t>(fault_class), texts.size()) << program->Label() << " " << index;
        EXPECT_EQ(program->FaultCaseText(variant), texts[fault_class]) << index;
        met.insert(fault_class);
      }
      if (spec == &ldmatrix::Spec()) EXPECT_EQ(met.size(), 4u) << program->Label();
    }
  }
  EXPECT_GT(swept, 300);
}

// The transposed planted bug changes the expectation, not the kernel.
TEST(TestProgramTest, TransposedBugChangesOnlyTheExpectation) {
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec()}) {
    for (const CheckedInstruction& instruction : LegalForms(*spec, Target{90})) {
      absl::StatusOr<std::unique_ptr<TestProgram>> planted =
          TestProgram::For(instruction, {.shared_address_bits = 64, .bug = PlantedBug::kTransposedExpectation});
      if (!planted.ok()) {
        EXPECT_EQ(planted.status().code(), absl::StatusCode::kInvalidArgument);
        continue;
      }
      std::unique_ptr<TestProgram> clean = *TestProgram::For(instruction, {});
      EXPECT_EQ((*planted)->kernel(), clean->kernel());
      const Variant variant = clean->Variants(2, 3, false)[1];
      EXPECT_NE(std::get<LaneValues>((*planted)->Expect(variant)), std::get<LaneValues>(clean->Expect(variant)))
          << clean->Label();
      break;  // one form per family
    }
  }
}

// A bug planted in the device judge needs one; a bug planted where the
// registers are stored goes after the device judge, whose verdicts it
// leaves alone.
TEST(TestProgramTest, TheMisjudgingCheckerNeedsTheDeviceJudge) {
  const CheckedInstruction form = LegalForms(ldmatrix::Spec(), Target{90}).front();
  EXPECT_EQ(TestProgram::For(form, {.bug = PlantedBug::kMisjudgingChecker}).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::unique_ptr<TestProgram>> checker =
      TestProgram::For(form, {.bug = PlantedBug::kMisjudgingChecker, .judge_on_device = true});
  ASSERT_TRUE(checker.ok()) << checker.status();
  EXPECT_NE((*checker)->kernel(), (*TestProgram::For(form, {.judge_on_device = true}))->kernel());
  for (PlantedBug bug : AllPlantedBugs()) {
    if (!PlantedWhereRegistersAreStored(bug)) continue;
    absl::StatusOr<std::unique_ptr<TestProgram>> stored = TestProgram::For(form, {.bug = bug, .judge_on_device = true});
    ASSERT_TRUE(stored.ok()) << stored.status();
    EXPECT_TRUE((*stored)->frame().judged_on_device) << PlantedBugName(bug);
  }
}

TEST(TestProgramTest, FormsTheModelCannotRunSaySo) {
  const CheckedInstruction blackwell_wmma = LegalForms(wmma::Spec(), *ParseTarget("sm_100a")).front();
  EXPECT_EQ(TestProgram::For(blackwell_wmma, {}).status().code(), absl::StatusCode::kNotFound);
  const CheckedInstruction tcgen05 = LegalForms(tcgen05::Spec(), *ParseTarget("sm_100a")).front();
  EXPECT_EQ(TestProgram::For(tcgen05, {.shared_address_bits = 64, .bug = PlantedBug::kTransposedExpectation})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

// Every legal tcgen05.ld form of the Tensor Memory targets, sm_107a's
// .spcompress forms of PTX 9.4 too, gets a program whose variants the model
// predicts, with the output sized for the destinations (cdata), .spcompress's
// mdata and .red's redval.
TEST(TestProgramTest, EveryLegalTcgen05FormsVariantsAreDefinedCases) {
  size_t programs = 0;
  size_t legal = 0;
  for (const auto& [name, ptx] : {std::pair{"sm_100a", PtxVersion{9, 0}}, std::pair{"sm_103a", PtxVersion{9, 0}},
                                  std::pair{"sm_107a", PtxVersion{9, 4}}}) {
    legal += LegalQualifierSets(tcgen05::Spec(), ptx, *ParseTarget(name)).size();
    for (const CheckedInstruction& instruction : LegalForms(tcgen05::Spec(), *ParseTarget(name), ptx)) {
      std::unique_ptr<TestProgram> program = *TestProgram::For(instruction, {});
      for (const Variant& variant : program->Variants(6, 11, false)) {
        const Outcome outcome = program->Expect(variant);
        ASSERT_TRUE(std::holds_alternative<LaneValues>(outcome))
            << program->Label() << " variant " << variant.index << ": " << std::get<Undefined>(outcome).why;
        EXPECT_EQ(std::get<LaneValues>(outcome).lane(0).size() * 4 * kWarpLanes,
                  static_cast<size_t>(program->frame().output_bytes))
            << program->Label();
      }
      int undefined = 0;
      for (const Variant& variant : program->Variants(8, 11, true)) {
        undefined += std::holds_alternative<Undefined>(program->Expect(variant)) ? 1 : 0;
      }
      EXPECT_EQ(undefined, 2) << program->Label();
      ++programs;
    }
  }
  EXPECT_EQ(programs, legal);
  EXPECT_GT(programs, 0u);
}

TEST(TestProgramTest, ProgramsAreFoundByTheirOpcode) {
  absl::StatusOr<std::unique_ptr<TestProgram>> program =
      TestProgram::ForOpcode("ldmatrix.sync.aligned.m8n8.x4.shared.b16", Target{90}, {9, 0}, {});
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(Opcode((*program)->instruction()), "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  // .m16n16 ldmatrix is not an sm_90 form.
  absl::StatusOr<std::unique_ptr<TestProgram>> missing =
      TestProgram::ForOpcode("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", Target{90}, {9, 0}, {});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "no legal form on sm_90 at PTX 9.0 is spelt 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8'");
}

TEST(TestProgramTest, SharedWmmaLabelsNameTheAddressWidth) {
  for (const CheckedInstruction& instruction : LegalForms(wmma::Spec(), Target{90})) {
    if (instruction.signature().state_space != StateSpace::kShared) continue;
    std::unique_ptr<TestProgram> program = *TestProgram::For(instruction, {.shared_address_bits = 32});
    EXPECT_NE(program->Label().find("[32-bit address]"), std::string::npos);
    EXPECT_EQ(program->Label().find(';'), std::string::npos);
    return;
  }
  FAIL() << "no .shared wmma.load form on sm_90";
}

}  // namespace
}  // namespace matload
