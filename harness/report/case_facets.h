// CaseFacets: what the reports filter a case by, read from its case ID
// (docs/case-ids.md): the target, the family, the shape, the element type
// and the compile path; and NaturalLess, the order the reports list IDs and qualifier sets
// in, so that .x2 < .x16 < .x128.
#ifndef MATLOAD_HARNESS_REPORT_CASE_FACETS_H_
#define MATLOAD_HARNESS_REPORT_CASE_FACETS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// CaseFacets are a case ID's filterable parts; a part the ID lacks is empty.
struct CaseFacets {
  std::string target;  // "sm_90": a support case's first token, or second after its toolkit
  std::string family;  // "ldmatrix", "wmma_load", "tcgen05_ld", or a fuzz target ("fuzz.text" -> "text")
  std::string shape;   // "m8n8", "m16n16k16", "32x32b"
  std::string type;    // "b16", "f16", "b8x16_b6x16_p32", ...
  std::string path;    // a conform case's compile path: "driver_jit", "ptxas_cubin", "nvjitlink_cubin", "jit_compile"
};

// FacetsOf reads `id`'s facets.
CaseFacets FacetsOf(absl::string_view id);

// NaturalLess orders texts as a person counts: runs of digits compare as
// numbers ("x2" < "x16" < "x128"), everything else byte by byte.
bool NaturalLess(absl::string_view a, absl::string_view b);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_CASE_FACETS_H_
