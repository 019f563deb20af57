// The registry of instruction families: the three tables, found by opcode.
#ifndef MATLOAD_REFERENCE_FAMILIES_H_
#define MATLOAD_REFERENCE_FAMILIES_H_

#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "reference/family_spec.h"

namespace matload {

// AllFamilies lists the family tables: wmma.load, ldmatrix, tcgen05.ld.
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
