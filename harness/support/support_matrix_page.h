// SupportMatrixPage: a support sweep's matrix as a static, self-contained
// HTML page (support.html), rendered from harness/report/templates/
// support_matrix.mustache: qualifier sets (in natural order, .x2 < .x16 <
// .x128) down, targets across with their totals, a distinct colour for each
// cell state and a legend; each row and target anchored; cells and a last
// row per family that count the disagreements the plain spellings cannot
// show (near misses, operand styles); and every disagreement with its
// reproducer, to filter and search.
#ifndef MATLOAD_HARNESS_SUPPORT_SUPPORT_MATRIX_PAGE_H_
#define MATLOAD_HARNESS_SUPPORT_SUPPORT_MATRIX_PAGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/support/support_sweep.h"

namespace matload {

// MatrixPageContext is what the page says about how the sweep was made.
struct MatrixPageContext {
  std::string command;
  std::string date;
  std::string machine;
  std::string compiler_path;  // as shown: no home directory (harness/without_home.h)
  double seconds = 0;
  // reproducers[i] is the reproducer of sweep.disagreements[i], relative
  // to the page ("reproducers/<id>.ptx").
  std::vector<std::string> reproducers;
};

// SupportMatrixHtml renders `sweep` as the page. `registry` gives each
// explained disagreement its model rule, labelled with the rule's source
// where the PTX text does not state it (harness/judge/rule_provenance.h), and
// the toolchain's known misdiagnoses, listed in a section of their own.
absl::StatusOr<std::string> SupportMatrixHtml(const SupportSweep& sweep, const DiscrepancyRegistry& registry,
                                              const MatrixPageContext& context);

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_SUPPORT_MATRIX_PAGE_H_
