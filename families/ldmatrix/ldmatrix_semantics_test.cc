#include "families/ldmatrix/ldmatrix_semantics.h"

#include <map>
#include <numeric>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "families/ldmatrix/ldmatrix_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/printer.h"
#include "reference/runtime_ub.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::JudgeAt;

CheckedInstruction Check(absl::string_view text, absl::string_view target = "sm_100a", absl::string_view ptx = "9.0") {
  Verdict verdict = JudgeAt(text, target, ptx);
  EXPECT_TRUE(verdict.legal()) << text;
  return *verdict.checked();
}

// Iota16 is a shared window whose 16-bit word at byte 2k holds k.
std::vector<std::uint8_t> Iota16(size_t bytes) {
  std::vector<std::uint8_t> window(bytes);
  for (size_t k = 0; k < bytes / 2; ++k) {
    window[2 * k] = static_cast<std::uint8_t>(k);
    window[2 * k + 1] = static_cast<std::uint8_t>(k >> 8);
  }
  return window;
}

std::vector<std::uint64_t> ContiguousRows() {
  std::vector<std::uint64_t> addresses(32);
  for (int lane = 0; lane < 32; ++lane) addresses[lane] = 16 * lane;
  return addresses;
}

std::uint32_t Pair16(std::uint32_t low, std::uint32_t high) { return low | high << 16; }

// LoadRows executes `form` with `shared` as the shared window and a row at
// each lane's byte offset into it, addressed as the form addresses it.
Outcome LoadRows(const CheckedInstruction& form, const std::vector<std::uint8_t>& shared,
                 absl::Span<const std::uint64_t> offsets) {
  MemoryImage memory;
  memory.shared = shared;
  return ExecuteLdmatrix(form, LdmatrixLayout::For(form), memory, LdmatrixRowAddresses(form, memory, offsets));
}

// ValuesOf returns the lane values of an outcome that must have them; an
// undefined outcome fails the test and gives 32 lanes of nothing.
LaneValues ValuesOf(const Outcome& outcome) {
  if (const auto* values = std::get_if<LaneValues>(&outcome)) return *values;
  ADD_FAILURE() << "undefined: " << std::get<Undefined>(outcome).why;
  return LaneValues::Zeroed(4);
}

// PTX Fig. 104, copied by hand: lane t holds row t/4, columns 2(t%4) and
// 2(t%4)+1 of each 8x8 matrix; with iota16 data and contiguous rows,
// element (matrix j, row r, col c) is 8 * (8j + r) + c.
TEST(LdmatrixSemanticsTest, Figure104WithoutTrans) {
  CheckedInstruction x4 = Check("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];");
  const LaneValues values = ValuesOf(LoadRows(x4, Iota16(512), ContiguousRows()));
  EXPECT_EQ(values.lane(0)[0], Pair16(0, 1));
  EXPECT_EQ(values.lane(5)[0], Pair16(10, 11));
  EXPECT_EQ(values.lane(31)[0], Pair16(62, 63));
  EXPECT_EQ(values.lane(0)[1], Pair16(64, 65)) << "register 1 holds the second matrix";
  EXPECT_EQ(values.lane(31)[3], Pair16(254, 255));
}

// With .trans lane t holds row t/4, columns 2(t%4), 2(t%4)+1 of the
// transpose: stored elements M[2(t%4)][t/4] and M[2(t%4)+1][t/4].
TEST(LdmatrixSemanticsTest, TransposedLoad) {
  CheckedInstruction x1 = Check("ldmatrix.sync.aligned.m8n8.x1.trans.b16 {a}, [p];");
  const LaneValues values = ValuesOf(LoadRows(x1, Iota16(512), ContiguousRows()));
  EXPECT_EQ(values.lane(0)[0], Pair16(0, 8));
  EXPECT_EQ(values.lane(5)[0], Pair16(17, 25));
  EXPECT_EQ(values.lane(31)[0], Pair16(55, 63));
}

