#include "reference/linear_layout.h"

#include <bit>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

MatrixCoord Xor(MatrixCoord a, MatrixCoord b) { return {a.row ^ b.row, a.col ^ b.col}; }

std::string Spell(MatrixCoord coord) { return absl::StrCat("(", coord.row, ",", coord.col, ")"); }

}  // namespace

LinearLayout::LinearLayout(std::vector<MatrixCoord> element_basis, std::array<MatrixCoord, kWarpLaneBits> lane_basis)
    : element_basis_(std::move(element_basis)), lane_basis_(lane_basis) {}

MatrixCoord LinearLayout::At(int lane, int element) const {
  MatrixCoord coord;
  for (size_t bit = 0; bit < element_basis_.size(); ++bit) {
    if ((element >> bit) & 1) coord = Xor(coord, element_basis_[bit]);
  }
  for (int bit = 0; bit < kWarpLaneBits; ++bit) {
    if ((lane >> bit) & 1) coord = Xor(coord, lane_basis_[bit]);
  }
  return coord;
}

std::string LinearLayout::ToString() const {
  auto spell = [](std::string* out, MatrixCoord coord) { out->append(Spell(coord)); };
  return absl::StrCat("element ", absl::StrJoin(element_basis_, " ", spell), "; lane ",
                      absl::StrJoin(lane_basis_, " ", spell));
}

absl::StatusOr<LinearLayout> LinearLayout::Fit(int elements,
                                               absl::FunctionRef<MatrixCoord(int lane, int element)> measured) {
  if (elements <= 0 || !std::has_single_bit(static_cast<unsigned>(elements))) {
    return absl::InvalidArgumentError(absl::StrCat(elements, " elements per lane is not a power of two"));
  }
  if (measured(0, 0) != MatrixCoord{}) {
    return absl::FailedPreconditionError(
        absl::StrCat("not linear: lane 0 element 0 holds ", Spell(measured(0, 0)), ", not (0,0)"));
  }
  std::vector<MatrixCoord> element_basis;
  for (int bit = 1; bit < elements; bit <<= 1) element_basis.push_back(measured(0, bit));
  std::array<MatrixCoord, kWarpLaneBits> lane_basis;
  for (int bit = 0; bit < kWarpLaneBits; ++bit) lane_basis[bit] = measured(1 << bit, 0);
  LinearLayout layout(std::move(element_basis), lane_basis);
  for (int lane = 0; lane < (1 << kWarpLaneBits); ++lane) {
    for (int element = 0; element < elements; ++element) {
      if (layout.At(lane, element) != measured(lane, element)) {
        return absl::FailedPreconditionError(absl::StrCat("not linear: lane ", lane, " element ", element, " holds ",
                                                          Spell(measured(lane, element)), ", the basis gives ",
                                                          Spell(layout.At(lane, element))));
      }
    }
  }
  return layout;
}

}  // namespace matload
