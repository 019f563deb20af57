#include "harness/conform/conform_plan.h"

#include <algorithm>
#include <optional>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/families/family_runtime.h"
#include "harness/runs/forms_regex.h"
#include "reference/enumerate.h"
#include "reference/families.h"

namespace matload {
namespace {

// DeviceJudged is the form's kernel that judges on the GPU, where the run
// asks for it and the form has a plan; null otherwise.
std::unique_ptr<TestProgram> DeviceJudged(const ConformanceOptions& options, const CheckedInstruction& instruction,
                                          int address_bits) {
  if (options.judge != JudgePlace::kGpu) return nullptr;
  absl::StatusOr<std::unique_ptr<TestProgram>> program =
      TestProgram::For(instruction, {.shared_address_bits = address_bits, .bug = options.bug, .judge_on_device = true});
  if (!program.ok() || !(*program)->frame().judged_on_device) return nullptr;
  return *std::move(program);
}

// AddPrograms adds the programs of one legal form to `plan`, one per
// address width, run on `paths`, unless the form has no program on this
// target (it goes to not_run) or `filter` leaves it out. A bug planted in
// the device judge is not planted where the host judges.
void AddPrograms(const ConformanceOptions& options, const CheckedInstruction& instruction,
                 const std::vector<CompilePath>& paths, const std::optional<FormsRegex>& filter, ConformPlan& plan) {
  const PlantedBug host_bug = PlantedInTheDeviceJudge(options.bug) ? PlantedBug::kNone : options.bug;
  for (int address_bits : RuntimeOf(instruction.spec().family).AddressWidths(instruction)) {
    absl::StatusOr<std::unique_ptr<TestProgram>> program =
        TestProgram::For(instruction, {.shared_address_bits = address_bits, .bug = host_bug});
    if (!program.ok()) {
      if (!filter.has_value() || filter->Matches(Opcode(instruction))) {
        plan.not_run.push_back(std::string(program.status().message()));
      }
      continue;
    }
    if (filter.has_value() && !filter->Matches((*program)->Label())) continue;
    plan.programs.push_back({*std::move(program), DeviceJudged(options, instruction, address_bits), paths});
  }
}

// RunForms are the legal forms a run of `device` takes at `ptx`: every form
// of the baseline target, then each form of the other ConformTargets that
// the baseline lacks (keyed by opcode, so that no form runs twice).
std::vector<CheckedInstruction> RunForms(const FamilySpec& spec, Target device, PtxVersion ptx) {
  std::vector<CheckedInstruction> forms;
  std::set<std::string> opcodes;
  for (Target target : ConformTargets(device)) {
    if (!TargetExistsIn(target, ptx)) continue;
    for (const QualifierSet& qualifiers : LegalQualifierSets(spec, ptx, target)) {
      std::optional<CheckedInstruction> instruction = StandardInstruction(spec, qualifiers, ptx, target);
      if (instruction.has_value() && opcodes.insert(Opcode(*instruction)).second) forms.push_back(*instruction);
    }
  }
  return forms;
}

// NoteUnspokenForms says, for each path, which of the forms the newest PTX
// ISA version gives this GPU its compiler cannot declare.
void NoteUnspokenForms(Target device, const std::vector<PathDialect>& dialects, ConformPlan& plan) {
  for (const PathDialect& dialect : dialects) {
    if (dialect.ptx == NewestPtxVersion()) continue;
    for (const FamilySpec* spec : AllFamilies()) {
      std::set<std::string> spoken;
      for (const CheckedInstruction& form : RunForms(*spec, device, dialect.ptx)) spoken.insert(Opcode(form));
      std::vector<std::string> unspoken;
      for (const CheckedInstruction& form : RunForms(*spec, device, NewestPtxVersion())) {
        if (!spoken.contains(Opcode(form))) unspoken.push_back(Opcode(form));
      }
      if (unspoken.empty()) continue;
      plan.not_run.push_back(absl::StrCat(spec->MnemonicText(), ": ", unspoken.size(), " legal forms (",
                                          unspoken.front(), unspoken.size() > 1 ? ", ..." : "",
                                          ") need a PTX ISA version after ", dialect.ptx.ToString(), ", the newest ",
                                          dialect.compiler, " speaks, so ", CompilePathName(dialect.path),
                                          " does not run them; ptxas-cubin with a newer ptxas ($MATLOAD_PTXAS) does"));
    }
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

std::vector<Target> ConformTargets(Target device) {
  std::vector<Target> targets = {device};
  const Target arch_specific{device.sm, TargetVariant::kArchSpecific};
  if (device.variant == TargetVariant::kBaseline && FindTarget(arch_specific) != nullptr) {
    targets.push_back(arch_specific);
  }
  return targets;
}

absl::StatusOr<ConformPlan> PlanConformance(const ConformanceOptions& options, Target device,
                                            const std::vector<PathDialect>& dialects) {
  std::optional<FormsRegex> filter;
  if (!options.forms.empty()) {
    absl::StatusOr<FormsRegex> parsed = FormsRegex::Parse(options.forms);
    if (!parsed.ok()) return parsed.status();
    filter = *std::move(parsed);
  }
  // Paths of one dialect share its programs, in the order the paths were given.
  std::vector<std::pair<PtxVersion, std::vector<CompilePath>>> groups;
  for (const PathDialect& dialect : dialects) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == dialect.ptx; });
    if (group == groups.end()) group = groups.insert(groups.end(), {dialect.ptx, {}});
    group->second.push_back(dialect.path);
  }
  ConformPlan plan;
  for (const auto& [ptx, paths] : groups) {
    for (const FamilyRuntime* runtime : AllFamilyRuntimes()) {
      for (const CheckedInstruction& form : RunForms(SpecOf(runtime->family()), device, ptx)) {
        AddPrograms(options, form, paths, filter, plan);
      }
    }
  }
  if (plan.programs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no form matches --forms '", options.forms, "'"));
  }
  NoteUnspokenForms(device, dialects, plan);
  for (const FamilyRuntime* runtime : AllFamilyRuntimes()) NoteMissingHardware(*runtime, device, plan);
  return plan;
}

}  // namespace matload