// LoadedElementBytes reads registers back into the loaded matrix: with
// iota16 data and contiguous rows, element (0, r, c) of an .x1 load is
// 8r + c, low byte first (PTX Fig. 104).
TEST(LdmatrixSemanticsTest, LoadedElementBytesReadTheMatrixBack) {
  CheckedInstruction x1 = Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];");
  const auto bytes = LoadedElementBytes(LdmatrixLayout::For(x1), ValuesOf(LoadRows(x1, Iota16(512), ContiguousRows())));
  EXPECT_EQ(bytes.size(), 8u * 8u * 2u);
  EXPECT_EQ(bytes.at({0, 2, 3, 0}), 8 * 2 + 3);
  EXPECT_EQ(bytes.at({0, 7, 7, 0}), 63);
  EXPECT_EQ(bytes.at({0, 7, 7, 1}), 0);
}

// .trans of M gives what a plain load of M's transpose gives.
TEST(LdmatrixSemanticsTest, TransIsTheTranspose) {
  CheckedInstruction plain = Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];");
  CheckedInstruction trans = Check("ldmatrix.sync.aligned.m8n8.x1.trans.b16 {a}, [p];");
  std::vector<std::uint8_t> m = Iota16(512);
  std::vector<std::uint8_t> transposed(512);
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 8; ++c) {
      for (int b = 0; b < 2; ++b) transposed[16 * c + 2 * r + b] = m[16 * r + 2 * c + b];
    }
  }
  EXPECT_EQ(ValuesOf(LoadRows(trans, m, ContiguousRows())),
            ValuesOf(LoadRows(plain, transposed, ContiguousRows())));
}

TEST(LdmatrixSemanticsTest, RowsNeedNotBeContiguous) {
  CheckedInstruction x1 = Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];");
  std::vector<std::uint64_t> reversed(32);
  for (int lane = 0; lane < 32; ++lane) reversed[lane] = 16 * (7 - lane % 8) + 256;  // rows 7..0 of a later tile
  const LaneValues values = ValuesOf(LoadRows(x1, Iota16(512), reversed));
  EXPECT_EQ(values.lane(0)[0], Pair16(128 + 56, 128 + 57)) << "row 0 is the tile's row 7";
}

// For every legal ldmatrix form: each byte of each loaded matrix lands in
// exactly one (lane, register, byte), and each lane reads a row whose
// address the spec says that lane gives.
TEST(LdmatrixSemanticsTest, EveryLegalFormCoversEachElementOnce) {
  for (const Form& form : LegalForms({9, 0}, *ParseTarget("sm_100a"))) {
    if (form.family != Family::kLdmatrix) continue;
    CheckedInstruction instruction =
        *Judge(Snippet{StandardRegisterFile(), ToRaw(form)}, {9, 0}, *ParseTarget("sm_100a")).checked();
    LdmatrixLayout layout = LdmatrixLayout::For(instruction);
    std::map<std::tuple<int, int, int, int>, int> seen;
    for (int lane = 0; lane < 32; ++lane) {
      for (int reg = 0; reg < layout.registers(); ++reg) {
        for (int byte = 0; byte < 4; ++byte) {
          const LdmatrixElement& e = layout.At(lane, reg, byte);
          ++seen[{e.matrix, e.row, e.col, e.byte}];
          EXPECT_TRUE((LdmatrixAddressLanes(form.qualifiers) >> e.address_lane) & 1) << PrintForm(form);
        }
      }
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(32 * layout.registers() * 4)) << PrintForm(form);
    for (const auto& [element, count] : seen) ASSERT_EQ(count, 1) << PrintForm(form);
  }
}

// RandomWindow is a 512-byte shared window of random bytes: 32 contiguous
// rows, one per lane.
std::vector<std::uint8_t> RandomWindow(std::mt19937& random) {
  std::vector<std::uint8_t> window(512);
  for (std::uint8_t& byte : window) byte = static_cast<std::uint8_t>(random());
  return window;
}

