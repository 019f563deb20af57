// Every registered family's kernels against the real ptxas: each family's
// run-time half (families/<family>/<family>_runtime.cc) is tested here
// through its descriptor, so a new family's kernels are checked without a
// test of their own. The oracle is ptxas, not the tables.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "harness/compile/fetched_ptxas.h"
#include "harness/compile/ptxas.h"
#include "harness/families/family_runtime.h"
#include "reference/enumerate.h"
#include "reference/families.h"

namespace matload {
namespace {

constexpr PtxVersion kPtx{9, 0};

// kTargets are targets whose forms differ: the oldest with ldmatrix, Hopper,
// and the Blackwell kinds (which no lent GPU can run).
constexpr const char* kTargets[] = {"sm_75", "sm_90", "sm_100a", "sm_110a", "sm_120a"};

// FamilyKernels is the kernels of one family on one target, and how many
// of its programs were left out because EveryLegalFormsKernelAssembles
// assembles the same kernel.
struct FamilyKernels {
  std::vector<std::string> kernels;
  int left_out = 0;
};

// Kernels is every kernel conform would run of `family` on `target`: one
// per legal form and address width, judged on the device where
// `judge_on_device` asks and the form has a plan. Forms the model cannot
// predict there (NewProgram's kNotFound) have none. Where
// `judge_on_device` asks, forms without a plan are left out: their kernel
// is the one the host judges, which EveryLegalFormsKernelAssembles
// assembles on the same targets.
FamilyKernels Kernels(const FamilyRuntime& family, Target target, PtxVersion ptx = kPtx, bool judge_on_device = false) {
  FamilyKernels found;
  std::vector<std::string>& kernels = found.kernels;
  const FamilySpec& spec = SpecOf(family.family());
  for (const QualifierSet& qualifiers : LegalQualifierSets(spec, ptx, target)) {
    const std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, ptx, target);
    EXPECT_TRUE(instruction.has_value());
    if (!instruction.has_value()) continue;
    for (int bits : family.AddressWidths(*instruction)) {
      auto program = family.NewProgram(*instruction, {.shared_address_bits = bits, .judge_on_device = judge_on_device});
      if (absl::IsNotFound(program.status())) continue;
      EXPECT_TRUE(program.ok()) << program.status();
      if (!program.ok()) continue;
      if (judge_on_device && !(*program)->frame().judged_on_device) {
        ++found.left_out;
        continue;
      }
      // One ptxas run takes them all as one program, so each entry needs a
      // name of its own.
      const std::string& entry = (*program)->entry();
      const std::string renamed = absl::StrCat(entry, "_", kernels.size());
      kernels.push_back(absl::StrReplaceAll((*program)->kernel(), {{entry, renamed}}));
      // A form judged on the device may have a sweep kernel too.
      if (const std::optional<std::string> sweep = (*program)->SweepKernel(); sweep.has_value()) {
        kernels.push_back(absl::StrReplaceAll(*sweep, {{entry, renamed}}));
      }
    }
  }
  return found;
}

// FirstRejection is ptxas's first message about a rejected batch, with the
// kernel it names.
std::string FirstRejection(const AssembleResult& result, const std::vector<std::string>& kernels) {
  if (result.diagnostics.empty()) return "rejected, with no message";
  const Diagnostic& first = result.diagnostics.front();
  const bool named = first.module >= 0 && first.module < static_cast<int>(kernels.size());
  return absl::StrCat(first.message, "\n", named ? kernels[first.module] : "");
}

// kKernelsPerRun bounds the kernels of one ptxas run, so that no run nears
// ptxas's time limit on a loaded 2-core machine (all of sm_90's wmma.load
// kernels with their sweeps took over 120 s in one run there).
constexpr size_t kKernelsPerRun = 128;

// AssembleEveryKernel assembles every family's every legal form at `ptx`
// on `targets` with `ptxas`, kKernelsPerRun kernels a ptxas run, each
// kernel judged on the device where `judge_on_device` asks.
void AssembleEveryKernel(const Ptxas& ptxas, absl::Span<const char* const> targets, PtxVersion ptx,
                         bool judge_on_device = false) {
  for (const FamilyRuntime* family : AllFamilyRuntimes()) {
    int covered = 0;  // kernels assembled here, and those left to EveryLegalFormsKernelAssembles
    for (const char* name : targets) {
      const Target target = *ParseTarget(name);
      const FamilyKernels found = Kernels(*family, target, ptx, judge_on_device);
      const std::vector<std::string>& kernels = found.kernels;
      covered += found.left_out;
      for (size_t first = 0; first < kernels.size(); first += kKernelsPerRun) {
        const std::vector<std::string> run(
            kernels.begin() + static_cast<long>(first),
            kernels.begin() + static_cast<long>(std::min(kernels.size(), first + kKernelsPerRun)));
        absl::StatusOr<AssembleResult> result = ptxas.AssembleModules(run, target);
        ASSERT_TRUE(result.ok()) << result.status();
        EXPECT_TRUE(result->accepted) << name << " at PTX " << ptx.ToString() << ": " << FirstRejection(*result, run);
        covered += run.size();
      }
    }
    EXPECT_GT(covered, 0) << SpecOf(family->family()).MnemonicText() << " has no form on any target";
  }
}

// Every family's every legal form on every kind of target gives a kernel
// the toolkit's ptxas accepts at PTX 9.0.
TEST(FamilyKernelsTest, EveryLegalFormsKernelAssembles) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  AssembleEveryKernel(*ptxas, kTargets, kPtx);
}

