#include "families/ldmatrix/ldmatrix_semantics.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "reference/runtime_ub.h"

namespace matload {
namespace {

// kSharedOnly is where every ldmatrix row lives (PTX 9.7.14.5.15).
constexpr StateSpace kSharedOnly = StateSpace::kShared;

}  // namespace

LdmatrixLayout LdmatrixLayout::For(const CheckedInstruction& instruction) {
  const QualifierSet& q = instruction.form().qualifiers;
  const bool trans = q.Present(ldmatrix::kTrans);
  const int rows_per_matrix = ldmatrix::RowsPerMatrix(static_cast<ldmatrix::Shape>(q.Get(ldmatrix::kShape)));
  LdmatrixLayout layout;
  layout.registers_ = instruction.signature().destination_count;
  if (q.Present(ldmatrix::kSrcFmt)) layout.decompression_ = q.Has(ldmatrix::kSrcFmt, ldmatrix::kB4x16P64) ? 4 : 6;
  if (q.Present(ldmatrix::kCtype)) {
    layout.decompression_ = 4;
    layout.sign_extends_ = true;
    layout.source_row_bytes_ = ldmatrix::kS4RowBytes;
  }
  layout.address_lanes_ = LdmatrixAddressLanes(q);
  layout.conditions_ = RuntimeConditions(instruction);
  layout.bytes_.resize(kWarpLanes * layout.registers_ * 4);
  layout.source_bytes_.reserve(layout.bytes_.size());
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const int group = lane >> 2;  // the row a group of four lanes holds
    const int quad = lane & 3;    // the lane's place in its group
    for (int reg = 0; reg < layout.registers_; ++reg) {
      for (int byte = 0; byte < 4; ++byte) {
        LdmatrixElement e;
        switch (q.Get(ldmatrix::kShape)) {
          case ldmatrix::kM8n8: {
            // PTX Fig. 104: a group of four lanes holds one row, two 16-bit
            // elements per lane; register j holds matrix j.
            e.matrix = reg;
            e.row = group;
            e.col = 2 * quad + byte / 2;
            e.byte = byte % 2;
            // Without .trans the stored row is the loaded row; with .trans the
            // loaded row r, column c is stored row c, element r.
            const int stored_row = trans ? e.col : e.row;
            const int stored_col = trans ? e.row : e.col;
            e.address_lane = rows_per_matrix * e.matrix + stored_row;
            e.source_byte = 2 * stored_col + e.byte;
            break;
          }
          case ldmatrix::kM8n16:
            // PTX Fig. 106: each lane holds 4 consecutive 8-bit columns of a row.
            e.matrix = reg;
            e.row = group;
            e.col = 4 * quad + byte;
            e.address_lane = rows_per_matrix * e.matrix + e.row;
            e.source_byte = e.col;
            break;
          case ldmatrix::kM16n16:
            // [INFERRED from CuTe, ldmatrix.infer.m16n16-row-pairing] .trans is mandatory: matrix m
            // fills registers 2m and 2m+1; the loaded row r, column c is byte r
            // of the source row whose address lane 16m + c gave.
            e.matrix = reg / 2;
            e.row = group + 8 * (reg % 2);
            e.col = 4 * quad + byte;
            e.address_lane = rows_per_matrix * e.matrix + e.col;
            e.source_byte = e.row;
            break;
        }
        layout.bytes_[(lane * layout.registers_ + reg) * 4 + byte] = e;
        layout.source_bytes_.push_back(
            static_cast<std::uint16_t>(e.address_lane * ldmatrix::kRowBytes + e.source_byte));
      }
    }
  }
  return layout;
}

std::optional<LoadPlan> LdmatrixLoadPlan(const LdmatrixLayout& layout) {
  if (layout.decompression() != 0) return std::nullopt;
  LoadPlan plan{.lines = PlanLines::kLaneAddresses, .words_per_lane = layout.registers()};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < layout.registers(); ++reg) {
      for (int byte = 0; byte < 4; ++byte) {
        const LdmatrixElement& element = layout.At(lane, reg, byte);
        plan.bytes.push_back(
            {static_cast<std::uint16_t>(element.address_lane), static_cast<std::uint16_t>(element.source_byte)});
      }
    }
  }
  return plan;
}

std::map<LoadedElementKey, std::uint8_t> LoadedElementBytes(const LdmatrixLayout& layout, const LaneValues& values) {
  std::map<LoadedElementKey, std::uint8_t> bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < layout.registers(); ++reg) {
      for (int byte = 0; byte < 4; ++byte) {
        const LdmatrixElement& e = layout.At(lane, reg, byte);
        bytes[{e.matrix, e.row, e.col, e.byte}] = static_cast<std::uint8_t>(values.lane(lane)[reg] >> (8 * byte));
      }
    }
  }
  return bytes;
}

std::array<std::uint8_t, 16> DecompressRow(absl::Span<const std::uint8_t> row, int bits, RowExtension extension) {
  std::array<std::uint8_t, 16> out{};
  for (int element = 0; element < 16; ++element) {
    const int first_bit = element * bits;
    std::uint32_t window = 0;  // the (up to) two bytes holding the element
    for (int i = 0; i < 2 && first_bit / 8 + i < static_cast<int>(row.size()); ++i) {
      window |= static_cast<std::uint32_t>(row[first_bit / 8 + i]) << (8 * i);
    }
    std::uint32_t value = (window >> (first_bit % 8)) & ((1u << bits) - 1);
    if (extension == RowExtension::kSign && (value >> (bits - 1)) != 0) value |= ~((1u << bits) - 1);
    out[element] = static_cast<std::uint8_t>(value);
  }
  return out;
}

