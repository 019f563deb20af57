// WmmaLayouts: which matrix element each lane's wmma.load fragment holds, per
// architecture (docs/spec-decisions.md wmma.layout.*, and measurements where it is silent).
//
// PTX leaves the fragment distribution unspecified and target dependent
// (9.7.14.4.1), so every entry here names where it comes from: a secondary
// source (wmma_extension, cross-checked with GPGPU-Sim) or a measurement on
// a named GPU. A form and target with no entry has no known layout; the
// model says so rather than guess.
#ifndef MATLOAD_FAMILIES_WMMA_WMMA_LAYOUTS_H_
#define MATLOAD_FAMILIES_WMMA_WMMA_LAYOUTS_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "families/wmma/wmma_load_table.h"
#include "reference/family_spec.h"
#include "reference/linear_layout.h"
#include "reference/spec_ref.h"
#include "reference/target.h"

namespace matload {

// WmmaLayoutEntry is one known layout: on each of `targets`, forms of
// `matrix`, `shape` and one of `types` (and of `layout`, where .row and .col
// give different fragments) hold `fragment`. Rows and columns are those of
// the logical matrix: A is MxK, B is KxN, C is MxN, whatever the storage.
struct WmmaLayoutEntry {
  std::vector<Target> targets;
  wmma::Matrix matrix;
  wmma::Shape shape;
  std::vector<wmma::Type> types;
  std::optional<wmma::Layout> layout;
  LinearLayout fragment;
  SpecRef source;
};

// WmmaLayoutTable lists every known layout.
const std::vector<WmmaLayoutEntry>& WmmaLayoutTable();

// FindWmmaLayout returns the entry for a wmma.load qualifier set on
// `target`, or NotFound naming what is unknown.
absl::StatusOr<const WmmaLayoutEntry*> FindWmmaLayout(const QualifierSet& qualifiers, Target target);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_WMMA_WMMA_LAYOUTS_H_
