// Prints the sweep kernel (TestProgram::SweepKernel) of the first legal
// sm_90 form at PTX 9.0 whose canonical spelling contains argv[1], judged
// on the device, 64-bit shared addresses. A tool of this report only
// (README.md says how it was built); exit 1 when no form matches.
#include <iostream>
#include <string>

#include "harness/families/family_runtime.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/printer.h"
#include "reference/target.h"

int main(int argc, char** argv) {
  using namespace matload;
  if (argc != 2) return 2;
  const std::string wanted = argv[1];
  const PtxVersion ptx{9, 0};
  const Target target = *ParseTarget("sm_90");
  for (const FamilyRuntime* family : AllFamilyRuntimes()) {
    const FamilySpec& spec = SpecOf(family->family());
    for (const QualifierSet& qualifiers : LegalQualifierSets(spec, ptx, target)) {
      const auto instruction = StandardInstruction(spec, qualifiers, ptx, target);
      if (!instruction || PrintForm(instruction->form()).find(wanted) == std::string::npos) continue;
      auto program = family->NewProgram(*instruction, {.shared_address_bits = 64, .judge_on_device = true});
      if (!program.ok()) continue;
      if (const auto sweep = (*program)->SweepKernel(); sweep.has_value()) {
        std::cout << *sweep;
        return 0;
      }
    }
  }
  return 1;
}
