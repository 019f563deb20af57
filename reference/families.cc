#include "reference/families.h"

#include <cstdlib>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {

const std::vector<const FamilySpec*>& AllFamilies() {
  static const auto* const kFamilies = new std::vector<const FamilySpec*>{
#define MATLOAD_FAMILY(folder, enumerator, conform_rank) &folder::Spec(),
#include "families/families.def"
#undef MATLOAD_FAMILY
  };
  return *kFamilies;
}

const FamilySpec& SpecOf(Family family) {
  for (const FamilySpec* spec : AllFamilies()) {
    if (spec->family == family) return *spec;
  }
  // A Family value without a table is a programming error no input can
  // cause; answering with another family's table would judge every form
  // of it by the wrong rules.
  std::cerr << "matload: no FamilySpec for family " << static_cast<int>(family) << " (families/families.def)\n";
  std::abort();
}

std::string FamilyNamesText() {
  std::vector<std::string> names;
  for (const FamilySpec* spec : AllFamilies()) names.push_back(spec->MnemonicText());
  const std::string last = names.back();
  names.pop_back();
  return names.empty() ? last : absl::StrCat(absl::StrJoin(names, ", "), " or ", last);
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
