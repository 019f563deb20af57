// DeclarationIndex: a snippet's declarations by name, built once, so that
// judging thousands of instructions against one declaration list (the
// standard register file of the enumerator and the support sweep) neither
// copies it nor indexes it again for each.
#ifndef MATLOAD_REFERENCE_DECLARATION_INDEX_H_
#define MATLOAD_REFERENCE_DECLARATION_INDEX_H_

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// DeclarationIndex indexes `list` by name; the first declaration of a name
// counts, as in Snippet::FindDeclaration. `list` must outlive it.
class DeclarationIndex {
 public:
  explicit DeclarationIndex(const std::vector<Declaration>& list);

  // Find is the declaration of `name`, or nullptr.
  const Declaration* Find(absl::string_view name) const;
  // empty is true when the list declares nothing. Judge gives a snippet
  // without declarations implicit ones (implicit_declarations.h), so an
  // empty index there means the instruction names no register.
  bool empty() const { return by_name_.empty(); }

 private:
  absl::flat_hash_map<absl::string_view, const Declaration*> by_name_;
};

// StandardDeclarationIndex is the StandardRegisterFile (enumerate.h) indexed.
const DeclarationIndex& StandardDeclarationIndex();

// JudgedLegal is Judge(Snippet{declarations, instruction}, ptx,
// target).legal() (legality.h), of declarations indexed once; it is
// defined beside Judge, whose rules it applies.
bool JudgedLegal(const RawInstruction& instruction, const DeclarationIndex& declarations, PtxVersion ptx,
                 Target target);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_DECLARATION_INDEX_H_
