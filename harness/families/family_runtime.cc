#include "harness/families/family_runtime.h"

#include <cstdlib>
#include <iostream>

#include "harness/families/ldmatrix/ldmatrix_runtime.h"
#include "harness/families/tcgen05/tcgen05_runtime.h"
#include "harness/families/wmma/wmma_runtime.h"
#include "reference/families.h"

namespace matload {
namespace {

// Registered lists every family's descriptor, one line per family, in the
// order conform runs the families (ldmatrix first: results.tsv's lines and
// the bundles' numbers follow it).
const std::vector<const FamilyRuntime*>& Registered() {
  static const auto* const kRegistered =
      new std::vector<const FamilyRuntime*>{&LdmatrixRuntime(), &WmmaRuntime(), &Tcgen05Runtime()};
  return *kRegistered;
}

// Find is the registered descriptor of `family`, or nullptr.
const FamilyRuntime* Find(Family family) {
  for (const FamilyRuntime* runtime : Registered()) {
    if (runtime->family() == family) return runtime;
  }
  return nullptr;
}

// Unregistered aborts: a table without a run-time half is a build mistake
// that no input can cause, and carrying on would mis-run every form of it.
[[noreturn]] void Unregistered(Family family) {
  std::cerr << "matload: no FamilyRuntime for family " << static_cast<int>(family)
            << " (harness/families/family_runtime.cc)\n";
  std::abort();
}

}  // namespace

const std::vector<const FamilyRuntime*>& AllFamilyRuntimes() {
  static const bool kEveryTableHasOne = [] {
    for (const FamilySpec* spec : AllFamilies()) {
      if (Find(spec->family) == nullptr) Unregistered(spec->family);
    }
    return true;
  }();
  (void)kEveryTableHasOne;
  return Registered();
}

Variant VariantFor(const CheckedInstruction& instruction, const RuntimeInputs& runtime) {
  Variant variant{.index = 0,
                  .kind = "fuzz",
                  .pattern = runtime.pattern,
                  .stream = runtime.stream,
                  .placement = runtime.placement};
  switch (instruction.signature().state_space) {
    case StateSpace::kShared: variant.placement = DataPlacement::kShared; break;
    case StateSpace::kGlobal: variant.placement = DataPlacement::kGlobal; break;
    case StateSpace::kGeneric: break;
  }
  RuntimeOf(instruction.form().family).SetOperands(instruction, runtime, variant);
  return variant;
}

const FamilyRuntime& RuntimeOf(Family family) {
  const FamilyRuntime* runtime = Find(family);
  if (runtime == nullptr) Unregistered(family);
  return *runtime;
}

}  // namespace matload
