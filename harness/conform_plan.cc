#include "harness/conform_plan.h"

#include <optional>
#include <regex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "reference/enumerate.h"
#include "reference/ldmatrix_table.h"
#include "reference/tcgen05_ld_table.h"
#include "reference/wmma_load_table.h"

namespace matload {
namespace {

// AddPrograms adds the programs of one legal form to `plan`, one per
// address width, unless the form has no program on this target (it goes
// to not_run) or `filter` leaves it out.
void AddPrograms(const ConformanceOptions& options, const CheckedInstruction& instruction,
                 const std::optional<std::regex>& filter, ConformPlan& plan) {
  const bool shared_wmma =
      instruction.spec().family == Family::kWmmaLoad && instruction.signature().state_space == StateSpace::kShared;
  for (int address_bits : shared_wmma ? std::vector<int>{32, 64} : std::vector<int>{64}) {
    absl::StatusOr<std::unique_ptr<TestProgram>> program =
        TestProgram::For(instruction, {.shared_address_bits = address_bits, .bug = options.bug});
    if (!program.ok()) {
      if (!filter.has_value() || std::regex_search(Opcode(instruction), *filter)) {
        plan.not_run.push_back(std::string(program.status().message()));
      }
      continue;
    }
    if (filter.has_value() && !std::regex_search((*program)->Label(), *filter)) continue;
    plan.programs.push_back(*std::move(program));
  }
}

// NoteTensorMemory says what a target without Tensor Memory cannot run:
// tcgen05.ld's forms on the targets that have it.
void NoteTensorMemory(Target target, ConformPlan& plan) {
  if (!LegalQualifierSets(tcgen05::Spec(), NewestPtxVersion(), target).empty()) return;
  for (const char* name : {"sm_100a", "sm_103a", "sm_110a"}) {
    plan.tensor_memory_forms += LegalQualifierSets(tcgen05::Spec(), NewestPtxVersion(), *ParseTarget(name)).size();
  }
  plan.not_run.push_back(absl::StrCat(
      "tcgen05.ld: ", plan.tensor_memory_forms, " legal forms on sm_100a/sm_103a/sm_110a need Tensor Memory, which ",
      target.Name(), " lacks; their kernels are compile-checked (tcgen05_kernel_test)"));
}

}  // namespace

absl::StatusOr<ConformPlan> PlanConformance(const ConformanceOptions& options, Target target) {
  const std::optional<std::regex> filter =
      options.forms.empty() ? std::nullopt : std::optional<std::regex>(std::regex(options.forms));
  const PtxVersion ptx = NewestPtxVersion();
  ConformPlan plan;
  for (const FamilySpec* spec : {&ldmatrix::Spec(), &wmma::Spec(), &tcgen05::Spec()}) {
    for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(*spec, qualifiers, ptx, target);
      if (!instruction.has_value()) return absl::InternalError("a legal qualifier set failed its standard form");
      AddPrograms(options, *instruction, filter, plan);
    }
  }
  if (plan.programs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no form matches --forms '", options.forms, "'"));
  }
  NoteTensorMemory(target, plan);
  return plan;
}

}  // namespace matload
