// SiblingForms: the forms one qualifier away from a failing form that run
// the same variant (the same record): the load without its state space
// (a generic address to the same bytes), and the same load of fewer
// matrices (.x4 to .x2 to .x1). A sibling that fails the same way is a
// smaller reproducer; one that passes at the same addresses, with other
// SASS, says which lowering fails.
#ifndef MATLOAD_HARNESS_TRIAGE_SIBLING_FORMS_H_
#define MATLOAD_HARNESS_TRIAGE_SIBLING_FORMS_H_

#include <memory>
#include <string>
#include <vector>

#include "harness/families/test_program.h"

namespace matload {

// SiblingKind is how a sibling differs.
enum class SiblingKind : unsigned char {
  kGenericAddress,  // without .shared/.shared::cta/.global
  kFewerMatrices,   // a smaller .num
};

// SiblingForm is one sibling's program.
struct SiblingForm {
  SiblingKind kind;
  std::string change;  // "without .shared", ".x2 for .x4"
  std::unique_ptr<TestProgram> program;
};

// SiblingForms are `program`'s siblings that are legal on its target at its
// PTX version and read the same record.
std::vector<SiblingForm> SiblingForms(const TestProgram& program);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_SIBLING_FORMS_H_
