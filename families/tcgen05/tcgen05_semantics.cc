#include "families/tcgen05/tcgen05_semantics.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <variant>

#include "absl/strings/str_cat.h"
#include "families/tcgen05/tcgen05_ld_table.h"

namespace matload {
namespace {

// kCanonicalNanF32 is the NaN a .f32 reduction returns. [INFERRED] The
// tcgen05 section does not define it; redux.sync .f32 (PTX 9.7.13.12), the
// analogy tcgen05.ld.infer.red-nan draws, returns "canonical NaN", taken here to be
// 0x7fffffff, the .f32 NaN NVIDIA GPUs generate; it needs a device check.
constexpr std::uint32_t kCanonicalNanF32 = 0x7fffffffu;

// ShapeCell is the 32-bit cell that one destination register reads, as a
// lane and column offset from the base of one access, before .pack::16b
// widens it.
struct ShapeCell {
  int access = 0;
  int lane = 0;
  int column = 0;
};

// CellOf is docs/spec-decisions.md tcgen05.ld.layout's per-thread table, [2nd:S-CUTE copy_traits_sm100
// SM100_TMEM_LOAD_* DstLayout, decoded; 2nd:S-TRITON getTileLayout agrees;
// PTX Figures 183-187 are images]: register `reg` of thread `thread` under
// `shape`, with repeat index k = 0 .. .num-1.
ShapeCell CellOf(tcgen05::Shape shape, int thread, int reg) {
  switch (shape) {
    case tcgen05::k32x32b:
      // r[k]: lane t, column k. One lane per thread, so "32x32b" is 32
      // lanes of 32 bits per repeat (PTX 9.7.16.8.3 Data Movement Shape).
      return {.lane = thread, .column = reg};
    case tcgen05::k16x64b:
      // r[k]: lane (t>>2) + 8*(t&1), column ((t>>1)&1) + 2k.
      return {.lane = (thread >> 2) + 8 * (thread & 1), .column = ((thread >> 1) & 1) + 2 * reg};
    case tcgen05::k16x128b: {
      // r[2k+j], j = 0, 1: lane (t>>2) + 8j, column (t&3) + 4k.
      const int repeat = reg / 2;
      const int j = reg % 2;
      return {.lane = (thread >> 2) + 8 * j, .column = (thread & 3) + 4 * repeat};
    }
    case tcgen05::k16x256b: {
      // r[4k+j], j = 0..3: lane (t>>2) + 8*(j>>1), column 2*(t&3) + (j&1) + 8k.
      const int repeat = reg / 4;
      const int j = reg % 4;
      return {.lane = (thread >> 2) + 8 * (j >> 1), .column = 2 * (thread & 3) + (j & 1) + 8 * repeat};
    }
    case tcgen05::k16x32bx2:
      // Two .16x32b accesses (PTX 9.7.16.8.3): threads 0-15 read lane t of
      // the access at taddr, threads 16-31 lane t-16 of the access at
      // taddr + immHalfSplitoff; r[k] is column k of that access.
      return {.access = thread / 16, .lane = thread % 16, .column = reg};
  }
  return {};
}

// IsNan says whether the bits are a .f32 NaN.
bool IsNan(std::uint32_t bits) { return std::isnan(std::bit_cast<float>(bits)); }

// FloatBefore orders two non-NaN .f32 values for .min/.max, with -0.0 below
// +0.0. [INFERRED] redux.sync .f32 (PTX 9.7.13.12) says "+0.0 > -0.0";
// tcgen05.ld.infer.red-nan carries that over to tcgen05.ld.red.
bool FloatBefore(std::uint32_t a, std::uint32_t b) {
  const float x = std::bit_cast<float>(a);
  const float y = std::bit_cast<float>(b);
  return x < y || (x == y && std::signbit(x) && !std::signbit(y));
}

// ReduceF32 is .red's .min or .max over a lane's .f32 values. [INFERRED]
// tcgen05.ld.infer.red-nan, by analogy with redux.sync .f32 (PTX 9.7.13.12), since the
// tcgen05 section does not define .abs and .NaN [UNKNOWN there]:
//   .abs  reduces the absolute values (the registers still get the data);
//   .NaN  makes the result canonical NaN if any value is NaN;
//   without .NaN, NaNs are left out, and all-NaN gives canonical NaN.
// Subnormals are compared as they are, not flushed [INFERRED].
std::uint32_t ReduceF32(absl::Span<const std::uint32_t> values, bool max, bool abs, bool nan_wins) {
  std::optional<std::uint32_t> best;
  for (std::uint32_t value : values) {
    if (abs) value &= 0x7fffffffu;
    if (IsNan(value)) {
      if (nan_wins) return kCanonicalNanF32;
      continue;
    }
    if (!best.has_value() || (max ? FloatBefore(*best, value) : FloatBefore(value, *best))) best = value;
  }
  return best.value_or(kCanonicalNanF32);
}

// ReduceInteger is .red's .min or .max over a lane's .u32 or .s32 values
// (PTX 9.7.16.8.3: the reduction runs over the data loaded across columns
// in each lane).
std::uint32_t ReduceInteger(absl::Span<const std::uint32_t> values, bool max, bool is_signed) {
  std::uint32_t best = values.front();
  for (std::uint32_t value : values) {
    const bool before = is_signed ? static_cast<std::int32_t>(value) < static_cast<std::int32_t>(best) : value < best;
    const bool after = is_signed ? static_cast<std::int32_t>(value) > static_cast<std::int32_t>(best) : value > best;
    if (max ? after : before) best = value;
  }
  return best;
}

// Reduce is the redval of one lane: .red's operation over the words the
// lane loaded, in the form's .type (PTX 9.7.16.8.3).
std::uint32_t Reduce(const QualifierSet& q, absl::Span<const std::uint32_t> registers) {
  const bool max = q.Has(tcgen05::kRedOp, tcgen05::kMax);
  if (q.Has(tcgen05::kType, tcgen05::kF32)) {
    return ReduceF32(registers, max, q.Present(tcgen05::kAbs), q.Present(tcgen05::kNaN));
  }
  return ReduceInteger(registers, max, q.Has(tcgen05::kType, tcgen05::kS32));
}

// kGroup is .sp::2:4's group: two of every four elements are kept.
constexpr int kGroup = 4;
// kIndexBits is .idxsize .b2: the size of one kept element's index.
constexpr int kIndexBits = 2;

// Preferred says whether .rowop with `max` keeps `a` before `b`: the greater
// (.max) or the lesser (.min) of two non-NaN .f32 values, compared by
// magnitude with `abs`, -0.0 below +0.0 (PTX 9.4 9.7.10.30 spcompress,
// Notes), subnormals as they are (tcgen05.ld.infer.spcompress-subnormals).
bool Preferred(std::uint32_t a, std::uint32_t b, bool max, bool abs) {
  if (abs) {
    a &= 0x7fffffffu;
    b &= 0x7fffffffu;
  }
  return max ? FloatBefore(b, a) : FloatBefore(a, b);
}

// KeptPair is which two of a group of four .f32 words .spcompress keeps, in
// column order: every NaN ("NaN values in the input will always have their
// indices produced in the output", PTX 9.4 9.7.10.30), then the preferred
// values. nullopt where the text leaves the choice to the implementation:
// three or more NaNs, or a tie between the last value kept and the first
// left out.
std::optional<std::array<int, 2>> KeptPair(absl::Span<const std::uint32_t> group, bool max, bool abs) {
  std::vector<int> kept;
  std::vector<int> numbers;
  for (int i = 0; i < kGroup; ++i) (IsNan(group[i]) ? kept : numbers).push_back(i);
  if (kept.size() > 2) return std::nullopt;
  std::stable_sort(numbers.begin(), numbers.end(),
                   [&](int a, int b) { return Preferred(group[a], group[b], max, abs); });
  const size_t wanted = 2 - kept.size();
  if (wanted > 0 && !Preferred(group[numbers[wanted - 1]], group[numbers[wanted]], max, abs)) return std::nullopt;
  kept.insert(kept.end(), numbers.begin(), numbers.begin() + static_cast<long>(wanted));
  std::sort(kept.begin(), kept.end());
  return std::array<int, 2>{kept[0], kept[1]};
}

// Compress is .spcompress of one lane: for each group g of four `loaded`
// words, the kept pair to cdata[2g] and cdata[2g+1] and their indices in the
// group to mdata, kept element j's in bits 2(j%16)..2(j%16)+1 of mdata[j/16],
// the rest zero (tcgen05.ld.infer.spcompress-packing). It returns the first
// group whose pair the implementation chooses (KeptPair), having written
// nothing of it and after it, or nullopt.
std::optional<int> Compress(const QualifierSet& q, absl::Span<const std::uint32_t> loaded,
                            absl::Span<std::uint32_t> cdata, absl::Span<std::uint32_t> mdata) {
  const bool max = q.Has(tcgen05::kRedOp, tcgen05::kMax);
  const bool abs = q.Present(tcgen05::kAbs);
  constexpr int kIndicesPerWord = 32 / kIndexBits;
  std::fill(mdata.begin(), mdata.end(), 0u);
  for (int group = 0; group < static_cast<int>(loaded.size()) / kGroup; ++group) {
    const std::optional<std::array<int, 2>> pair = KeptPair(loaded.subspan(kGroup * group, kGroup), max, abs);
    if (!pair.has_value()) return group;
    for (int k = 0; k < 2; ++k) {
      const int kept = 2 * group + k;
      cdata[kept] = loaded[kGroup * group + (*pair)[k]];
      mdata[kept / kIndicesPerWord] |= static_cast<std::uint32_t>((*pair)[k])
                                       << (kIndexBits * (kept % kIndicesPerWord));
    }
  }
  return std::nullopt;
}

}  // namespace

Tcgen05Layout Tcgen05Layout::For(const CheckedInstruction& instruction) {
  const QualifierSet& q = instruction.form().qualifiers;
  const auto shape = static_cast<tcgen05::Shape>(q.Get(tcgen05::kShape));
  const bool packed = q.Present(tcgen05::kPack);
  Tcgen05Layout layout;
  // Table 49; .spcompress's .32x32b.xN loads N words and keeps half.
  layout.words_ =
      q.Present(tcgen05::kSpcompress) ? 1 << q.Get(tcgen05::kNum) : instruction.signature().destination_count;
  layout.halves_.resize(kWarpLanes * layout.words_ * 2);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int reg = 0; reg < layout.words_; ++reg) {
      const ShapeCell cell = CellOf(shape, lane, reg);
      for (int half = 0; half < 2; ++half) {
        Tcgen05Source& source = layout.halves_[(lane * layout.words_ + reg) * 2 + half];
        source.access = cell.access;
        source.lane = cell.lane;
        if (packed) {
          // .pack::16b (PTX 9.7.16.8.3, Packing and Unpacking; tcgen05.ld.infer.pack-16b-halves,
          // medium-high confidence, Figure 193 is an image): the table reads
          // a virtual cell c = the low 16 bits of physical columns 2c (bits
          // 0-15 of the register) and 2c+1 (bits 16-31). [2nd:S-CUTE *_16b
          // ValID strides (1, 32)]
          source.column = 2 * cell.column + half;
          source.cell_bit = 0;
        } else {
          source.column = cell.column;
          source.cell_bit = 16 * half;
        }
      }
    }
  }
  return layout;
}

