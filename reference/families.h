// The registry of instruction families (families/families.def): the tables,
// found by family and by opcode.
#ifndef MATLOAD_REFERENCE_FAMILIES_H_
#define MATLOAD_REFERENCE_FAMILIES_H_

#include <string>
#include <vector>

#include "reference/family_spec.h"

namespace matload {

// Each family's table is <folder>::Spec(), in families/<folder>/.
#define MATLOAD_FAMILY(folder, enumerator, conform_rank) \
  namespace folder {                                     \
  const FamilySpec& Spec();                              \
  }
#include "families/families.def"
#undef MATLOAD_FAMILY

// AllFamilies lists the family tables, in the registry's order
// (families/families.def): wmma.load, ldmatrix, tcgen05.ld.
const std::vector<const FamilySpec*>& AllFamilies();

// SpecOf returns the table of `family`. A family without one aborts,
// naming it.
const FamilySpec& SpecOf(Family family);

// FamilyNamesText names every family, in AllFamilies() order, as messages
// list them: "wmma.load, ldmatrix or tcgen05.ld".
std::string FamilyNamesText();

// FindFamily returns the family whose mnemonic starts `opcode` (the opcode
// split at dots: {"wmma", "load", "a", ...}), or nullptr.
const FamilySpec* FindFamily(const std::vector<std::string>& opcode);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_FAMILIES_H_
