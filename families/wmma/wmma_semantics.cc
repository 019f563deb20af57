#include "families/wmma/wmma_semantics.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/register_class.h"

namespace matload {
namespace {

// Gather copies every lane's fragment elements from `bytes` (the matrix's
// extent from p, lines `line_bits` apart, each starting on a whole byte)
// into `values`, kCopyBytes bytes a copy (WmmaFragment::copies). The width
// is a constant, so that each copy compiles to one move. Element x fills
// fragment bits x*bits up, low bits first.
template <int kCopyBytes>
void Gather(const WmmaFragment& fragment, absl::Span<const std::uint8_t> bytes, std::uint64_t line_bits,
            LaneValues& values) {
  static_assert(std::endian::native == std::endian::little, "fragments are assembled as little-endian bytes");
  auto* const fragment_bytes = reinterpret_cast<std::uint8_t*>(values.words.data());
  for (const WmmaCopy& copy : fragment.copies()) {
    const std::uint64_t at = static_cast<std::uint64_t>(copy.line) * line_bits + copy.within_bits;
    std::memcpy(fragment_bytes + copy.to, bytes.data() + at / 8, kCopyBytes);
  }
}

// StorageRun is `count` consecutive fragment elements of `lane`, from
// `first_element` on, that lie one after another along one storage line
// from `place` on.
struct StorageRun {
  int lane = 0;
  int first_element = 0;
  int count = 0;
  WmmaStoragePlace place;
};

// StorageRuns groups a fragment's elements, stored as `qualifiers` say,
// into storage runs: element x joins x-1's run when it is the next element
// along the same line.
std::vector<StorageRun> StorageRuns(const WmmaFragment& fragment, const QualifierSet& qualifiers) {
  std::vector<StorageRun> runs;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int x = 0; x < fragment.elements(); ++x) {
      const WmmaStoragePlace place = WmmaStoragePlaceOf(qualifiers, fragment.Element(lane, x));
      if (!runs.empty()) {
        StorageRun& last = runs.back();
        if (last.lane == lane && last.place.line == place.line && last.place.within + last.count == place.within) {
          ++last.count;
          continue;
        }
      }
      runs.push_back({lane, x, 1, place});
    }
  }
  return runs;
}

// CopyPlan is a fragment's WmmaFragment::copies and copy_bytes.
struct CopyPlan {
  std::vector<WmmaCopy> copies;
  int copy_bytes = 0;
};

// PlanCopies splits the fragment's storage runs into copies of the longest
// width, a power of two up to 8 bytes, that divides every run, or plans
// none (copy_bytes 0) when some run does not start and end on whole bytes,
// in storage and in the fragment alike. No layout in the tables does
// (WmmaSpecLayerTest).
CopyPlan PlanCopies(const WmmaFragment& fragment, const QualifierSet& qualifiers, int lane_bytes) {
  const int bits = fragment.element_bits();
  const std::vector<StorageRun> runs = StorageRuns(fragment, qualifiers);
  CopyPlan plan{.copies = {}, .copy_bytes = 8};
  for (const StorageRun& run : runs) {
    if ((run.place.within * bits) % 8 != 0 || (run.first_element * bits) % 8 != 0) return {};
    while (plan.copy_bytes > 0 && (run.count * bits) % (8 * plan.copy_bytes) != 0) plan.copy_bytes /= 2;
  }
  if (plan.copy_bytes == 0) return {};
  const int elements_per_copy = 8 * plan.copy_bytes / bits;
  for (const StorageRun& run : runs) {
    for (int i = 0; i < run.count; i += elements_per_copy) {
      plan.copies.push_back({.to = run.lane * lane_bytes + (run.first_element + i) * bits / 8,
                             .line = run.place.line,
                             .within_bits = (run.place.within + i) * bits});
    }
  }
  return plan;
}

wmma::Type TypeOf(const QualifierSet& qualifiers) { return static_cast<wmma::Type>(qualifiers.Get(wmma::kType)); }

}  // namespace

std::uint64_t ReadPackedBits(absl::Span<const std::uint8_t> bytes, std::uint64_t offset, int bits) {
  std::uint64_t value = 0;
  for (int i = 0; i < bits; ++i) {
    const std::uint64_t at = offset + i;
    value |= static_cast<std::uint64_t>((bytes[at / 8] >> (at % 8)) & 1) << i;
  }
  return value;
}

MatrixCoord WmmaMatrixDims(const QualifierSet& qualifiers) {
  const wmma::Geometry geometry = wmma::ShapeGeometry(static_cast<wmma::Shape>(qualifiers.Get(wmma::kShape)));
  switch (qualifiers.Get(wmma::kMatrix)) {
    case wmma::kA:
      return {geometry.m, geometry.k};
    case wmma::kB:
      return {geometry.k, geometry.n};
    default:
      return {geometry.m, geometry.n};
  }
}

