#include "harness/families/family_runtime.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "reference/families.h"

namespace matload {
namespace {

// Registered lists every family's descriptor (families/families.def), in
// the order conform runs the families: by conform_rank, so ldmatrix first
// (results.tsv's lines and the bundles' numbers follow it).
const std::vector<const FamilyRuntime*>& Registered() {
  static const auto* const kRegistered = [] {
    std::vector<std::pair<int, const FamilyRuntime*>> ranked = {
#define MATLOAD_FAMILY(folder, enumerator, conform_rank) {conform_rank, &folder::Runtime()},
#include "families/families.def"
#undef MATLOAD_FAMILY
    };
    std::sort(ranked.begin(), ranked.end());
    auto* runtimes = new std::vector<const FamilyRuntime*>;
    for (const auto& [rank, runtime] : ranked) runtimes->push_back(runtime);
    return runtimes;
  }();
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
  std::cerr << "matload: no FamilyRuntime for family " << static_cast<int>(family) << " (families/families.def)\n";
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
