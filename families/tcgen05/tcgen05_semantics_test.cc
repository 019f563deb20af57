// tcgen05.ld semantics against cells copied by hand from docs/spec-decisions.md tcgen05.ld.layout (the
// per-thread table) and .spcompress selections worked out by hand from the
// PTX 9.4 text, and properties over every legal form: coverage, .num
// prefixes, .pack::16b as a load of low halves, .red and .spcompress against
// a brute force, and the undefined executions.
#include "families/tcgen05/tcgen05_semantics.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "families/tcgen05/tcgen05_ld_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference/enumerate.h"
#include "reference/printer.h"
#include "reference/test_support.h"

namespace matload {
namespace {

using ::matload::testing::JudgeAt;
using ::testing::ElementsAre;

// kRegisterBits is the width of a TMEM column and of a destination register.
constexpr int kRegisterBits = 32;

// The targets the properties run on: sm_100a has every tcgen05.ld form but
// .red; sm_103a adds .red (PTX 9.7.16.8.3 Target ISA Notes).
constexpr absl::string_view kTargets[] = {"sm_100a", "sm_103a"};

// Check judges `text` at PTX 9.0 for `target`; it must be legal.
CheckedInstruction Check(absl::string_view text, absl::string_view target = "sm_100a") {
  Verdict verdict = JudgeAt(text, target);
  EXPECT_TRUE(verdict.legal()) << text << ": " << (verdict.legal() ? "" : verdict.reasons()[0].message);
  return *verdict.checked();
}

// Registers spells a destination vector of `count` registers: {r0, r1}.
std::string Registers(int count) {
  std::string text = "{r0";
  for (int i = 1; i < count; ++i) absl::StrAppend(&text, ", r", i);
  return text + "}";
}

// Load spells a plain load: Load("16x64b.x2", 2) is
// "tcgen05.ld.sync.aligned.16x64b.x2.b32 {r0, r1}, [t];" and `tail` goes
// after [t] (", 16" for .16x32bx2).
std::string Load(absl::string_view qualifiers, int registers, absl::string_view tail = "") {
  return absl::StrCat("tcgen05.ld.sync.aligned.", qualifiers, ".b32 ", Registers(registers), ", [t]", tail, ";");
}

// RedLoad spells a tcgen05.ld.red: RedLoad("32x32b.x2.min.f32", 2).
std::string RedLoad(absl::string_view qualifiers, int registers, absl::string_view tail = "") {
  return absl::StrCat("tcgen05.ld.red.sync.aligned.", qualifiers, " ", Registers(registers), ", v, [t]", tail, ";");
}

// CheckedSet judges a tcgen05.ld qualifier set written with the standard
// registers and a 32-bit taddr (immHalfSplitoff 16).
CheckedInstruction CheckedSet(const QualifierSet& qualifiers, absl::string_view target) {
  const OperandSignature signature = *tcgen05::Spec().Signature(qualifiers);
  const Form form{Family::kTcgen05Ld, std::nullopt, qualifiers,
                  StandardOperands(signature, {.address = OperandStyle::Address::kRegister32})};
  Verdict verdict = Judge(Snippet{StandardRegisterFile(), ToRaw(form)}, {9, 0}, *ParseTarget(target));
  EXPECT_TRUE(verdict.legal()) << PrintForm(form);
  return *verdict.checked();
}

// Tag is a cell's own coordinates in 16 bits: lane (7 bits), column (9).
std::uint32_t Tag(int lane, int column) { return static_cast<std::uint32_t>(lane << 9 | column); }

// Cell is what TaggedTmem holds at (lane, column): the tag in bits 0-15 and
// its complement in bits 16-31, so any 16 bits that are read name their
// source.
std::uint32_t Cell(int lane, int column) { return Tag(lane, column) | (Tag(lane, column) ^ 0xffffu) << 16; }

// TaggedTmem is a Tensor Memory whose every cell is Cell(lane, column).
TensorMemory TaggedTmem() {
  TensorMemory tmem;
  for (int lane = 0; lane < kTmemLanes; ++lane) {
    for (int column = 0; column < kTmemColumns; ++column) tmem.Set(lane, column, Cell(lane, column));
  }
  return tmem;
}

// Packed is what .pack::16b makes of the low halves of (lane, low_column)
// and (lane, high_column) in TaggedTmem.
std::uint32_t Packed(int lane, int low_column, int high_column) {
  return Tag(lane, low_column) | Tag(lane, high_column) << 16;
}

// ValuesOf returns the lane values of an outcome that must have them.
LaneValues ValuesOf(const Outcome& outcome) {
  if (const auto* values = std::get_if<LaneValues>(&outcome)) return *values;
  ADD_FAILURE() << "not LaneValues: "
                << (std::holds_alternative<Undefined>(outcome) ? std::get<Undefined>(outcome).why : "fault");
  return LaneValues::Zeroed(256);
}

// HazardOf returns the hazard of an outcome that must be undefined.
std::optional<RuntimeHazard> HazardOf(const Outcome& outcome) {
  if (const auto* undefined = std::get_if<Undefined>(&outcome)) return undefined->hazard;
  return std::nullopt;
}

// Execute compiles the layout of `instruction` and runs it once.
Outcome Execute(const CheckedInstruction& instruction, const TensorMemory& tmem, std::uint32_t taddr, int warp,
                std::optional<std::int64_t> split_offset = std::nullopt) {
  return ExecuteTcgen05Ld(instruction, Tcgen05Layout::For(instruction), tmem, taddr, warp, split_offset);
}

TEST(Tcgen05SemanticsTest, AddressPacksLaneAboveColumn) {
  EXPECT_EQ(TmemAddress(3, 7), 0x00030007u);
  EXPECT_EQ(TmemAddress(127, 511), 0x007f01ffu);
  EXPECT_EQ(WarpQuarterFirstLane(0), 0);
  EXPECT_EQ(WarpQuarterFirstLane(3), 96);
  EXPECT_EQ(WarpQuarterFirstLane(6), 64) << "the quarter is the warp's rank mod 4";
}

// docs/spec-decisions.md tcgen05.ld.layout, .32x32b.xN: r[k] is lane L0+t, column C0+k. Cells below
// written out by hand from that row.
TEST(Tcgen05SemanticsTest, Shape32x32bByHand) {
  CheckedInstruction x2 = Check(Load("32x32b.x2", 2));
  Tcgen05Layout layout = Tcgen05Layout::For(x2);
  ASSERT_EQ(layout.words(), 2);
  EXPECT_EQ(layout.At(5, 1, 0), (Tcgen05Source{.access = 0, .lane = 5, .column = 1, .cell_bit = 0}));
  EXPECT_EQ(layout.At(5, 1, 1), (Tcgen05Source{.access = 0, .lane = 5, .column = 1, .cell_bit = 16}));
  EXPECT_EQ(layout.At(31, 0, 0), (Tcgen05Source{.access = 0, .lane = 31, .column = 0, .cell_bit = 0}));
  // Warp 1 at lane 32, column 10: lane 3's r1 is TMEM lane 35, column 11.
  const LaneValues values = ValuesOf(Execute(x2, TaggedTmem(), TmemAddress(32, 10), 1));
  EXPECT_EQ(values.lane(3)[1], Cell(35, 11));
  EXPECT_EQ(values.lane(0)[0], Cell(32, 10));
  EXPECT_EQ(values.lane(31)[1], Cell(63, 11));
}

// docs/spec-decisions.md tcgen05.ld.layout, .16x64b.xN: r[k] is lane L0 + (t>>2) + 8*(t&1), column
// C0 + ((t>>1)&1) + 2k, evaluated by hand per thread.
TEST(Tcgen05SemanticsTest, Shape16x64bByHand) {
  const LaneValues x1 = ValuesOf(Execute(Check(Load("16x64b.x1", 1)), TaggedTmem(), TmemAddress(0, 0), 0));
  EXPECT_EQ(x1.lane(0)[0], Cell(0, 0));
  EXPECT_EQ(x1.lane(1)[0], Cell(8, 0));
  EXPECT_EQ(x1.lane(2)[0], Cell(0, 1));
  EXPECT_EQ(x1.lane(3)[0], Cell(8, 1));
  EXPECT_EQ(x1.lane(4)[0], Cell(1, 0));
  EXPECT_EQ(x1.lane(5)[0], Cell(9, 0));
  EXPECT_EQ(x1.lane(30)[0], Cell(7, 1));
  EXPECT_EQ(x1.lane(31)[0], Cell(15, 1));
  const LaneValues x2 = ValuesOf(Execute(Check(Load("16x64b.x2", 2)), TaggedTmem(), TmemAddress(64, 100), 2));
  EXPECT_EQ(x2.lane(5)[1], Cell(73, 102)) << "thread 5, r1: lane 64+9, column 100+0+2";
  EXPECT_EQ(x2.lane(2)[1], Cell(64, 103));
}

// docs/spec-decisions.md tcgen05.ld.layout, .16x128b.xN: r[2k+j] is lane L0 + (t>>2) + 8j, column
// C0 + (t&3) + 4k.
TEST(Tcgen05SemanticsTest, Shape16x128bByHand) {
  const LaneValues x2 = ValuesOf(Execute(Check(Load("16x128b.x2", 4)), TaggedTmem(), TmemAddress(0, 0), 0));
  EXPECT_EQ(x2.lane(6)[0], Cell(1, 2));
  EXPECT_EQ(x2.lane(6)[1], Cell(9, 2));
  EXPECT_EQ(x2.lane(6)[2], Cell(1, 6));
  EXPECT_EQ(x2.lane(6)[3], Cell(9, 6));
  EXPECT_EQ(x2.lane(31)[0], Cell(7, 3));
  EXPECT_EQ(x2.lane(31)[1], Cell(15, 3));
  EXPECT_EQ(x2.lane(0)[3], Cell(8, 4));
}

// docs/spec-decisions.md tcgen05.ld.layout, .16x256b.xN: r[4k+j] is lane L0 + (t>>2) + 8*(j>>1),
// column C0 + 2*(t&3) + (j&1) + 8k.
TEST(Tcgen05SemanticsTest, Shape16x256bByHand) {
  const LaneValues x2 = ValuesOf(Execute(Check(Load("16x256b.x2", 8)), TaggedTmem(), TmemAddress(96, 0), 3));
  EXPECT_EQ(x2.lane(6)[0], Cell(97, 4));
  EXPECT_EQ(x2.lane(6)[1], Cell(97, 5));
  EXPECT_EQ(x2.lane(6)[2], Cell(105, 4));
  EXPECT_EQ(x2.lane(6)[3], Cell(105, 5));
  EXPECT_EQ(x2.lane(6)[7], Cell(105, 13));
  EXPECT_EQ(x2.lane(31)[3], Cell(111, 7));
  EXPECT_EQ(x2.lane(0)[4], Cell(96, 8));
}

// .16x32bx2 (PTX 9.7.16.8.3; docs/spec-decisions.md tcgen05.ld.layout): threads 0-15 read lane L0+t,
// column C0+k; threads 16-31 lane L0+t-16 of the access at
// taddr + immHalfSplitoff.
TEST(Tcgen05SemanticsTest, Shape16x32bx2ByHand) {
  CheckedInstruction x2 = Check(Load("16x32bx2.x2", 2, ", 16"));
  EXPECT_EQ(HalfSplitOffset(x2), 16);
  Tcgen05Layout layout = Tcgen05Layout::For(x2);
  EXPECT_EQ(layout.At(3, 1, 0), (Tcgen05Source{.access = 0, .lane = 3, .column = 1, .cell_bit = 0}));
  EXPECT_EQ(layout.At(20, 1, 0), (Tcgen05Source{.access = 1, .lane = 4, .column = 1, .cell_bit = 0}));
  const LaneValues values = ValuesOf(Execute(x2, TaggedTmem(), TmemAddress(0, 0), 0));
  EXPECT_EQ(values.lane(3)[1], Cell(3, 1));
  EXPECT_EQ(values.lane(20)[1], Cell(4, 17));
  EXPECT_EQ(values.lane(31)[0], Cell(15, 16));
  // An offset of (8 << 16) | 4 moves the second access 8 lanes down, 4 right.
  CheckedInstruction moved = Check(Load("16x32bx2.x2", 2, ", 524292"));
  const LaneValues lanes_moved = ValuesOf(Execute(moved, TaggedTmem(), TmemAddress(0, 0), 0));
  EXPECT_EQ(lanes_moved.lane(20)[0], Cell(12, 4));
  EXPECT_EQ(lanes_moved.lane(4)[0], Cell(4, 0));
  EXPECT_EQ(HalfSplitOffset(Check(Load("32x32b.x1", 1))), std::nullopt);
}

// .pack::16b (tcgen05.ld.infer.pack-16b-halves): a register holds the low halves of two
// adjacent physical columns, the lower column in bits 0-15.
TEST(Tcgen05SemanticsTest, PackByHand) {
  CheckedInstruction wide = Check(Load("32x32b.x1.pack::16b", 1));
  Tcgen05Layout layout = Tcgen05Layout::For(wide);
  EXPECT_EQ(layout.At(7, 0, 0), (Tcgen05Source{.access = 0, .lane = 7, .column = 0, .cell_bit = 0}));
  EXPECT_EQ(layout.At(7, 0, 1), (Tcgen05Source{.access = 0, .lane = 7, .column = 1, .cell_bit = 0}));
  EXPECT_EQ(ValuesOf(Execute(wide, TaggedTmem(), TmemAddress(0, 0), 0)).lane(7)[0], Packed(7, 0, 1));
  // .16x64b: thread 2 reads virtual column 1 of lane 0, physical 2 and 3.
  const LaneValues narrow =
      ValuesOf(Execute(Check(Load("16x64b.x1.pack::16b", 1)), TaggedTmem(), TmemAddress(0, 40), 0));
  EXPECT_EQ(narrow.lane(2)[0], Packed(0, 42, 43));
  EXPECT_EQ(narrow.lane(1)[0], Packed(8, 40, 41));
  // .16x32bx2: thread 17 reads lane 1 of the access 16 columns on.
  const LaneValues split =
      ValuesOf(Execute(Check(Load("16x32bx2.x1.pack::16b", 1, ", 16")), TaggedTmem(), TmemAddress(0, 0), 0));
  EXPECT_EQ(split.lane(17)[0], Packed(1, 16, 17));
  EXPECT_EQ(split.lane(1)[0], Packed(1, 0, 1));
}

// ShapeTile is a shape's footprint per access, read off its name (PTX
// 9.7.16.8.3 Data Movement Shape): ".16x64b" is 16 lanes of 64 bits, and
// ".16x32bx2" two accesses of 16 lanes of 32 bits.
struct ShapeTile {
  int accesses = 1;
  int lanes = 0;
  int bits_per_lane = 0;
};

// TileOf reads the footprint of a qualifier set's .shape off its spelling.
ShapeTile TileOf(const QualifierSet& qualifiers) {
  const absl::string_view spelling = tcgen05::Spec().axes[tcgen05::kShape].spellings[qualifiers.Get(tcgen05::kShape)];
  std::vector<std::string> parts = absl::StrSplit(spelling.substr(1), 'x');  // "16", "64b" [, "2"]
  ShapeTile tile;
  EXPECT_TRUE(absl::SimpleAtoi(parts[0], &tile.lanes)) << spelling;
  EXPECT_TRUE(absl::SimpleAtoi(absl::string_view(parts[1]).substr(0, parts[1].size() - 1), &tile.bits_per_lane));
  if (parts.size() == 3) EXPECT_TRUE(absl::SimpleAtoi(parts[2], &tile.accesses)) << spelling;
  return tile;
}

// For every legal form: the warp reads exactly the shape's tile, repeated
// .num times (twice as many physical columns with .pack::16b), each 16-bit
// piece of it once; .pack::16b reads only low halves. Execution on tagged
// memory reads what the layout says.
TEST(Tcgen05SemanticsTest, EveryLegalFormReadsItsTileOnce) {
  int forms = 0;
  for (absl::string_view target : kTargets) {
    for (const Form& form : LegalForms({9, 0}, *ParseTarget(target))) {
      if (form.family != Family::kTcgen05Ld) continue;
      ++forms;
      CheckedInstruction instruction =
          *Judge(Snippet{StandardRegisterFile(), ToRaw(form)}, {9, 0}, *ParseTarget(target)).checked();
      const QualifierSet& q = form.qualifiers;
      const Tcgen05Layout layout = Tcgen05Layout::For(instruction);
      const ShapeTile tile = TileOf(q);
      const bool packed = q.Present(tcgen05::kPack);
      const int columns = tile.bits_per_lane / kRegisterBits * (1 << q.Get(tcgen05::kNum)) * (packed ? 2 : 1);
      std::set<std::tuple<int, int, int, int>> pieces;  // (access, lane, column, cell bit)
      std::set<std::tuple<int, int, int>> cells;
      for (int lane = 0; lane < 32; ++lane) {
        for (int reg = 0; reg < layout.words(); ++reg) {
          for (int half = 0; half < 2; ++half) {
            const Tcgen05Source& s = layout.At(lane, reg, half);
            EXPECT_TRUE(s.access >= 0 && s.access < tile.accesses && s.lane >= 0 && s.lane < tile.lanes &&
                        s.column >= 0 && s.column < columns)
                << PrintForm(form) << " lane " << lane << " reg " << reg;
            EXPECT_EQ(s.cell_bit, packed ? 0 : 16 * half) << PrintForm(form);
            pieces.insert({s.access, s.lane, s.column, s.cell_bit});
            cells.insert({s.access, s.lane, s.column});
          }
        }
      }
      EXPECT_EQ(pieces.size(), static_cast<size_t>(32 * layout.words() * 2)) << PrintForm(form) << ": a repeat";
      EXPECT_EQ(cells.size(), static_cast<size_t>(tile.accesses * tile.lanes * columns)) << PrintForm(form);
      // Tagged memory: each half names the cell the layout resolves to.
      const LaneValues values = ValuesOf(ExecuteTcgen05Ld(instruction, layout, TaggedTmem(), TmemAddress(0, 0), 0));
      for (int lane = 0; lane < 32; ++lane) {
        for (int reg = 0; reg < layout.words(); ++reg) {
          for (int half = 0; half < 2; ++half) {
            const TmemCell cell = ResolveSource(layout.At(lane, reg, half), TmemAddress(0, 0), 16);
            const std::uint32_t tag = Tag(static_cast<int>(cell.lane), static_cast<int>(cell.column));
            const std::uint32_t expected = layout.At(lane, reg, half).cell_bit == 0 ? tag : tag ^ 0xffffu;
            ASSERT_EQ(values.lane(lane)[reg] >> (16 * half) & 0xffffu, expected)
                << PrintForm(form) << " lane " << lane << " reg " << reg << " half " << half;
          }
        }
      }
    }
  }
  EXPECT_GT(forms, 200) << "the enumeration lost tcgen05.ld forms";
}

// SetsByTarget maps each legal tcgen05.ld qualifier set of `target` to its
// checked instruction, so a test can find a form's neighbours.
std::map<std::string, CheckedInstruction> SetsByTarget(absl::string_view target) {
  std::map<std::string, CheckedInstruction> sets;
  for (const QualifierSet& q : LegalQualifierSets(tcgen05::Spec(), {9, 0}, *ParseTarget(target))) {
    CheckedInstruction instruction = CheckedSet(q, target);
    sets.emplace(PrintForm(instruction.form()), instruction);
  }
  return sets;
}

// A larger .num extends a smaller one: the same memory and taddr give the
// smaller form's registers as a prefix, for every shape, with and without
// .pack::16b and .red (PTX 9.7.16.8.3: .num repeats the base shape;
// docs/spec-decisions.md tcgen05.ld.layout column offsets 1, 2, 4, 8 columns per repeat).
TEST(Tcgen05SemanticsTest, LargerNumExtendsSmallerNum) {
  const TensorMemory tmem = TaggedTmem();
  int pairs = 0;
  for (absl::string_view target : kTargets) {
    for (const QualifierSet& q : LegalQualifierSets(tcgen05::Spec(), {9, 0}, *ParseTarget(target))) {
      if (q.Get(tcgen05::kNum) == tcgen05::kX1) continue;
      QualifierSet smaller_set = q;
      smaller_set.Set(tcgen05::kNum, q.Get(tcgen05::kNum) - 1);
      if (!QualifierReasons(tcgen05::Spec(), smaller_set, {9, 0}, *ParseTarget(target)).empty()) continue;
      const CheckedInstruction larger = CheckedSet(q, target);
      const CheckedInstruction smaller = CheckedSet(smaller_set, target);
      const LaneValues large = ValuesOf(Execute(larger, tmem, TmemAddress(0, 0), 0));
      const LaneValues small = ValuesOf(Execute(smaller, tmem, TmemAddress(0, 0), 0));
      const int prefix = smaller.signature().destination_count;
      for (int lane = 0; lane < 32; ++lane) {
        ASSERT_TRUE(
            std::equal(small.lane(lane).begin(), small.lane(lane).begin() + prefix, large.lane(lane).begin()))
            << PrintForm(larger.form()) << " lane " << lane;
      }
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 100);
}

// VirtualTmem is tcgen05.ld.infer.pack-16b-halves's model of .pack::16b: virtual cell c of a
// lane is the low halves of physical cells 2c and 2c+1 of that lane.
TensorMemory VirtualTmem(const TensorMemory& physical) {
  TensorMemory virtual_tmem;
  for (int lane = 0; lane < kTmemLanes; ++lane) {
    for (int c = 0; c < kTmemColumns / 2; ++c) {
      virtual_tmem.Set(lane, c, (physical.At(lane, 2 * c) & 0xffffu) | physical.At(lane, 2 * c + 1) << 16);
    }
  }
  return virtual_tmem;
}

// A .pack::16b load equals the unpacked load of the same shape and .num on
// the virtual memory whose cells recombine the low halves of adjacent
// physical columns; .16x32bx2's offset counts virtual columns there, half
// the physical ones.
TEST(Tcgen05SemanticsTest, PackIsTheUnpackedLoadOfLowHalves) {
  constexpr unsigned kSeed = 20261122;
  std::mt19937 random(kSeed);
  TensorMemory physical;
  for (int lane = 0; lane < kTmemLanes; ++lane) {
    for (int column = 0; column < kTmemColumns; ++column) physical.Set(lane, column, random());
  }
  const TensorMemory virtual_tmem = VirtualTmem(physical);
  int pairs = 0;
  for (const auto& [text, instruction] : SetsByTarget("sm_100a")) {
    const QualifierSet& q = instruction.form().qualifiers;
    if (!q.Present(tcgen05::kPack)) continue;
    QualifierSet unpacked_set = q;
    unpacked_set.Set(tcgen05::kPack, kAbsent);
    const CheckedInstruction unpacked = CheckedSet(unpacked_set, "sm_100a");
    const std::optional<std::int64_t> split = HalfSplitOffset(instruction);
    // Warp 5 works in lanes 32..63.
    EXPECT_EQ(ValuesOf(Execute(instruction, physical, TmemAddress(32, 0), 5)),
              ValuesOf(Execute(unpacked, virtual_tmem, TmemAddress(32, 0), 5,
                               split.has_value() ? std::optional<std::int64_t>(*split / 2) : std::nullopt)))
        << text << ", seed " << kSeed;
    ++pairs;
  }
  EXPECT_EQ(pairs, 37) << "every shape and .num of Table 49 has a .pack::16b form";
}

// FloatKey orders .f32 values for the brute force: by value, then -0.0
// before +0.0 (redux.sync's "+0.0 > -0.0", tcgen05.ld.infer.red-nan [INFERRED]).
std::pair<float, bool> FloatKey(std::uint32_t bits) {
  const float value = std::bit_cast<float>(bits);
  return {value, !std::signbit(value)};
}

// BruteForceRedval recomputes a lane's redval from its loaded registers by
// sorting, per tcgen05.ld.infer.red-nan (.f32 rules [INFERRED] from redux.sync).
std::uint32_t BruteForceRedval(const QualifierSet& q, std::vector<std::uint32_t> values) {
  const bool max = q.Has(tcgen05::kRedOp, tcgen05::kMax);
  if (q.Has(tcgen05::kType, tcgen05::kF32)) {
    if (q.Present(tcgen05::kAbs)) {
      for (std::uint32_t& value : values) value &= 0x7fffffffu;
    }
    const auto is_nan = [](std::uint32_t bits) { return std::isnan(std::bit_cast<float>(bits)); };
    if (q.Present(tcgen05::kNaN) && std::any_of(values.begin(), values.end(), is_nan)) return 0x7fffffffu;
    values.erase(std::remove_if(values.begin(), values.end(), is_nan), values.end());
    if (values.empty()) return 0x7fffffffu;
    std::sort(values.begin(), values.end(), [](std::uint32_t a, std::uint32_t b) { return FloatKey(a) < FloatKey(b); });
  } else if (q.Has(tcgen05::kType, tcgen05::kS32)) {
    std::sort(values.begin(), values.end(), [](std::uint32_t a, std::uint32_t b) {
      return static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b);
    });
  } else {
    std::sort(values.begin(), values.end());
  }
  return max ? values.back() : values.front();
}

// Every legal .red form: the registers are the plain load's, and the
// appended redval is the brute-force reduction of them, on memory mixing
// random words with +0.0 and -0.0, NaNs of both signs, infinities,
// subnormals and integer extremes, plus lanes that are all NaN, all zeros
// of both signs, and one NaN among numbers.
TEST(Tcgen05SemanticsTest, RedvalIsTheBruteForceReduction) {
  constexpr unsigned kSeed = 7;
  constexpr std::uint32_t kSpecial[] = {0x00000000u, 0x80000000u, 0x7fc00000u, 0xffc00001u, 0x7f800000u,
                                        0xff800000u, 0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u,
                                        0x7fffffffu, 0xffffffffu, 0x00000002u, 0x7f7fffffu};
  std::mt19937 random(kSeed);
  TensorMemory tmem;
  for (int lane = 0; lane < kTmemLanes; ++lane) {
    for (int column = 0; column < kTmemColumns; ++column) {
      const std::uint32_t word = random();
      tmem.Set(lane, column, word % 3 == 0 ? word : kSpecial[word % std::size(kSpecial)]);
    }
  }
  for (int column = 0; column < kTmemColumns; ++column) {
    tmem.Set(3, column, column % 2 == 0 ? 0x7fc00000u : 0xffc00001u);       // all NaN
    tmem.Set(4, column, column % 3 == 0 ? 0x80000000u : 0x00000000u);       // +0.0 and -0.0
    tmem.Set(5, column, column == 1 ? 0x7fc00000u : 0x40000000u + column);  // one NaN
  }
  int forms = 0;
  for (const auto& [text, instruction] : SetsByTarget("sm_103a")) {
    const QualifierSet& q = instruction.form().qualifiers;
    if (!q.Present(tcgen05::kRed)) continue;
    QualifierSet plain_set = q;
    for (int axis : {tcgen05::kRed, tcgen05::kRedOp, tcgen05::kAbs, tcgen05::kNaN}) plain_set.Set(axis, kAbsent);
    plain_set.Set(tcgen05::kType, tcgen05::kB32);
    const CheckedInstruction plain = CheckedSet(plain_set, "sm_103a");
    const LaneValues reduced = ValuesOf(Execute(instruction, tmem, TmemAddress(0, 0), 0));
    const LaneValues loaded = ValuesOf(Execute(plain, tmem, TmemAddress(0, 0), 0));
    const int registers = instruction.signature().destination_count;
    for (int lane = 0; lane < 32; ++lane) {
      ASSERT_EQ(reduced.lane(lane).size(), static_cast<size_t>(registers + 1)) << text;
      const std::vector<std::uint32_t> data(reduced.lane(lane).begin(), reduced.lane(lane).end() - 1);
      ASSERT_EQ(data, loaded.lane(lane)) << text << " lane " << lane << ": r still gets the data";
      ASSERT_EQ(reduced.lane(lane).back(), BruteForceRedval(q, data))
          << text << " lane " << lane << ", seed " << kSeed;
    }
    ++forms;
  }
  // 2 shapes x 7 .num (x2..x128) x (2 ops x (4 .abs/.NaN choices for .f32 + .u32 + .s32)).
  EXPECT_EQ(forms, 2 * 7 * 2 * 6);
}

// RedvalOfRow loads `row` into lane 0 of an otherwise zero memory with
// a .32x32b reduction of `qualifiers` and returns lane 0's redval.
std::uint32_t RedvalOfRow(absl::string_view qualifiers, const std::vector<std::uint32_t>& row) {
  TensorMemory tmem;
  for (size_t column = 0; column < row.size(); ++column) tmem.Set(0, static_cast<int>(column), row[column]);
  const int registers = static_cast<int>(row.size());
  const CheckedInstruction instruction =
      Check(RedLoad(absl::StrCat("32x32b.x", registers, ".", qualifiers), registers), "sm_103a");
  return ValuesOf(Execute(instruction, tmem, TmemAddress(0, 0), 0)).lane(0).back();
}

// Hand-picked reductions; the .f32 rules are tcgen05.ld.infer.red-nan's [INFERRED]
// redux.sync analogy, the integer ones PTX 9.7.16.8.3.
TEST(Tcgen05SemanticsTest, RedvalByHand) {
  constexpr std::uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u, kNan = 0x7fc00000u;
  constexpr std::uint32_t kOne = 0x3f800000u, kMinusThree = 0xc0400000u, kTwo = 0x40000000u, kThree = 0x40400000u;
  EXPECT_EQ(RedvalOfRow("min.f32", {kPlusZero, kMinusZero}), kMinusZero) << "-0.0 < +0.0";
  EXPECT_EQ(RedvalOfRow("max.f32", {kMinusZero, kPlusZero}), kPlusZero);
  EXPECT_EQ(RedvalOfRow("min.abs.f32", {kMinusZero, kPlusZero}), kPlusZero) << "|-0.0| is +0.0";
  EXPECT_EQ(RedvalOfRow("min.f32", {kNan, kOne}), kOne) << "without .NaN a NaN is left out";
  EXPECT_EQ(RedvalOfRow("min.NaN.f32", {kNan, kOne}), 0x7fffffffu) << "with .NaN, canonical NaN";
  EXPECT_EQ(RedvalOfRow("max.f32", {kNan, 0xffc00001u}), 0x7fffffffu) << "all NaN gives canonical NaN";
  EXPECT_EQ(RedvalOfRow("max.abs.f32", {kMinusThree, kTwo}), kThree);
  EXPECT_EQ(RedvalOfRow("max.f32", {kMinusThree, kTwo}), kTwo);
  EXPECT_EQ(RedvalOfRow("min.f32", {0x00000001u, 0x80000001u}), 0x80000001u) << "subnormals are not flushed";
  EXPECT_EQ(RedvalOfRow("min.u32", {0xffffffffu, 1}), 1u);
  EXPECT_EQ(RedvalOfRow("min.s32", {0xffffffffu, 1}), 0xffffffffu);
  EXPECT_EQ(RedvalOfRow("max.s32", {0x80000000u, 0x7fffffffu, 5, 0xfffffffeu}), 0x7fffffffu);
  // .16x32bx2: thread 16 reduces lane 0 of the second access.
  TensorMemory tmem;
  tmem.Set(0, 0, 9);
  tmem.Set(0, 1, 4);
  tmem.Set(0, 16, 2);
  tmem.Set(0, 17, 7);
  const LaneValues split =
      ValuesOf(Execute(Check(RedLoad("16x32bx2.x2.max.u32", 2, ", 16"), "sm_103a"), tmem, TmemAddress(0, 0), 0));
  EXPECT_THAT(split.lane(0), ::testing::ElementsAre(9u, 4u, 9u));
  EXPECT_THAT(split.lane(16), ::testing::ElementsAre(2u, 7u, 7u));
}

// The .f32 words the .spcompress cases below use.
constexpr std::uint32_t kOne = 0x3f800000u, kTwo = 0x40000000u, kThree = 0x40400000u, kFour = 0x40800000u;
constexpr std::uint32_t kHalf = 0x3f000000u, kQuarter = 0x3e800000u, kMinusQuarter = 0xbe800000u;
constexpr std::uint32_t kMinusOne = 0xbf800000u, kMinusFive = 0xc0a00000u, kMinusSix = 0xc0c00000u;
constexpr std::uint32_t kNine = 0x41100000u, kSix = 0x40c00000u, kFive = 0x40a00000u;
constexpr std::uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u;
constexpr std::uint32_t kQuietNan = 0x7fc00001u, kNegativeNan = 0xffc00000u, kSignallingNan = 0x7f800001u;

// Spcompress runs tcgen05.ld{.red}.spcompress of `qualifiers` ("x8.max",
// "x8.max.abs.NaN") at PTX 9.4 on sm_107a, with `row` in TMEM lane 0 from
// column 0 and distinct values (no ties) in the other lanes, and returns
// the outcome, whose lane 0 holds cdata, mdata, then redval.
Outcome Spcompress(absl::string_view qualifiers, const std::vector<std::uint32_t>& row, bool red = false) {
  TensorMemory tmem;
  for (int lane = 1; lane < kTmemLanesPerWarp; ++lane) {
    for (int column = 0; column < kTmemColumns; ++column) {
      tmem.Set(lane, column, std::bit_cast<std::uint32_t>(static_cast<float>(lane * kTmemColumns + column)));
    }
  }
  for (size_t column = 0; column < row.size(); ++column) tmem.Set(0, static_cast<int>(column), row[column]);
  const int num = static_cast<int>(row.size());
  std::string mdata = "{m0";
  for (int i = 1; i < (num + 31) / 32; ++i) absl::StrAppend(&mdata, ", m", i);
  const std::string text =
      absl::StrCat("tcgen05.ld", red ? ".red" : "", ".spcompress.sync.aligned.32x32b.", qualifiers, ".sp::2:4.f32.b2 ",
                   mdata, "}, ", Registers(num / 2), red ? ", v" : "", ", [t];");
  const Verdict verdict = JudgeAt(text, "sm_107a", "9.4");
  if (!verdict.legal()) {
    ADD_FAILURE() << text << ": " << verdict.reasons()[0].message;
    return MustFault{"illegal"};
  }
  return Execute(*verdict.checked(), tmem, TmemAddress(0, 0), 0);
}

// SpcompressLane is lane 0's words of a Spcompress that must be defined.
std::vector<std::uint32_t> SpcompressLane(absl::string_view qualifiers, const std::vector<std::uint32_t>& row,
                                          bool red = false) {
  const LaneValues values = ValuesOf(Spcompress(qualifiers, row, red));
  return {values.lane(0).begin(), values.lane(0).end()};
}

// Worked by hand from PTX 9.4 9.7.18.8.3 and 9.7.10.30: two of each group
// of four columns are kept, the greatest (.max) or least (.min), by
// magnitude with .abs; cdata gets them as loaded, in column order, and mdata
// their indices (tcgen05.ld.infer.spcompress-packing: 2 bits each, element
// j at bit 2j).
TEST(Tcgen05SemanticsTest, SpcompressByHand) {
  const std::vector<std::uint32_t> row = {kOne, kFour, kTwo, kThree, kMinusOne, kMinusFive, kHalf, kMinusQuarter};
  // .max: 4 and 3 (indices 1, 3), then 0.5 and -0.25 (2, 3):
  // mdata 1 | 3 << 2 | 2 << 4 | 3 << 6 = 0xed.
  EXPECT_THAT(SpcompressLane("x8.max", row), ElementsAre(kFour, kThree, kHalf, kMinusQuarter, 0xedu));
  // .min: 1 and 2 (0, 2), then -1 and -5 (0, 1): 0 | 2 << 2 | 0 << 4 | 1 << 6 = 0x48.
  EXPECT_THAT(SpcompressLane("x8.min", row), ElementsAre(kOne, kTwo, kMinusOne, kMinusFive, 0x48u));
  // .abs compares magnitudes but keeps the values as loaded: |-5| and |-1|
  // are the greatest of the second group (0, 1), 0.5 and |-0.25| the least
  // (2, 3).
  EXPECT_THAT(SpcompressLane("x8.max.abs", row), ElementsAre(kFour, kThree, kMinusOne, kMinusFive, 0x4du));
  EXPECT_THAT(SpcompressLane("x8.min.abs", row), ElementsAre(kOne, kTwo, kHalf, kMinusQuarter, 0xe8u));
}

// "NaN values in the input will always have their indices produced in the
// output" (PTX 9.4 9.7.10.30), whatever .rowop asks, kept as loaded; with
// three or more NaNs which two are kept is implementation-specific.
TEST(Tcgen05SemanticsTest, SpcompressKeepsEveryNan) {
  EXPECT_THAT(SpcompressLane("x4.max", {kOne, kQuietNan, kThree, kTwo}), ElementsAre(kQuietNan, kThree, 0x9u))
      << "the NaN (1) and the greatest number (2)";
  EXPECT_THAT(SpcompressLane("x4.min", {kOne, kQuietNan, kThree, kTwo}), ElementsAre(kOne, kQuietNan, 0x4u));
  EXPECT_THAT(SpcompressLane("x4.max", {kNegativeNan, kFive, kSignallingNan, kNine}),
              ElementsAre(kNegativeNan, kSignallingNan, 0x8u))
      << "two NaNs of other payloads and signs are the pair (0, 2)";
  EXPECT_EQ(HazardOf(Spcompress("x4.max", {kQuietNan, kNegativeNan, kOne, kSignallingNan})),
            RuntimeHazard::kTiedSelection);
}

// -0.0 is below +0.0 (PTX 9.4 9.7.10.30 Notes). Where the last value kept
// ties the first left out, the text lets the implementation choose, and the
// model predicts nothing; a tie inside the kept pair is no choice.
TEST(Tcgen05SemanticsTest, SpcompressTiesAreTheImplementationsChoice) {
  EXPECT_THAT(SpcompressLane("x4.min", {kPlusZero, kMinusZero, kTwo, kMinusZero}),
              ElementsAre(kMinusZero, kMinusZero, 0xdu))
      << "the two -0.0 (1, 3) are below +0.0";
  EXPECT_EQ(HazardOf(Spcompress("x4.min.abs", {kPlusZero, kMinusZero, kTwo, kMinusZero})),
            RuntimeHazard::kTiedSelection)
      << "three zeros of one magnitude";
  EXPECT_EQ(HazardOf(Spcompress("x4.max", {kTwo, kOne, kTwo, kTwo})), RuntimeHazard::kTiedSelection);
  EXPECT_EQ(HazardOf(Spcompress("x4.max.abs", {kOne, kMinusOne, kHalf, kHalf})), std::nullopt)
      << "|1| and |-1| are both kept";
  EXPECT_THAT(SpcompressLane("x8.max", {kTwo, kTwo, kOne, kPlusZero, kNine, kOne, kTwo, kThree}),
              ElementsAre(kTwo, kTwo, kNine, kThree, 0xc4u))
      << "groups (0, 1) and (0, 3): 0 | 1 << 2 | 0 << 4 | 3 << 6";
  const Outcome tied = Spcompress("x8.max", {kNine, kOne, kTwo, kThree, kOne, kOne, kOne, kTwo});
  ASSERT_TRUE(std::holds_alternative<Undefined>(tied));
  EXPECT_THAT(std::get<Undefined>(tied).why, ::testing::HasSubstr("group 1 (TMEM lane 0 columns 4..7)"));
}

// With .red, .rowop and .abs also give the reduction, over every word the
// lane loaded (PTX 9.7.16.8.3: "the data that is loaded across columns in
// each lane"), and .NaN changes only the reduction (PTX 9.4 9.7.18.8.3).
TEST(Tcgen05SemanticsTest, SpcompressWithRedReducesEveryLoadedWord) {
  const std::vector<std::uint32_t> row = {kOne, kQuietNan, kThree, kTwo, kFour, kHalf, kMinusSix, kQuarter};
  // Kept: the NaN and 3 (1, 2), 4 and 0.5 (0, 1): 1 | 2 << 2 | 0 << 4 | 1 << 6 = 0x49. The NaN is left
  // out of the reduction without .NaN (tcgen05.ld.infer.red-nan).
  EXPECT_THAT(SpcompressLane("x8.max", row, /*red=*/true), ElementsAre(kQuietNan, kThree, kFour, kHalf, 0x49u, kFour));
  EXPECT_THAT(SpcompressLane("x8.max.NaN", row, /*red=*/true),
              ElementsAre(kQuietNan, kThree, kFour, kHalf, 0x49u, 0x7fffffffu))
      << "the same kept pair; the reduction is canonical NaN";
  // .abs: 4 and -6 (0, 2) of the second group, and redval |-6|.
  EXPECT_THAT(SpcompressLane("x8.max.abs", row, /*red=*/true),
              ElementsAre(kQuietNan, kThree, kFour, kMinusSix, 0x89u, kSix));
  // Two NaNs crowd 9 out of the kept pair, but not out of the reduction.
  EXPECT_THAT(SpcompressLane("x8.max", {kQuietNan, kNegativeNan, kNine, kOne, kTwo, kThree, kFour, kFive}, true),
              ElementsAre(kQuietNan, kNegativeNan, kFour, kFive, 0xe4u, kNine));
}

// mdata holds 16 indices a register, element j in bits 2(j%16)..2(j%16)+1,
// the unused bits zero (tcgen05.ld.infer.spcompress-packing; PTX 9.4
// 9.7.10.30: "zero extension is applied"); Table 60 sizes both vectors.
TEST(Tcgen05SemanticsTest, SpcompressMetadataPacking) {
  std::vector<std::uint32_t> ascending;  // 0.0, 1.0, 2.0, ...: each group keeps (2, 3), or (0, 1) with .min
  for (int column = 0; column < 128; ++column) ascending.push_back(std::bit_cast<std::uint32_t>(float(column)));
  const std::vector<std::uint32_t> x128 = SpcompressLane("x128.max", ascending);
  ASSERT_EQ(x128.size(), 64u + 4u);
  EXPECT_EQ(x128[0], std::bit_cast<std::uint32_t>(2.0f));
  EXPECT_EQ(x128[33], std::bit_cast<std::uint32_t>(67.0f)) << "element 33: group 16, index 3";
  EXPECT_THAT(std::vector<std::uint32_t>(x128.begin() + 64, x128.end()),
              ElementsAre(0xeeeeeeeeu, 0xeeeeeeeeu, 0xeeeeeeeeu, 0xeeeeeeeeu));
  const std::vector<std::uint32_t> x64 =
      SpcompressLane("x64.min", std::vector<std::uint32_t>(ascending.begin(), ascending.begin() + 64));
  EXPECT_THAT(std::vector<std::uint32_t>(x64.begin() + 32, x64.end()), ElementsAre(0x44444444u, 0x44444444u));
  EXPECT_THAT(SpcompressLane("x4.max", {kOne, kTwo, kThree, kFour}), ElementsAre(kThree, kFour, 0xeu))
      << "x4: four bits of mdata, zero-extended";
}

// BruteForceKept checks one lane's .spcompress result against its loaded
// words, group by group: the indices are two distinct ones of the group in
// rising order, cdata is those words, every NaN is kept, and no word left
// out is preferred to one kept (PTX 9.4 9.7.10.30). It returns what is
// wrong, or "".
std::string BruteForceKept(const QualifierSet& q, absl::Span<const std::uint32_t> loaded,
                           absl::Span<const std::uint32_t> cdata, absl::Span<const std::uint32_t> mdata) {
  const bool max = q.Has(tcgen05::kRedOp, tcgen05::kMax);
  const auto key = [&](std::uint32_t bits) { return FloatKey(q.Present(tcgen05::kAbs) ? bits & 0x7fffffffu : bits); };
  const auto is_nan = [](std::uint32_t bits) { return std::isnan(std::bit_cast<float>(bits)); };
  for (size_t group = 0; group < loaded.size() / 4; ++group) {
    std::array<int, 2> index{};
    for (int k = 0; k < 2; ++k) {
      const size_t j = 2 * group + k;
      index[k] = static_cast<int>(mdata[j / 16] >> (2 * (j % 16)) & 3u);
      if (cdata[j] != loaded[4 * group + index[k]]) return absl::StrCat("cdata ", j, " is not column ", index[k]);
    }
    if (index[0] >= index[1]) return absl::StrCat("group ", group, " indices ", index[0], ", ", index[1]);
    for (int i = 0; i < 4; ++i) {
      if (i == index[0] || i == index[1]) continue;
      const std::uint32_t left = loaded[4 * group + i];
      if (is_nan(left)) return absl::StrCat("group ", group, " leaves a NaN out");
      for (int kept : index) {
        const std::uint32_t value = loaded[4 * group + kept];
        if (!is_nan(value) && (max ? key(left) > key(value) : key(left) < key(value))) {
          return absl::StrCat("group ", group, " leaves column ", i, " out for column ", kept);
        }
      }
    }
  }
  for (size_t bit = loaded.size(); bit < 32 * mdata.size(); ++bit) {
    if (mdata[bit / 32] >> (bit % 32) & 1u) return absl::StrCat("mdata bit ", bit, " is set");
  }
  return "";
}

// Every legal .spcompress form of PTX 9.4 on sm_107a, on random words with
// NaNs, zeros of both signs and subnormals among them: the kept pairs agree
// with a brute force, redval with BruteForceRedval over every loaded word,
// and a larger .num's cdata extends a smaller one's.
TEST(Tcgen05SemanticsTest, SpcompressIsTheBruteForceSelection) {
  constexpr unsigned kSeed = 27;
  constexpr std::uint32_t kSpecial[] = {kPlusZero,   kMinusZero,  kQuietNan,   kNegativeNan, 0x7f800000u,
                                        0xff800000u, 0x00000001u, 0x80000001u, kOne,         kMinusOne};
  std::mt19937 random(kSeed);
  TensorMemory tmem;
  // One special word in every eight columns, so never two in a group, and
  // otherwise finite random words of both signs (bit 30 clear): no group
  // has a tie or more than one NaN.
  for (int lane = 0; lane < kTmemLanes; ++lane) {
    for (int column = 0; column < kTmemColumns; ++column) {
      const std::uint32_t word = static_cast<std::uint32_t>(random()) & 0xbfffffffu;
      tmem.Set(lane, column, (column + lane) % 8 == 0 ? kSpecial[(column / 8 + lane) % std::size(kSpecial)] : word);
    }
  }
  const Target sm107a = *ParseTarget("sm_107a");
  int forms = 0;
  std::map<std::string, LaneValues> by_form;
  for (const QualifierSet& q : LegalQualifierSets(tcgen05::Spec(), {9, 4}, sm107a)) {
    if (!q.Present(tcgen05::kSpcompress)) continue;
    ++forms;
    const CheckedInstruction instruction = *StandardInstruction(tcgen05::Spec(), q, {9, 4}, sm107a);
    QualifierSet dense_set;  // the plain .32x32b load of the same columns
    for (int axis : {tcgen05::kSync, tcgen05::kAligned, tcgen05::kShape, tcgen05::kNum})
      dense_set.Set(axis, q.Get(axis));
    dense_set.Set(tcgen05::kType, tcgen05::kB32);
    const CheckedInstruction dense = *StandardInstruction(tcgen05::Spec(), dense_set, {9, 4}, sm107a);
    const LaneValues loaded = ValuesOf(Execute(dense, tmem, TmemAddress(0, 64), 0));
    const LaneValues values = ValuesOf(Execute(instruction, tmem, TmemAddress(0, 64), 0));
    const int cdata = instruction.signature().destination_count;
    const int mdata = instruction.signature().metadata_count;
    for (int lane = 0; lane < 32; ++lane) {
      const absl::Span<const std::uint32_t> words = values.lane(lane);
      ASSERT_EQ(words.size(), static_cast<size_t>(cdata + mdata + (q.Present(tcgen05::kRed) ? 1 : 0)));
      ASSERT_EQ(BruteForceKept(q, loaded.lane(lane), words.first(cdata), words.subspan(cdata, mdata)), "")
          << PrintForm(instruction.form()) << " lane " << lane << ", seed " << kSeed;
      if (q.Present(tcgen05::kRed)) {
        ASSERT_EQ(words.back(), BruteForceRedval(q, {loaded.lane(lane).begin(), loaded.lane(lane).end()}))
            << PrintForm(instruction.form()) << " lane " << lane;
      }
    }
    by_form.emplace(PrintOpcode(Family::kTcgen05Ld, q), values);
  }
  // 6 .num x 2 .rowop x 2 .abs, and with .red x 2 .NaN as well (Syntax).
  EXPECT_EQ(forms, 24 + 48);
  int pairs = 0;
  for (const auto& [opcode, values] : by_form) {
    const auto x8 = opcode.find(".x8.");
    if (x8 == std::string::npos) continue;
    const auto x4 = by_form.find(absl::StrCat(opcode.substr(0, x8), ".x4.", opcode.substr(x8 + 4)));
    if (x4 == by_form.end()) continue;
    for (int lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(values.lane(lane).subspan(0, 2), x4->second.lane(lane).subspan(0, 2)) << opcode << " lane " << lane;
    }
    ++pairs;
  }
  EXPECT_GT(pairs, 0);
}

// A warp reading a TMEM lane outside its quarter is undefined, whichever
// shape or access reads it (PTX 9.7.16.8.1).
TEST(Tcgen05SemanticsTest, LanesOutsideTheWarpQuarterAreUndefined) {
  const TensorMemory tmem = TaggedTmem();
  CheckedInstruction wide = Check(Load("32x32b.x1", 1));
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(0, 0), 1)), RuntimeHazard::kTmemLaneOutsideWarpQuarter);
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(32, 0), 1)), std::nullopt);
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(32, 0), 5)), std::nullopt) << "warp 5 is in quarter 1";
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(64, 0), 6)), std::nullopt) << "warp 6 is in quarter 2";
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(0, 0), 4)), std::nullopt) << "warp 4 is in quarter 0";
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(96, 0), 2)), RuntimeHazard::kTmemLaneOutsideWarpQuarter);
  EXPECT_EQ(HazardOf(Execute(wide, tmem, TmemAddress(1, 0), 0)), RuntimeHazard::kTmemLaneOutsideWarpQuarter)
      << "lane 1 + 31 = 32 is the next quarter";
  CheckedInstruction narrow = Check(Load("16x64b.x1", 1));
  EXPECT_EQ(HazardOf(Execute(narrow, tmem, TmemAddress(16, 0), 0)), std::nullopt) << "lanes 16..31";
  EXPECT_EQ(HazardOf(Execute(narrow, tmem, TmemAddress(17, 0), 0)), RuntimeHazard::kTmemLaneOutsideWarpQuarter);
  CheckedInstruction split = Check(Load("16x32bx2.x1", 1, ", 16"));
  EXPECT_EQ(HazardOf(Execute(split, tmem, TmemAddress(0, 0), 0, TmemAddress(16, 0))), std::nullopt);
  EXPECT_EQ(HazardOf(Execute(split, tmem, TmemAddress(0, 0), 0, TmemAddress(32, 0))),
            RuntimeHazard::kTmemLaneOutsideWarpQuarter)
      << "the second access moved to lanes 32..47";
}