WmmaStoragePlace WmmaStoragePlaceOf(const QualifierSet& qualifiers, MatrixCoord element) {
  // PTX 9.7.14.4.2: the leading dimension is the row for .row and the column
  // for .col; consecutive leading-dimension instances are `stride` elements apart.
  if (qualifiers.Has(wmma::kLayout, wmma::kRow)) return {element.row, element.col};
  return {element.col, element.row};
}

std::uint64_t WmmaElementOffsetBits(const QualifierSet& qualifiers, MatrixCoord element, std::uint32_t stride) {
  const WmmaStoragePlace place = WmmaStoragePlaceOf(qualifiers, element);
  return (std::uint64_t{static_cast<std::uint32_t>(place.line)} * stride + static_cast<std::uint32_t>(place.within)) *
         wmma::ElementBits(TypeOf(qualifiers));
}

std::uint64_t WmmaExtentBytes(const QualifierSet& qualifiers, std::uint32_t stride) {
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  const MatrixCoord last{dims.row - 1, dims.col - 1};
  const std::uint64_t end_bits = WmmaElementOffsetBits(qualifiers, last, stride) + wmma::ElementBits(TypeOf(qualifiers));
  return (end_bits + 7) / 8;
}

void StoreWmmaMatrix(const QualifierSet& qualifiers, std::uint32_t stride, absl::Span<const std::uint64_t> elements,
                     absl::Span<std::uint8_t> bytes) {
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  const int bits = wmma::ElementBits(TypeOf(qualifiers));
  for (int row = 0; row < dims.row; ++row) {
    for (int col = 0; col < dims.col; ++col) {
      const std::uint64_t at = WmmaElementOffsetBits(qualifiers, {row, col}, stride);
      const std::uint64_t element = elements[row * dims.col + col];
      for (int i = 0; i < bits; ++i) {
        const std::uint64_t bit = at + i;
        const auto mask = static_cast<std::uint8_t>(1u << (bit % 8));
        bytes[bit / 8] = static_cast<std::uint8_t>(((element >> i) & 1) ? bytes[bit / 8] | mask : bytes[bit / 8] & ~mask);
      }
    }
  }
}

absl::StatusOr<WmmaFragment> WmmaFragment::For(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  absl::StatusOr<const WmmaLayoutEntry*> entry = FindWmmaLayout(qualifiers, instruction.target());
  if (!entry.ok()) return entry.status();
  WmmaFragment fragment;
  fragment.entry_ = *entry;
  fragment.matrix_ = static_cast<wmma::Matrix>(qualifiers.Get(wmma::kMatrix));
  fragment.registers_ = instruction.signature().destination_count;
  fragment.register_bits_ = RegisterClassBits(instruction.signature().destination_class);
  fragment.element_bits_ = wmma::ElementBits(TypeOf(qualifiers));
  const MatrixCoord dims = WmmaMatrixDims(qualifiers);
  fragment.rows_ = dims.row;
  fragment.cols_ = dims.col;
  if ((*entry)->fragment.elements() != fragment.elements()) {
    return absl::InternalError(absl::StrCat("layout ", (*entry)->source.id, " has ", (*entry)->fragment.elements(),
                                            " elements per lane; the form's fragment holds ", fragment.elements()));
  }
  CopyPlan plan = PlanCopies(fragment, qualifiers, fragment.registers_ * fragment.register_bits_ / 8);
  if (plan.copy_bytes == 0) {
    return absl::InternalError(absl::StrCat("layout ", (*entry)->source.id,
                                            " puts sub-byte elements in runs that are not whole bytes, which the "
                                            "gather cannot copy"));
  }
  fragment.copies_ = std::move(plan.copies);
  fragment.copy_bytes_ = plan.copy_bytes;
  fragment.conditions_ = RuntimeConditions(instruction);
  return fragment;
}

WmmaBitSource WmmaFragment::Provenance(int lane, int reg, int bit) const {
  const int fragment_bit = reg * register_bits_ + bit;
  return WmmaBitSource{matrix_, Element(lane, fragment_bit / element_bits_), fragment_bit % element_bits_};
}

LoadPlan WmmaLoadPlan(const WmmaFragment& fragment) {
  LoadPlan plan{.lines = PlanLines::kStrided,
                .line_stride_bits = fragment.element_bits(),
                .words_per_lane = fragment.registers() * fragment.register_bits() / 32};
  plan.bytes.resize(static_cast<size_t>(kWarpLanes) * plan.words_per_lane * 4);
  for (const WmmaCopy& copy : fragment.copies()) {
    for (int byte = 0; byte < fragment.copy_bytes(); ++byte) {
      plan.bytes[copy.to + byte] = {static_cast<std::uint16_t>(copy.line),
                                    static_cast<std::uint16_t>(copy.within_bits / 8 + byte)};
    }
  }
  return plan;
}

