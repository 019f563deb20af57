#include "reference/families.h"

#include "reference/ldmatrix_table.h"
#include "reference/tcgen05_ld_table.h"
#include "reference/wmma_load_table.h"

namespace matload {

const std::vector<const FamilySpec*>& AllFamilies() {
  static const auto* const kFamilies =
      new std::vector<const FamilySpec*>{&wmma::Spec(), &ldmatrix::Spec(), &tcgen05::Spec()};
  return *kFamilies;
}

const FamilySpec& SpecOf(Family family) {
  for (const FamilySpec* spec : AllFamilies()) {
    if (spec->family == family) return *spec;
  }
  return *AllFamilies().front();
}

const FamilySpec* FindFamily(const std::vector<std::string>& opcode) {
  for (const FamilySpec* spec : AllFamilies()) {
    if (opcode.size() < spec->mnemonic.size()) continue;
    bool matches = true;
    for (size_t i = 0; i < spec->mnemonic.size(); ++i) matches = matches && opcode[i] == spec->mnemonic[i];
    if (matches) return spec;
  }
  return nullptr;
}

}  // namespace matload
