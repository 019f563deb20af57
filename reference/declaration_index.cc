#include "reference/declaration_index.h"

#include "reference/enumerate.h"

namespace matload {

DeclarationIndex::DeclarationIndex(const std::vector<Declaration>& list) {
  for (const Declaration& declaration : list) by_name_.try_emplace(declaration.name, &declaration);
}

const Declaration* DeclarationIndex::Find(absl::string_view name) const {
  auto found = by_name_.find(name);
  return found == by_name_.end() ? nullptr : found->second;
}

const DeclarationIndex& StandardDeclarationIndex() {
  static const auto* const kIndex = new DeclarationIndex(StandardRegisterFile());
  return *kIndex;
}

}  // namespace matload