// A read past column 511 or lane 127, including a .16x32bx2 second access
// whose 32-bit base wraps, is undefined (PTX 9.7.16.1; [INFERRED]).
TEST(Tcgen05SemanticsTest, CellsOutsideTensorMemoryAreUndefined) {
  const TensorMemory tmem = TaggedTmem();
  CheckedInstruction x2 = Check(Load("32x32b.x2", 2));
  EXPECT_EQ(HazardOf(Execute(x2, tmem, TmemAddress(0, 510), 0)), std::nullopt);
  EXPECT_EQ(HazardOf(Execute(x2, tmem, TmemAddress(0, 511), 0)), RuntimeHazard::kAddressOutsideSpace) << "column 512";
  EXPECT_EQ(HazardOf(Execute(x2, tmem, TmemAddress(128, 0), 0)), RuntimeHazard::kAddressOutsideSpace)
      << "lane 128 is outside the memory before it is outside the quarter";
  CheckedInstruction packed = Check(Load("32x32b.x128.pack::16b", 128));
  EXPECT_EQ(HazardOf(Execute(packed, tmem, TmemAddress(0, 256), 0)), std::nullopt) << "columns 256..511";
  EXPECT_EQ(HazardOf(Execute(packed, tmem, TmemAddress(0, 257), 0)), RuntimeHazard::kAddressOutsideSpace);
  CheckedInstruction split = Check(Load("16x32bx2.x1", 1, ", -1"));
  EXPECT_EQ(HalfSplitOffset(split), -1);
  EXPECT_EQ(HazardOf(Execute(split, tmem, TmemAddress(0, 0), 0)), RuntimeHazard::kAddressOutsideSpace)
      << "taddr - 1 is lane 0xffff, column 0xffff";
  EXPECT_EQ(HazardOf(Execute(split, tmem, TmemAddress(0, 1), 0)), std::nullopt) << "taddr - 1 is column 0";
}

}  // namespace
}  // namespace matload