// The kernels that judge their blocks on the device (harness/kernels/
// device_judge.h), and the sweeps that draw and judge their variants there
// (device_sweep.h), assemble too, on Hopper, where GPUs run them, and on
// sm_100a, where ldmatrix and wmma.load run beside tcgen05.ld (which has no
// plan). (Their
// judge's code is the same on every target; assembling it for every kind
// of target would add half a minute of ptxas to every CI run.)
TEST(FamilyKernelsTest, EveryLegalFormsDeviceJudgedKernelAssembles) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  constexpr const char* kGpuTargets[] = {"sm_90", "sm_100a"};
  AssembleEveryKernel(*ptxas, kGpuTargets, kPtx, /*judge_on_device=*/true);
}

// At the newest PTX version, with the newest ptxas the fetch script knows,
// on those targets and the ones later versions gave forms of their own:
// sm_90a (ldmatrix .s8.s4, PTX 9.4) and sm_107a (PTX 9.4). No lent GPU runs
// sm_107a: its kernels are compiled, not run.
TEST(FamilyKernelsTest, EveryLegalFormsKernelAssemblesAtTheNewestVersion) {
  absl::StatusOr<Ptxas> ptxas = OpenNewestFetchedPtxas();
  if (absl::IsNotFound(ptxas.status())) GTEST_SKIP() << ptxas.status().message();
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  constexpr const char* kNewestTargets[] = {"sm_75", "sm_90", "sm_90a", "sm_100a", "sm_107a", "sm_110a", "sm_120a"};
  AssembleEveryKernel(*ptxas, kNewestTargets, NewestPtxVersion());
}

// WidestForm is the first legal form of `family` on `target` with the most
// destination registers, so that every planted bug shows in its kernel.
std::optional<CheckedInstruction> WidestForm(const FamilyRuntime& family, Target target) {
  const FamilySpec& spec = SpecOf(family.family());
  std::optional<CheckedInstruction> widest;
  for (const QualifierSet& qualifiers : LegalQualifierSets(spec, kPtx, target)) {
    std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, kPtx, target);
    if (instruction.has_value() &&
        (!widest.has_value() || instruction->signature().destination_count > widest->signature().destination_count)) {
      widest = std::move(instruction);
    }
  }
  return widest;
}

// Every planted bug a family can carry still gives a kernel ptxas accepts,
// and each kernel bug changes it: the self-test runs real kernels, not
// broken modules. Checked on Hopper, or where the family first runs; the
// misjudging checker in the kernel that judges on the device.
TEST(FamilyKernelsTest, EveryPlantedBugAssemblesAndChangesTheKernel) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
  ASSERT_TRUE(ptxas.ok()) << ptxas.status();
  std::vector<PlantedBug> bugs = AllPlantedBugs();
  bugs.push_back(PlantedBug::kHangingBlock);
  for (const FamilyRuntime* family : AllFamilyRuntimes()) {
    const Target target = *ParseTarget(family->NeededHardware().has_value() ? "sm_100a" : "sm_90");
    const std::optional<CheckedInstruction> form = WidestForm(*family, target);
    ASSERT_TRUE(form.has_value());
    for (PlantedBug bug : bugs) {
      // A bug planted in the device judge is planted in a kernel that has one.
      const bool judged = PlantedInTheDeviceJudge(bug);
      auto clean = family->NewProgram(*form, {.judge_on_device = judged});
      ASSERT_TRUE(clean.ok()) << clean.status();
      auto program = family->NewProgram(*form, {.bug = bug, .judge_on_device = judged});
      if (absl::IsInvalidArgument(program.status())) continue;  // a bug the family cannot carry
      ASSERT_TRUE(program.ok()) << program.status();
      if (judged && !(*program)->frame().judged_on_device) continue;  // no plan, so no device judge
      const std::string& kernel = (*program)->kernel();
      absl::StatusOr<AssembleResult> result = ptxas->Assemble(kernel, target);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_TRUE(result->accepted) << PlantedBugName(bug) << ": " << FirstRejection(*result, {kernel});
      // The transposed bug lives in the expected values, not in the kernel.
      EXPECT_EQ(kernel == (*clean)->kernel(), bug == PlantedBug::kTransposedExpectation) << PlantedBugName(bug);
    }
  }
}

// A form that names .global reads only global memory: its kernel declares
// no shared window.
TEST(FamilyKernelsTest, GlobalFormsHaveNoSharedWindow) {
  const Target target{90};
  int global_forms = 0;
  for (const FamilyRuntime* family : AllFamilyRuntimes()) {
    const FamilySpec& spec = SpecOf(family->family());
    for (const QualifierSet& qualifiers : LegalQualifierSets(spec, kPtx, target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, kPtx, target);
      ASSERT_TRUE(instruction.has_value());
      auto program = family->NewProgram(*instruction, {});
      if (!program.ok()) continue;
      const bool global = instruction->signature().state_space == StateSpace::kGlobal;
      global_forms += global;
      EXPECT_EQ((*program)->frame().has_shared_window, !global) << (*program)->Label();
      EXPECT_EQ((*program)->kernel().find(".shared .align") == std::string::npos, global) << (*program)->Label();
    }
  }
  EXPECT_GT(global_forms, 0);
}

}  // namespace
}  // namespace matload