std::optional<std::int64_t> HalfSplitOffset(const CheckedInstruction& instruction) {
  if (!instruction.signature().half_split_offset) return std::nullopt;
  // Legality placed it last, after [taddr] (PTX 9.7.16.8.3 Syntax).
  return std::get<ImmediateOperand>(instruction.form().operands.back()).value;
}

TmemCell ResolveSource(const Tcgen05Source& source, std::uint32_t taddr, std::int64_t split_offset) {
  // taddr is (lane << 16) | column (PTX 9.7.16.1); the second
  // access of .16x32bx2 is based at the 32-bit address taddr + offset.
  const std::uint32_t base =
      source.access == 0 ? taddr : static_cast<std::uint32_t>(static_cast<std::int64_t>(taddr) + split_offset);
  return {.lane = static_cast<std::int64_t>(base >> 16) + source.lane,
          .column = static_cast<std::int64_t>(base & 0xffffu) + source.column};
}

Outcome ExecuteTcgen05Ld(const CheckedInstruction& instruction, const Tcgen05Layout& layout, const TensorMemory& tmem,
                         std::uint32_t taddr, int warp, std::optional<std::int64_t> split_offset) {
  const std::int64_t offset = split_offset.has_value() ? *split_offset : HalfSplitOffset(instruction).value_or(0);
  std::vector<TmemCell> cells(kWarpLanes * layout.words() * 2);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < layout.words(); ++word) {
      for (int half = 0; half < 2; ++half) {
        cells[(lane * layout.words() + word) * 2 + half] = ResolveSource(layout.At(lane, word, half), taddr, offset);
      }
    }
  }
  const QualifierSet& q = instruction.form().qualifiers;
  const bool compresses = q.Present(tcgen05::kSpcompress);
  // Reader names the lane and the register (with .spcompress, the loaded
  // word) that read cells[i].
  const auto reader = [&](size_t i) {
    return absl::StrCat("lane ", i / 2 / layout.words(), compresses ? " word " : " register ", i / 2 % layout.words());
  };
  // Outside the 128 x 512 memory there is nothing to read: PTX 9.7.16.1
  // sizes TMEM (PTX 9.7.16.1) and gives no result for other addresses
  // [INFERRED: undefined]. Checked before the quarter, since such a lane is
  // outside every quarter too.
  for (size_t i = 0; i < cells.size(); ++i) {
    const TmemCell& cell = cells[i];
    if (cell.lane < 0 || cell.lane >= kTmemLanes || cell.column < 0 || cell.column >= kTmemColumns) {
      return Undefined{RuntimeHazard::kAddressOutsideSpace,
                       absl::StrCat(reader(i), " reads TMEM lane ", cell.lane, " column ", cell.column,
                                    ", outside the ", kTmemLanes, " x ", kTmemColumns, " Tensor Memory")};
    }
  }
  // Warp (rank % 4) = q reaches only lanes 32q .. 32q+31 (PTX 9.7.16.8.1;
  // PTX 9.7.16.8.1; the table's tcgen05.ld.ub.lane-quarter rule).
  const int first_lane = WarpQuarterFirstLane(warp);
  for (size_t i = 0; i < cells.size(); ++i) {
    const TmemCell& cell = cells[i];
    if (cell.lane < first_lane || cell.lane >= first_lane + kTmemLanesPerWarp) {
      return Undefined{RuntimeHazard::kTmemLaneOutsideWarpQuarter,
                       absl::StrCat(reader(i), " reads TMEM lane ", cell.lane, "; warp ", warp,
                                    " may access only lanes ", first_lane, "..", first_lane + kTmemLanesPerWarp - 1)};
    }
  }
  // .red: r (or cdata) still receives the data and redval the reduction,
  // appended after the registers (PTX 9.7.16.8.3; docs/spec-decisions.md
  // tcgen05.ld.layout).
  const bool reduces = q.Present(tcgen05::kRed);
  const int destinations = instruction.signature().destination_count;
  const int metadata = instruction.signature().metadata_count;
  LaneValues values = LaneValues::Zeroed(destinations + metadata + (reduces ? 1 : 0));
  std::vector<std::uint32_t> loaded(layout.words());
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    for (int word = 0; word < layout.words(); ++word) {
      std::uint32_t value = 0;
      for (int half = 0; half < 2; ++half) {
        const TmemCell& cell = cells[(lane * layout.words() + word) * 2 + half];
        const std::uint32_t bits =
            tmem.At(static_cast<int>(cell.lane), static_cast<int>(cell.column)) >> layout.At(lane, word, half).cell_bit;
        value |= (bits & 0xffffu) << (16 * half);
      }
      loaded[word] = value;
    }
    const absl::Span<std::uint32_t> registers = values.lane(lane);
    if (!compresses) {
      std::copy(loaded.begin(), loaded.end(), registers.begin());
    } else if (const std::optional<int> group =
                   Compress(q, loaded, registers.first(destinations), registers.subspan(destinations, metadata))) {
      const TmemCell& first = cells[(lane * layout.words() + kGroup * *group) * 2];
      return Undefined{RuntimeHazard::kTiedSelection,
                       absl::StrCat("lane ", lane, " group ", *group, " (TMEM lane ", first.lane, " columns ",
                                    first.column, "..", first.column + kGroup - 1,
                                    ") has more than two candidates for the kept pair; which are kept is "
                                    "implementation-specific")};
    }
    if (reduces) registers.back() = Reduce(q, loaded);
  }
  return values;
}

}  // namespace matload
