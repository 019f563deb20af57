// LinearLayout: where each fragment element of each lane comes from, as a
// map that is linear over GF(2) in the bits of (element, lane).
//
// Tensor-core fragment layouts are of this form (Triton's "linear layouts"
// rest on the same observation): the matrix row and column of element x of
// lane l are the XOR of one basis vector per set bit of x and of l. A basis
// vector of (0, 0) means that bit does not move the element, which is how a
// fragment holds duplicates. The form lets a layout measured on a GPU be
// fitted from 5 + log2(elements) probes and then checked exhaustively.
#ifndef MATLOAD_REFERENCE_LINEAR_LAYOUT_H_
#define MATLOAD_REFERENCE_LINEAR_LAYOUT_H_

#include <array>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace matload {

// MatrixCoord is one element of a matrix: its row and column.
struct MatrixCoord {
  int row = 0;
  int col = 0;
  friend bool operator==(const MatrixCoord&, const MatrixCoord&) = default;
};

// kWarpLaneBits is log2 of the warp size: lane ids have 5 bits.
inline constexpr int kWarpLaneBits = 5;

class LinearLayout {
 public:
  // The images of the element-index bits (element 1, 2, 4, ... of lane 0)
  // and of the lane bits (lane 1, 2, 4, 8, 16 at element 0).
  LinearLayout(std::vector<MatrixCoord> element_basis, std::array<MatrixCoord, kWarpLaneBits> lane_basis);

  // At is the matrix element that element `element` of lane `lane` holds.
  MatrixCoord At(int lane, int element) const;

  // elements is the number of elements each lane holds.
  int elements() const { return 1 << element_basis_.size(); }

  const std::vector<MatrixCoord>& element_basis() const { return element_basis_; }
  const std::array<MatrixCoord, kWarpLaneBits>& lane_basis() const { return lane_basis_; }

  // ToString spells the basis: "element (0,1) (8,0); lane (0,2) (0,4) (1,0) (2,0) (4,0)".
  std::string ToString() const;

  // Fit builds the layout that agrees with `measured` on the basis probes,
  // then checks every (lane, element) against it. A layout that is not
  // linear, or whose element 0 of lane 0 is not (0, 0), is an error naming
  // the first place it fails.
  static absl::StatusOr<LinearLayout> Fit(int elements, absl::FunctionRef<MatrixCoord(int lane, int element)> measured);

  friend bool operator==(const LinearLayout&, const LinearLayout&) = default;

 private:
  std::vector<MatrixCoord> element_basis_;
  std::array<MatrixCoord, kWarpLaneBits> lane_basis_;
};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_LINEAR_LAYOUT_H_