// Over every legal form, on random data: element (m, r, c) of the loaded
// matrix is element (r, c) of stored matrix m, or (c, r) with .trans, where
// row i of stored matrix m is the row whose address lane 8m+i (16m+i for
// .m16n16) gave, decompressed where the form says so.
TEST(LdmatrixSemanticsTest, EveryFormLoadsItsRowsOrTheirTranspose) {
  const Target target = *ParseTarget("sm_100a");
  std::mt19937 random(11);
  int transposed = 0;
  int sign_extended = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), NewestPtxVersion(), target)) {
    const std::optional<CheckedInstruction> form =
        StandardInstruction(ldmatrix::Spec(), qualifiers, NewestPtxVersion(), target);
    ASSERT_TRUE(form.has_value());
    const bool trans = qualifiers.Present(ldmatrix::kTrans);
    transposed += trans ? 1 : 0;
    const int element_bytes = qualifiers.Has(ldmatrix::kType, ldmatrix::kB16) ? 2 : 1;
    const int rows_per_matrix = ldmatrix::RowsPerMatrix(static_cast<ldmatrix::Shape>(qualifiers.Get(ldmatrix::kShape)));
    const LdmatrixLayout layout = LdmatrixLayout::For(*form);
    const std::vector<std::uint8_t> window = RandomWindow(random);
    const LaneValues values = ValuesOf(LoadRows(*form, window, ContiguousRows()));
    for (const auto& [element, byte] : LoadedElementBytes(layout, values)) {
      const auto [matrix, row, col, part] = element;
      const int stored_row = trans ? col : row;
      const int stored_col = trans ? row : col;
      const int lane = rows_per_matrix * matrix + stored_row;  // ContiguousRows: lane L's row is at 16 L
      // An .s8.s4 row is the first 8 bytes of its 16-byte slot.
      const absl::Span<const std::uint8_t> source =
          absl::MakeConstSpan(window).subspan(16 * lane, layout.source_row_bytes());
      const RowExtension extension = layout.sign_extends() ? RowExtension::kSign : RowExtension::kZero;
      sign_extended += layout.sign_extends() ? 1 : 0;
      const std::array<std::uint8_t, 16> bytes =
          layout.decompression() != 0 ? DecompressRow(source, layout.decompression(), extension) : [&] {
            std::array<std::uint8_t, 16> copy;
            std::copy(source.begin(), source.end(), copy.begin());
            return copy;
          }();
      ASSERT_EQ(byte, bytes[element_bytes * stored_col + part])
          << PrintForm(form->form()) << ": (" << matrix << "," << row << "," << col << ") byte " << part;
    }
  }
  EXPECT_GT(transposed, 0);
  EXPECT_GT(sign_extended, 0) << "the .s8.s4 forms were checked";
}

