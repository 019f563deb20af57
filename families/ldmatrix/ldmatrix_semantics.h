// ldmatrix semantics: the exact registers of every lane, and where each
// byte came from (PTX 9.0 9.7.14.5.15; docs/spec-decisions.md ldmatrix.infer.*).
//
// The layout is compiled into a table once per qualifier set: for every
// lane, register and byte, the matrix, row and column it holds. Execution
// is then a table walk, so the model never slows a GPU run.
#ifndef MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_SEMANTICS_H_
#define MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_SEMANTICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "reference/legality.h"
#include "reference/load_plan.h"
#include "reference/memory_image.h"
#include "reference/outcome.h"
#include "reference/runtime_ub.h"

namespace matload {

// LdmatrixElement is the provenance of one destination byte: byte `byte` of
// element (matrix, row, col) of the loaded (logical) matrix, which sits in
// the source row whose address lane `address_lane` gave.
struct LdmatrixElement {
  int matrix = 0;
  int row = 0;     // in the loaded matrix (after .trans)
  int col = 0;
  int byte = 0;    // byte within the element (0 or 1 for .b16)
  int address_lane = 0;
  int source_byte = 0;  // byte offset within that (decompressed) source row
  friend bool operator==(const LdmatrixElement&, const LdmatrixElement&) = default;
};

// LdmatrixLayout is the compiled layout of one qualifier set.
class LdmatrixLayout {
 public:
  // For builds the layout of a checked ldmatrix instruction.
  static LdmatrixLayout For(const CheckedInstruction& instruction);

  int registers() const { return registers_; }
  // At is the provenance of byte `byte` (0..3) of register `reg` of `lane`.
  const LdmatrixElement& At(int lane, int reg, int byte) const {
    return bytes_[(lane * registers_ + reg) * 4 + byte];
  }
  // decompression is the source format: 0 for none, 4 or 6 for .b4x16_p64 /
  // .b6x16_p32, and 4 for .s8.s4.
  int decompression() const { return decompression_; }
  // sign_extends says whether decompressed values are sign-extended (.s8.s4)
  // rather than zero-extended.
  bool sign_extends() const { return sign_extends_; }
  // source_row_bytes is how many bytes each row address reads: 16, or 8 for
  // .s8.s4's packed rows (ldmatrix.s4-packing).
  int source_row_bytes() const { return source_row_bytes_; }
  // address_lanes has bit i set when the form reads lane i's row address.
  std::uint32_t address_lanes() const { return address_lanes_; }
  // conditions are the form's run-time conditions (RuntimeConditions).
  const std::vector<RuntimeCondition>& conditions() const { return conditions_; }
  // SourceByte is where destination byte k (of all lanes' registers, lane
  // by lane) comes from: byte address_lane * 16 + source_byte of the rows
  // laid back to back. It is At() compiled for execution.
  std::uint16_t SourceByte(size_t k) const { return source_bytes_[k]; }

 private:
  int registers_ = 0;
  int decompression_ = 0;
  bool sign_extends_ = false;
  int source_row_bytes_ = 16;
  std::uint32_t address_lanes_ = 0;
  std::vector<RuntimeCondition> conditions_;
  std::vector<LdmatrixElement> bytes_;
  std::vector<std::uint16_t> source_bytes_;
};

// LdmatrixLoadPlan is the layout as a plan a GPU can follow
// (reference/load_plan.h): each destination byte is byte source_byte of the
// row lane address_lane gives. A form that decompresses its rows has none
// (nullopt): its bytes are not bytes of memory, and the host judges it.
std::optional<LoadPlan> LdmatrixLoadPlan(const LdmatrixLayout& layout);

// LoadedElementKey names one byte of the loaded (logical) matrix: matrix,
// row, column, and byte within the element.
using LoadedElementKey = std::tuple<int, int, int, int>;

// LoadedElementBytes reads every loaded byte of `values` (an execution of
// `layout`'s form) back into the matrix it loaded, by the layout's
// provenance: one entry per element byte.
std::map<LoadedElementKey, std::uint8_t> LoadedElementBytes(const LdmatrixLayout& layout, const LaneValues& values);

// RowExtension is how DecompressRow widens a value to its byte.
enum class RowExtension : unsigned char {
  kZero,  // .b8x16 formats: the value in the low bits (ldmatrix.infer.decompress-zero-extension)
  kSign,  // .s8.s4: "expanded to signed 8-bit values" (PTX 9.4 9.7.16.5.15)
};

// DecompressRow expands one source row of `bits`-bit elements (4 or 6,
// packed LSB first, padding after) into 16 bytes, one value each
// (ldmatrix.infer.decompress-padding, [INFERRED] bit order; for .s8.s4 the
// order is measured, ldmatrix.s4-packing).
std::array<std::uint8_t, 16> DecompressRow(absl::Span<const std::uint8_t> row, int bits, RowExtension extension);

// ExecuteLdmatrix predicts one execution from `memory` and one row address
// per lane: a .shared address, or a generic one where the form names no
// state space. A misaligned address, or one whose row is not wholly inside
// the shared window, makes it undefined (a generic address into .global
// too: PTX 9.7.14.5.15), as does an unused lane without a valid address on
// sm_75.
Outcome ExecuteLdmatrix(const CheckedInstruction& instruction, const LdmatrixLayout& layout,
                        const MemoryImage& memory, absl::Span<const AddressValue> row_addresses);

// LdmatrixAddressHazard is the hazard that makes a load with these row
// addresses undefined, or nullopt where ExecuteLdmatrix predicts registers.
// Definedness depends on the addresses alone, never on the data, so a
// generator checks its draws with this instead of a whole execution.
std::optional<Undefined> LdmatrixAddressHazard(const CheckedInstruction& instruction, const LdmatrixLayout& layout,
                                               const MemoryImage& memory,
                                               absl::Span<const AddressValue> row_addresses);

// LdmatrixAddresses are row addresses, one per lane, kept inline: making
// them allocates nothing.
using LdmatrixAddresses = absl::InlinedVector<AddressValue, kWarpLanes>;

// LdmatrixRowAddresses turns byte offsets into `memory`'s shared window, one
// per lane, into the addresses `instruction` takes: the offsets themselves
// for .shared, their generic addresses where it names no state space.
LdmatrixAddresses LdmatrixRowAddresses(const CheckedInstruction& instruction, const MemoryImage& memory,
                                       absl::Span<const std::uint64_t> offsets);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_LDMATRIX_LDMATRIX_SEMANTICS_H_
