#include "harness/conform/conform_plan.h"

#include <optional>
#include <regex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/families/family_runtime.h"
#include "reference/enumerate.h"
#include "reference/families.h"

namespace matload {
namespace {

// AddPrograms adds the programs of one legal form to `plan`, one per
// address width, unless the form has no program on this target (it goes
// to not_run) or `filter` leaves it out.
void AddPrograms(const ConformanceOptions& options, const CheckedInstruction& instruction,
                 const std::optional<std::regex>& filter, ConformPlan& plan) {
  for (int address_bits : RuntimeOf(instruction.spec().family).AddressWidths(instruction)) {
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

// NoteMissingHardware says what a target cannot run of a family that needs
// hardware it lacks (FamilyRuntime::NeededHardware): the family's legal
// forms on the arch-specific targets of the newest PTX ISA that have them.
void NoteMissingHardware(const FamilyRuntime& runtime, Target target, ConformPlan& plan) {
  const std::optional<HardwareNeed> need = runtime.NeededHardware();
  const FamilySpec& spec = SpecOf(runtime.family());
  const PtxVersion ptx = NewestPtxVersion();
  if (!need.has_value() || !LegalQualifierSets(spec, ptx, target).empty()) return;
  size_t forms = 0;
  std::vector<std::string> names;
  for (const TargetInfo& info : AllTargets()) {
    if (info.target.variant != TargetVariant::kArchSpecific || !TargetExistsIn(info.target, ptx)) continue;
    const size_t legal = LegalQualifierSets(spec, ptx, info.target).size();
    if (legal == 0) continue;
    forms += legal;
    names.push_back(info.target.Name());
  }
  const std::string family = spec.MnemonicText();
  plan.missing_hardware_forms[family] = forms;
  plan.not_run.push_back(absl::StrCat(family, ": ", forms, " legal forms on ", absl::StrJoin(names, "/"), " need ",
                                      need->hardware, ", which ", target.Name(),
                                      " lacks; their kernels are compile-checked (family_kernels_test)"));
}

}  // namespace

absl::StatusOr<ConformPlan> PlanConformance(const ConformanceOptions& options, Target target) {
  const std::optional<std::regex> filter =
      options.forms.empty() ? std::nullopt : std::optional<std::regex>(std::regex(options.forms));
  const PtxVersion ptx = NewestPtxVersion();
  ConformPlan plan;
  for (const FamilyRuntime* runtime : AllFamilyRuntimes()) {
    const FamilySpec& spec = SpecOf(runtime->family());
    for (const QualifierSet& qualifiers : LegalQualifierSets(spec, ptx, target)) {
      const std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, ptx, target);
      if (!instruction.has_value()) return absl::InternalError("a legal qualifier set failed its standard form");
      AddPrograms(options, *instruction, filter, plan);
    }
  }
  if (plan.programs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no form matches --forms '", options.forms, "'"));
  }
  for (const FamilyRuntime* runtime : AllFamilyRuntimes()) NoteMissingHardware(*runtime, target, plan);
  return plan;
}

}  // namespace matload