// Over every legal form, on random data and the same addresses: a smaller
// .num loads the first registers of a larger one (.x1, .x2, .x4 are
// prefixes of each other).
TEST(LdmatrixSemanticsTest, EverySmallerNumIsAPrefix) {
  const Target target = *ParseTarget("sm_100a");
  std::mt19937 random(13);
  int checked = 0;
  for (const QualifierSet& qualifiers : LegalQualifierSets(ldmatrix::Spec(), {9, 0}, target)) {
    const std::optional<CheckedInstruction> larger = StandardInstruction(ldmatrix::Spec(), qualifiers, {9, 0}, target);
    ASSERT_TRUE(larger.has_value());
    for (int num = 0; num < qualifiers.Get(ldmatrix::kNum); ++num) {
      QualifierSet smaller_qualifiers = qualifiers;
      smaller_qualifiers.Set(ldmatrix::kNum, num);
      const std::optional<CheckedInstruction> smaller =
          StandardInstruction(ldmatrix::Spec(), smaller_qualifiers, {9, 0}, target);
      if (!smaller.has_value()) continue;
      ++checked;
      const std::vector<std::uint8_t> window = RandomWindow(random);
      const LaneValues small = ValuesOf(LoadRows(*smaller, window, ContiguousRows()));
      const LaneValues large = ValuesOf(LoadRows(*larger, window, ContiguousRows()));
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        ASSERT_TRUE(std::equal(small.lane(lane).begin(), small.lane(lane).end(), large.lane(lane).begin()))
            << PrintForm(smaller->form()) << " vs " << PrintForm(larger->form()) << ", lane " << lane;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(LdmatrixSemanticsTest, UndefinedAddresses) {
  CheckedInstruction x4 = Check("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];");
  std::vector<std::uint64_t> addresses = ContiguousRows();
  addresses[9] = 8;
  Outcome misaligned = LoadRows(x4, Iota16(512), addresses);
  ASSERT_TRUE(std::holds_alternative<Undefined>(misaligned));
  EXPECT_EQ(std::get<Undefined>(misaligned).hazard, RuntimeHazard::kMisalignedAddress);
  addresses[9] = 512;
  Outcome outside = LoadRows(x4, Iota16(512), addresses);
  ASSERT_TRUE(std::holds_alternative<Undefined>(outside));
  EXPECT_EQ(std::get<Undefined>(outside).hazard, RuntimeHazard::kAddressOutsideSpace);
}

// Without a state space the rows are generic addresses, which must fall in
// the shared window (PTX 9.7.14.5.15): the same rows load the same values,
// and a generic address into .global is undefined even where bytes exist.
TEST(LdmatrixSemanticsTest, GenericRowAddressesMustBeShared) {
  CheckedInstruction generic = Check("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];");
  CheckedInstruction named = Check("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {a, b, c, d}, [p];");
  MemoryImage memory;
  memory.shared = Iota16(512);
  memory.global = Iota16(512);
  LdmatrixAddresses rows = LdmatrixRowAddresses(generic, memory, ContiguousRows());
  EXPECT_EQ(rows[1].value, memory.shared_generic_base + 16);
  EXPECT_EQ(ValuesOf(ExecuteLdmatrix(generic, LdmatrixLayout::For(generic), memory, rows)),
            ValuesOf(LoadRows(named, memory.shared, ContiguousRows())));
  rows[5].value = memory.global_base + 80;
  Outcome in_global = ExecuteLdmatrix(generic, LdmatrixLayout::For(generic), memory, rows);
  ASSERT_TRUE(std::holds_alternative<Undefined>(in_global));
  EXPECT_EQ(std::get<Undefined>(in_global).hazard, RuntimeHazard::kAddressOutsideSpace);
  EXPECT_THAT(std::get<Undefined>(in_global).why, ::testing::HasSubstr("lane 5: "));
  EXPECT_THAT(std::get<Undefined>(in_global).why, ::testing::HasSubstr("is in .global"));
  // A .shared address is an offset into the window, never a generic one.
  LdmatrixAddresses shared_rows = LdmatrixRowAddresses(named, memory, ContiguousRows());
  EXPECT_EQ(shared_rows[1].value, 16u);
  shared_rows[0].value = memory.shared_generic_base;
  EXPECT_EQ(std::get<Undefined>(ExecuteLdmatrix(named, LdmatrixLayout::For(named), memory, shared_rows)).hazard,
            RuntimeHazard::kAddressOutsideSpace);
}

// For sm_75 or below every lane needs a valid address, even ones .x1 does
// not use; from sm_80 on they are ignored.
TEST(LdmatrixSemanticsTest, UnusedLanesOnSm75) {
  std::vector<std::uint64_t> addresses = ContiguousRows();
  addresses[20] = 3;  // lane 20 is unused by .x1
  CheckedInstruction on_sm75 = Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_75");
  Outcome undefined = LoadRows(on_sm75, Iota16(512), addresses);
  ASSERT_TRUE(std::holds_alternative<Undefined>(undefined));
  EXPECT_EQ(std::get<Undefined>(undefined).hazard, RuntimeHazard::kUnusedLaneAddress);
  CheckedInstruction on_sm80 = Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_80");
  EXPECT_TRUE(std::holds_alternative<LaneValues>(
      LoadRows(on_sm80, Iota16(512), addresses)));
}

// The hazard check says what a whole execution says about definedness, on
// the cases above: defined rows, a misaligned row, a row past the window,
// and an unused lane's address on sm_75 (undefined) and sm_80 (ignored).
TEST(LdmatrixSemanticsTest, AddressHazardAgreesWithExecution) {
  MemoryImage memory;
  memory.shared = Iota16(512);
  const auto agree = [&](const CheckedInstruction& form, absl::Span<const std::uint64_t> offsets) {
    const LdmatrixLayout layout = LdmatrixLayout::For(form);
    const LdmatrixAddresses rows = LdmatrixRowAddresses(form, memory, offsets);
    const std::optional<Undefined> hazard = LdmatrixAddressHazard(form, layout, memory, rows);
    const Outcome outcome = ExecuteLdmatrix(form, layout, memory, rows);
    ASSERT_EQ(hazard.has_value(), std::holds_alternative<Undefined>(outcome));
    if (hazard.has_value()) {
      EXPECT_EQ(hazard->hazard, std::get<Undefined>(outcome).hazard);
      EXPECT_EQ(hazard->why, std::get<Undefined>(outcome).why);
    }
  };
  CheckedInstruction x4 = Check("ldmatrix.sync.aligned.m8n8.x4.b16 {a, b, c, d}, [p];");
  std::vector<std::uint64_t> addresses = ContiguousRows();
  agree(x4, addresses);
  EXPECT_FALSE(LdmatrixAddressHazard(x4, LdmatrixLayout::For(x4), memory, LdmatrixRowAddresses(x4, memory, addresses))
                   .has_value());
  addresses[9] = 8;
  agree(x4, addresses);
  addresses[9] = 512;
  agree(x4, addresses);
  addresses = ContiguousRows();
  addresses[20] = 3;
  agree(Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_75"), addresses);
  agree(Check("ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p];", "sm_80"), addresses);
  EXPECT_EQ(LdmatrixAddressHazard(x4, LdmatrixLayout::For(x4), memory, LdmatrixRowAddresses(x4, memory, addresses))
                ->hazard,
            RuntimeHazard::kMisalignedAddress);
}

// .b4x16_p64: 16 nibbles, LSB first, then 8 bytes of padding; .b6x16_p32:
// 16 six-bit fields in 12 bytes, then 4 bytes of padding.
TEST(LdmatrixSemanticsTest, DecompressesPackedRows) {
  std::vector<std::uint8_t> nibbles = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  std::array<std::uint8_t, 16> four = DecompressRow(nibbles, 4, RowExtension::kZero);
  for (int e = 0; e < 16; ++e) EXPECT_EQ(four[e], e) << "nibble " << e;
  std::vector<std::uint8_t> sixes(16, 0xee);  // padding
  std::vector<std::uint8_t> packed(12, 0);
  for (int e = 0; e < 16; ++e) {
    const int value = (e * 5 + 3) & 63;
    for (int b = 0; b < 6; ++b) {
      if ((value >> b) & 1) packed[(6 * e + b) / 8] |= static_cast<std::uint8_t>(1 << ((6 * e + b) % 8));
    }
  }
  std::copy(packed.begin(), packed.end(), sixes.begin());
  std::array<std::uint8_t, 16> six = DecompressRow(sixes, 6, RowExtension::kZero);
  for (int e = 0; e < 16; ++e) EXPECT_EQ(six[e], (e * 5 + 3) & 63) << "element " << e;
}

// .s8.s4: 16 signed nibbles in 8 bytes, LSB first, each "expanded to signed
// 8-bit values" (PTX 9.4): 0x7 is 7, 0x8 is -8 (0xf8), 0xf is -1 (0xff).
// The values are written by hand, not computed.
TEST(LdmatrixSemanticsTest, SignExtendsPackedS4Rows) {
  const std::vector<std::uint8_t> row = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe};
  const std::array<std::uint8_t, 16> expanded = DecompressRow(row, 4, RowExtension::kSign);
  const std::array<std::uint8_t, 16> by_hand = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                                0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
  EXPECT_EQ(expanded, by_hand);
}

// An .s8.s4 row is 8 bytes: a row that ends 8 bytes before the window's end
// is read whole, where a 16-byte row there would run past it.
TEST(LdmatrixSemanticsTest, S4RowsReadEightBytes) {
  const CheckedInstruction x1 = Check("ldmatrix.sync.aligned.m8n16.x1.shared.s8.s4 {a}, [p];", "sm_90a", "9.4");
  EXPECT_EQ(LdmatrixLayout::For(x1).source_row_bytes(), 8);
  // Lane 7's row, the last, ends where the window does; every nibble is 1.
  const std::vector<std::uint8_t> window(16 * 7 + 8, 0x11);
  const LaneValues values = ValuesOf(LoadRows(x1, window, ContiguousRows()));
  EXPECT_EQ(values.lane(28)[0], 0x01010101u);
}

}  // namespace
}  // namespace matload