namespace {

// SourceRows are the bytes each used lane's row address names (16, or 8 for
// .s8.s4; empty for lanes the form does not read).
using SourceRows = std::array<absl::Span<const std::uint8_t>, kWarpLanes>;

// ResolveRows finds every row the load reads, or the hazard that makes it
// undefined: what ExecuteLdmatrix checks before it reads anything.
std::variant<SourceRows, Undefined> ResolveRows(const CheckedInstruction& instruction, const LdmatrixLayout& layout,
                                                const MemoryImage& memory,
                                                absl::Span<const AddressValue> row_addresses) {
  if (row_addresses.size() != kWarpLanes) {
    return Undefined{RuntimeHazard::kDivergentExecution,
                     absl::StrCat("ldmatrix needs all 32 lanes; ", row_addresses.size(), " gave addresses")};
  }
  const std::uint32_t used = layout.address_lanes();
  bool unused_lanes_matter = false;
  // Where a generic address may point: only .shared has rows.
  absl::Span<const StateSpace> readable = {&kSharedOnly, 1};
  for (const RuntimeCondition& condition : layout.conditions()) {
    unused_lanes_matter = unused_lanes_matter || condition.hazard == RuntimeHazard::kUnusedLaneAddress;
    if (condition.hazard == RuntimeHazard::kAddressOutsideSpace) readable = condition.allowed_spaces;
  }
  const AccessResolver resolver(memory, instruction.signature().state_space, readable);
  SourceRows source_rows;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const bool is_used = (used >> lane) & 1;
    if (!is_used && !unused_lanes_matter) continue;
    const AddressValue address = row_addresses[lane];
    const RuntimeHazard hazard = is_used ? RuntimeHazard::kMisalignedAddress : RuntimeHazard::kUnusedLaneAddress;
    if (address.value % ldmatrix::kRowBytes != 0) {
      return Undefined{hazard, absl::StrFormat("lane %d gives row address 0x%x, not a multiple of %d", lane,
                                               address.value, ldmatrix::kRowBytes)};
    }
    if (const std::optional<ResolvedAccess> access = resolver.Find(address, layout.source_row_bytes())) {
      if (is_used) source_rows[lane] = access->bytes;
      continue;
    }
    Undefined undefined = std::get<Undefined>(resolver.Resolve(address, layout.source_row_bytes()));
    if (!is_used) undefined.hazard = hazard;
    undefined.why = absl::StrCat("lane ", lane, ": ", undefined.why);
    return undefined;
  }
  return source_rows;
}

}  // namespace

std::optional<Undefined> LdmatrixAddressHazard(const CheckedInstruction& instruction, const LdmatrixLayout& layout,
                                               const MemoryImage& memory,
                                               absl::Span<const AddressValue> row_addresses) {
  std::variant<SourceRows, Undefined> rows = ResolveRows(instruction, layout, memory, row_addresses);
  if (auto* undefined = std::get_if<Undefined>(&rows)) return *std::move(undefined);
  return std::nullopt;
}

Outcome ExecuteLdmatrix(const CheckedInstruction& instruction, const LdmatrixLayout& layout,
                        const MemoryImage& memory, absl::Span<const AddressValue> row_addresses) {
  std::variant<SourceRows, Undefined> resolved = ResolveRows(instruction, layout, memory, row_addresses);
  if (auto* undefined = std::get_if<Undefined>(&resolved)) return *std::move(undefined);
  const SourceRows& source_rows = std::get<SourceRows>(resolved);
  const std::uint32_t used = layout.address_lanes();
  // The 16-byte rows, decompressed where the form says so.
  std::array<std::array<std::uint8_t, 16>, kWarpLanes> rows{};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (((used >> lane) & 1) == 0) continue;
    const absl::Span<const std::uint8_t> row = source_rows[lane];
    if (layout.decompression() != 0) {
      rows[lane] =
          DecompressRow(row, layout.decompression(), layout.sign_extends() ? RowExtension::kSign : RowExtension::kZero);
    } else {
      std::memcpy(rows[lane].data(), row.data(), ldmatrix::kRowBytes);
    }
  }
  // Destination byte k of the lane-major words is source byte
  // SourceByte(k) of the rows: a gather.
  static_assert(std::endian::native == std::endian::little, "registers are assembled as little-endian bytes");
  static_assert(sizeof(rows) == kWarpLanes * ldmatrix::kRowBytes, "rows are packed back to back");
  LaneValues values = LaneValues::Zeroed(layout.registers());
  auto* const bytes = reinterpret_cast<std::uint8_t*>(values.words.data());
  const std::uint8_t* const source = rows[0].data();
  for (size_t k = 0; k < values.words.size() * sizeof(std::uint32_t); ++k) bytes[k] = source[layout.SourceByte(k)];
  return values;
}

LdmatrixAddresses LdmatrixRowAddresses(const CheckedInstruction& instruction, const MemoryImage& memory,
                                       absl::Span<const std::uint64_t> offsets) {
  const std::uint64_t base =
      instruction.signature().state_space == StateSpace::kGeneric ? memory.shared_generic_base : 0;
  LdmatrixAddresses addresses(offsets.size());
  for (size_t lane = 0; lane < offsets.size(); ++lane) addresses[lane] = {base + offsets[lane]};
  return addresses;
}

}  // namespace matload
