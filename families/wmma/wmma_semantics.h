// wmma.load semantics: the exact fragment of every lane, from memory, the
// address and the stride (PTX 9.0 9.7.14.4; docs/spec-decisions.md wmma.*).
//
// Two layers. The spec layer holds on every target: each fragment element
// is an element of the matrix, each matrix element appears equally often,
// and neither the storage layout, the stride nor the state space changes the
// fragment. The architecture layer says which element sits where; it comes
// from WmmaLayoutTable, which names its source, and is unknown elsewhere.
#ifndef MATLOAD_FAMILIES_WMMA_WMMA_SEMANTICS_H_
#define MATLOAD_FAMILIES_WMMA_WMMA_SEMANTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "families/wmma/wmma_layouts.h"
#include "reference/legality.h"
#include "reference/linear_layout.h"
#include "reference/load_plan.h"
#include "reference/memory_image.h"
#include "reference/outcome.h"
#include "reference/runtime_ub.h"

namespace matload {

// WmmaBitSource is the provenance of one destination bit: bit `bit` of
// element (row, col) of the matrix the form loads.
struct WmmaBitSource {
  wmma::Matrix matrix;
  MatrixCoord element;
  int bit = 0;
  friend bool operator==(const WmmaBitSource&, const WmmaBitSource&) = default;
};

// WmmaStoragePlace is where element (row, col) sits in storage, counted in
// elements from p: `line` leading-dimension lines (rows for .row, columns
// for .col, PTX 9.7.14.4.2) plus `within` elements along that line. Only
// `line` is scaled by the stride.
struct WmmaStoragePlace {
  std::int32_t line = 0;
  std::int32_t within = 0;
};

// WmmaCopy is one copy of a gather a run at a time: WmmaFragment's
// copy_bytes() bytes, from `line` lines plus `within_bits` bits past p
// (one run of elements side by side along that line, whatever the stride)
// to byte `to` of the warp's fragments, lane after lane.
struct WmmaCopy {
  std::int32_t to = 0;
  std::int32_t line = 0;
  std::int32_t within_bits = 0;
};

// WmmaStoragePlaceOf places element (row, col) of the form's matrix.
WmmaStoragePlace WmmaStoragePlaceOf(const QualifierSet& qualifiers, MatrixCoord element);

// WmmaFragment is the compiled layout of one checked wmma.load form: the
// copies that gather every lane's fragment from storage, and the form's
// run-time conditions, worked out once so that an execution is a gather.
class WmmaFragment {
 public:
  // For finds the form's layout on its target, or NotFound if none is known;
  // kInternal if the layout's runs of sub-byte elements are not whole bytes.
  static absl::StatusOr<WmmaFragment> For(const CheckedInstruction& instruction);

  int registers() const { return registers_; }
  int register_bits() const { return register_bits_; }
  int element_bits() const { return element_bits_; }
  // elements is how many matrix elements each lane's fragment holds.
  int elements() const { return registers_ * register_bits_ / element_bits_; }
  // rows and cols are the logical matrix's: A is MxK, B KxN, C MxN.
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  // Element is the matrix element that fragment element `element` of
  // `lane` holds. Element x sits in register x*element_bits/register_bits,
  // from bit (x*element_bits) % register_bits up.
  MatrixCoord Element(int lane, int element) const { return entry_->fragment.At(lane, element); }
  // Provenance says where bit `bit` of register `reg` of `lane` comes from.
  WmmaBitSource Provenance(int lane, int reg, int bit) const;
  // entry is the table row the layout comes from, with its source.
  const WmmaLayoutEntry& entry() const { return *entry_; }
  // copies gather the fragment a run of elements at a time, each
  // copy_bytes() long (1, 2, 4 or 8): the longest that every lane's runs,
  // side by side in storage, split into evenly.
  const std::vector<WmmaCopy>& copies() const { return copies_; }
  int copy_bytes() const { return copy_bytes_; }
  // conditions are the form's run-time conditions (RuntimeConditions).
  const std::vector<RuntimeCondition>& conditions() const { return conditions_; }

 private:
  const WmmaLayoutEntry* entry_ = nullptr;
  wmma::Matrix matrix_ = wmma::kA;
  int registers_ = 0;
  int register_bits_ = 32;
  int element_bits_ = 16;
  int rows_ = 0;
  int cols_ = 0;
  std::vector<WmmaCopy> copies_;
  int copy_bytes_ = 0;
  std::vector<RuntimeCondition> conditions_;
};

// WmmaLoadPlan is the fragment's copies as a plan a GPU can follow
// (reference/load_plan.h): each destination byte is a byte of line `line`,
// lines one stride of element_bits() apart from p.
LoadPlan WmmaLoadPlan(const WmmaFragment& fragment);

// WmmaOperands are a wmma.load's run-time operands: the address p and the
// stride in elements (nullopt when the form gives none: the default).
struct WmmaOperands {
  AddressValue address;
  std::optional<std::uint32_t> stride;
};

// ReadPackedBits reads `bits` (1 to 64) bits from `bytes` at bit offset
// `offset`, least significant first: sub-byte elements fill a byte from bit
// 0 up (docs/spec-decisions.md wmma.layout.*, [INFERRED] like every little-endian packing in PTX).
// Fragments in registers, as a kernel stores them, read the same way.
std::uint64_t ReadPackedBits(absl::Span<const std::uint8_t> bytes, std::uint64_t offset, int bits);

// WmmaMatrixDims is the logical matrix a qualifier set loads: {rows, cols}.
MatrixCoord WmmaMatrixDims(const QualifierSet& qualifiers);

// WmmaElementOffsetBits is where element (row, col) is stored, in bits from
// p: row-major rows or column-major columns are `stride` elements apart.
std::uint64_t WmmaElementOffsetBits(const QualifierSet& qualifiers, MatrixCoord element, std::uint32_t stride);

// WmmaExtentBytes is how many bytes from p a load with `stride` reads.
std::uint64_t WmmaExtentBytes(const QualifierSet& qualifiers, std::uint32_t stride);

// StoreWmmaMatrix writes a logical matrix (row-major `elements`, each in the
// low element-bits bits) into `bytes` at p = 0 as the form's layout and
// `stride` store it; `bytes` must hold WmmaExtentBytes. Bits between the
// elements are left as they are.
void StoreWmmaMatrix(const QualifierSet& qualifiers, std::uint32_t stride, absl::Span<const std::uint64_t> elements,
                     absl::Span<std::uint8_t> bytes);

// ExecuteWmmaLoad predicts one execution by a converged warp. A stride below
// the default, a misaligned p or stride, or an access outside .global and
// .shared is undefined (PTX 9.7.14.4.2, 9.7.14.4.3).
Outcome ExecuteWmmaLoad(const CheckedInstruction& instruction, const WmmaFragment& fragment,
                        const MemoryImage& memory, const WmmaOperands& operands);

// FragmentCoverageViolations checks the spec layer on any layout, modelled
// or measured: every element is inside the rows x cols matrix, and every
// matrix element appears equally often. It returns one line per violation.
std::vector<std::string> FragmentCoverageViolations(int rows, int cols, int elements_per_lane,
                                                    absl::FunctionRef<MatrixCoord(int lane, int element)> layout);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_WMMA_WMMA_SEMANTICS_H_