Outcome ExecuteWmmaLoad(const CheckedInstruction& instruction, const WmmaFragment& fragment,
                        const MemoryImage& memory, const WmmaOperands& operands) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const std::uint32_t stride = operands.stride.value_or(WmmaDefaultStride(qualifiers));
  // Where p may point: the generic-address rule's spaces, or else the space
  // the form names.
  const StateSpace named = instruction.signature().state_space;
  absl::Span<const StateSpace> readable = {&named, 1};
  // Each runtime rule of the wmma.load table, with the numbers RuntimeConditions derives for it.
  for (const RuntimeCondition& condition : fragment.conditions()) {
    switch (condition.hazard) {
      case RuntimeHazard::kStrideBelowDefault:
        if (stride < static_cast<std::uint32_t>(*condition.default_stride_elements)) {
          return Undefined{condition.hazard, absl::StrCat("stride ", stride, " is below the default ",
                                                          *condition.default_stride_elements)};
        }
        break;
      case RuntimeHazard::kMisalignedAddress:
        if (operands.address.value % *condition.alignment_bytes != 0) {
          return Undefined{condition.hazard, absl::StrFormat("p = 0x%x is not a multiple of the %d-byte fragment",
                                                             operands.address.value, *condition.alignment_bytes)};
        }
        break;
      case RuntimeHazard::kMisalignedStride: {
        // Every row or column must start fragment-aligned (PTX 9.7.14.4.2).
        // The default stride is exempt: the spec's own defaults break the
        // rule for several forms (reports/spec-errata.md E6), and the H100
        // loads them (reports/gpu-checks), so the rule cannot mean them.
        const std::uint64_t stride_bits = std::uint64_t{stride} * *condition.element_bits;
        const bool is_default = stride == static_cast<std::uint32_t>(*condition.default_stride_elements);
        if (!is_default && stride_bits % (8ull * *condition.alignment_bytes) != 0) {
          return Undefined{condition.hazard,
                           absl::StrCat("stride ", stride, " puts rows ", stride_bits / 8.0,
                                        " bytes apart, not a multiple of the ", *condition.alignment_bytes,
                                        "-byte fragment")};
        }
        break;
      }
      case RuntimeHazard::kAddressOutsideSpace:
        readable = condition.allowed_spaces;
        break;
      default:  // not a property of one warp's operands
        break;
    }
  }
  auto access = ResolveAccess(memory, named, operands.address, WmmaExtentBytes(qualifiers, stride), readable);
  if (const auto* undefined = std::get_if<Undefined>(&access)) return *undefined;
  const absl::Span<const std::uint8_t> bytes = std::get<ResolvedAccess>(access).bytes;

  const int words_per_register = fragment.register_bits() / 32;
  LaneValues values = LaneValues::Zeroed(fragment.registers() * words_per_register, fragment.register_bits());
  const int bits = fragment.element_bits();
  const std::uint64_t line_bits = std::uint64_t{stride} * bits;
  // Every line starts on a whole byte: a sub-byte form's default stride is
  // whole bytes, and any other stride must be fragment-aligned
  // (WmmaSemanticsTest.EveryStrideTheModelTakesStartsLinesOnWholeBytes).
  switch (fragment.copy_bytes()) {
    case 1: Gather<1>(fragment, bytes, line_bits, values); break;
    case 2: Gather<2>(fragment, bytes, line_bits, values); break;
    case 4: Gather<4>(fragment, bytes, line_bits, values); break;
    default:  // 8: For plans no other width
      Gather<8>(fragment, bytes, line_bits, values);
      break;
  }
  return values;
}

std::vector<std::string> FragmentCoverageViolations(int rows, int cols, int elements_per_lane,
                                                    absl::FunctionRef<MatrixCoord(int lane, int element)> layout) {
  std::vector<std::string> violations;
  std::vector<int> count(rows * cols, 0);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int x = 0; x < elements_per_lane; ++x) {
      const MatrixCoord at = layout(lane, x);
      if (at.row < 0 || at.row >= rows || at.col < 0 || at.col >= cols) {
        violations.push_back(absl::StrCat("lane ", lane, " element ", x, " holds (", at.row, ",", at.col,
                                          "), outside the ", rows, "x", cols, " matrix"));
        continue;
      }
      ++count[at.row * cols + at.col];
    }
  }
  const int slots = kWarpLanes * elements_per_lane;
  if (slots % (rows * cols) != 0) {
    violations.push_back(absl::StrCat(slots, " fragment slots cannot hold the ", rows * cols, " elements equally often"));
    return violations;
  }
  const int multiplicity = slots / (rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    if (count[i] != multiplicity) {
      violations.push_back(absl::StrCat("element (", i / cols, ",", i % cols, ") appears ", count[i],
                                        " times, not ", multiplicity));
    }
  }
  return violations;
}

}  // namespace matload
