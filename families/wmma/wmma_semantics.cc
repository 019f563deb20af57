#include "families/wmma/wmma_semantics.h"

#include <bit>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/register_class.h"

namespace matload {
namespace {

// Gather copies every lane's fragment elements from `bytes` (the matrix's
// extent from p, lines `line_bits` apart) into `values`. Element x fills
// fragment bits x*bits up, low bits first. kBytes > 0 is a whole-byte width,
// a constant so that each copy compiles to one move into the little-endian
// words; kBytes == 0 is a sub-byte width (4 or 1 bits), whose elements sit
// at multiples of their width, so none straddles a byte.
template <int kBytes>
void Gather(const WmmaFragment& fragment, absl::Span<const std::uint8_t> bytes, std::uint64_t line_bits,
            LaneValues& values) {
  static_assert(std::endian::native == std::endian::little, "fragments are assembled as little-endian bytes");
  const int bits = kBytes > 0 ? 8 * kBytes : fragment.element_bits();
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    auto* const lane_bytes = reinterpret_cast<std::uint8_t*>(values.lane(lane).data());
    for (int x = 0; x < fragment.elements(); ++x) {
      const WmmaStoragePlace& place = fragment.Place(lane, x);
      const std::uint64_t at =
          static_cast<std::uint64_t>(place.line) * line_bits + static_cast<std::uint64_t>(place.within) * bits;
      if constexpr (kBytes > 0) {
        std::memcpy(lane_bytes + x * kBytes, bytes.data() + at / 8, kBytes);
      } else {
        const unsigned element = (bytes[at / 8] >> (at % 8)) & ((1u << bits) - 1);
        lane_bytes[x * bits / 8] |= static_cast<std::uint8_t>(element << (x * bits % 8));
      }
    }
  }
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
  fragment.places_.reserve(kWarpLanes * fragment.elements());
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int x = 0; x < fragment.elements(); ++x) {
      fragment.places_.push_back(WmmaStoragePlaceOf(qualifiers, fragment.Element(lane, x)));
    }
  }
  fragment.conditions_ = RuntimeConditions(instruction);
  return fragment;
}

WmmaBitSource WmmaFragment::Provenance(int lane, int reg, int bit) const {
  const int fragment_bit = reg * register_bits_ + bit;
  return WmmaBitSource{matrix_, Element(lane, fragment_bit / element_bits_), fragment_bit % element_bits_};
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
  switch (bits) {
    case 8:
      Gather<1>(fragment, bytes, line_bits, values);
      break;
    case 16:
      Gather<2>(fragment, bytes, line_bits, values);
      break;
    case 32:
      Gather<4>(fragment, bytes, line_bits, values);
      break;
    case 64:
      Gather<8>(fragment, bytes, line_bits, values);
      break;
    default:
      Gather<0>(fragment, bytes, line_bits, values);
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
