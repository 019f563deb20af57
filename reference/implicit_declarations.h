// ImplicitDeclarations: the registers a snippet without declarations is
// given, so that the model judges exactly the module a compiler is given
// (harness/compile/ptx_module.h BuildModule writes these declarations).
#ifndef MATLOAD_REFERENCE_IMPLICIT_DECLARATIONS_H_
#define MATLOAD_REFERENCE_IMPLICIT_DECLARATIONS_H_

#include <vector>

#include "reference/raw_instruction.h"

namespace matload {

// ImplicitDeclarations declares every register `instruction` names, with the
// type its first use needs: .pred for a guard, .b64 for the registers of a
// 64-bit fragment and for a memory address, .b32 for everything else (a
// Tensor Memory address included). A name used twice keeps its first type,
// so a guard predicate that is also a destination register is a .pred
// destination, which the model then rejects as ptxas does.
std::vector<Declaration> ImplicitDeclarations(const RawInstruction& instruction);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_IMPLICIT_DECLARATIONS_H_
