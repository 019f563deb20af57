// tcgen05.ld semantics: the Tensor Memory of a CTA, which TMEM cell every
// 16-bit half of every word a lane loads comes from, and the registers (and
// .red's redval) one execution gives (PTX 9.0 9.7.16.1, 9.7.16.8.1,
// 9.7.16.8.3; .spcompress's in-line 2:4 compression, PTX 9.4 9.7.18.8.3 and
// 9.7.10.30; docs/spec-decisions.md tcgen05.ld.*).
//
// As for ldmatrix, the layout is compiled into a table once per qualifier
// set, relative to the base of each access, so the immediates and run-time
// addresses only enter at execution.
#ifndef MATLOAD_FAMILIES_TCGEN05_TCGEN05_SEMANTICS_H_
#define MATLOAD_FAMILIES_TCGEN05_TCGEN05_SEMANTICS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "reference/legality.h"
#include "reference/outcome.h"
#include "reference/run_geometry.h"

namespace matload {

// kTmemLanesPerWarp is the size of a warp's lane quarter: warp w reaches only
// lanes 32*(w%4) .. 32*(w%4)+31 (PTX 9.7.16.8.1).
inline constexpr int kTmemLanesPerWarp = 32;

// TmemAddress packs a lane and a column into a 32-bit TMEM address: lane in
// bits 31..16, column in bits 15..0 (PTX 9.7.16.1).
constexpr std::uint32_t TmemAddress(int lane, int column) {
  return static_cast<std::uint32_t>(lane) << 16 | static_cast<std::uint32_t>(column);
}

// WarpQuarterFirstLane is the first TMEM lane that warp `warp` (its rank in
// the CTA, not its warpgroup) may access.
constexpr int WarpQuarterFirstLane(int warp) { return kTmemLanesPerWarp * (warp % 4); }

// TensorMemory is one CTA's Tensor Memory: 128 x 512 cells of 32 bits, all
// zero at first. The spec leaves the contents after tcgen05.alloc unknown
// (PTX 9.7.16.1 [UNKNOWN]), so a harness writes every cell it compares.
class TensorMemory {
 public:
  TensorMemory() : cells_(kTmemLanes * kTmemColumns, 0) {}

  // At is the cell at (lane, column); both must be inside the memory.
  std::uint32_t At(int lane, int column) const { return cells_[lane * kTmemColumns + column]; }
  // Set writes the cell at (lane, column); both must be inside the memory.
  void Set(int lane, int column, std::uint32_t value) { cells_[lane * kTmemColumns + column] = value; }

 private:
  std::vector<std::uint32_t> cells_;
};

// Tcgen05Source is the provenance of one 16-bit half of a loaded word:
// bits [cell_bit, cell_bit + 16) of the TMEM cell `lane` lanes and
// `column` columns from the base of access `access`. Access 0 is based at
// taddr; access 1, used by .16x32bx2 only, at taddr + immHalfSplitoff.
struct Tcgen05Source {
  int access = 0;
  int lane = 0;
  int column = 0;
  int cell_bit = 0;  // 0 or 16; always 0 with .pack::16b
  friend bool operator==(const Tcgen05Source&, const Tcgen05Source&) = default;
};

// Tcgen05Layout is the compiled layout of one tcgen05.ld qualifier set.
class Tcgen05Layout {
 public:
  // For builds the layout of a checked tcgen05.ld instruction.
  static Tcgen05Layout For(const CheckedInstruction& instruction);

  // words is the number of 32-bit words each lane loads: its destination
  // registers (Table 49), or with .spcompress the num words it compresses
  // into num / 2 (.32x32b.xN reads N columns, Table 59). .red's redval is
  // not one of them.
  int words() const { return words_; }
  // At is the provenance of half `half` (0: bits 0-15, 1: bits 16-31) of
  // loaded word `word` of lane `lane`.
  const Tcgen05Source& At(int lane, int word, int half) const { return halves_[(lane * words_ + word) * 2 + half]; }

 private:
  int words_ = 0;
  std::vector<Tcgen05Source> halves_;
};

// HalfSplitOffset is the immHalfSplitoff written in a .16x32bx2 instruction,
// or nullopt for the other shapes, which have no second access.
std::optional<std::int64_t> HalfSplitOffset(const CheckedInstruction& instruction);

// TmemCell is an absolute TMEM position: a lane and a column. Either may be
// outside the memory; ExecuteTcgen05Ld checks.
struct TmemCell {
  std::int64_t lane = 0;
  std::int64_t column = 0;
  friend bool operator==(const TmemCell&, const TmemCell&) = default;
};

// ResolveSource turns a layout entry into the absolute cell it reads, for
// the base address `taddr` and the second access's offset `split_offset`
// (ignored by access 0). The second base is the 32-bit sum
// taddr + split_offset, so an offset of (lanes << 16) | columns moves lanes
// too (PTX 9.7.16.8.3: "the base address of the second access is specified
// by taddr+immHalfSplitoff").
TmemCell ResolveSource(const Tcgen05Source& source, std::uint32_t taddr, std::int64_t split_offset);

// ExecuteTcgen05Ld predicts one execution of `instruction` by warp `warp`
// (its rank in the CTA) on `tmem`. `taddr` is the base address of the
// collective load, the same in every lane as the spec requires: the value
// of the address operand, register plus any offset written after it.
// `split_offset` overrides the immHalfSplitoff written in a .16x32bx2
// instruction; nullopt takes the written one.
//
// The result is a LaneValues whose lanes[t] holds lane t's destination
// registers in the order they are written, r[0] .. r[registers-1] (cdata
// with .spcompress), then .spcompress's mdata registers, then, for
// tcgen05.ld.red only, the lane's redval, the reduction of every word the
// lane loaded (PTX 9.7.16.8.3: "the data that is loaded across columns in
// each lane").
//
// .spcompress keeps two of each group of four loaded words (PTX 9.4
// 9.7.18.8.3 and 9.7.10.30 spcompress): the greatest (.max) or least (.min),
// by magnitude with .abs, -0.0 below +0.0, and every NaN first; cdata gets
// them as loaded, and mdata their indices in the group
// (tcgen05.ld.infer.spcompress-packing).
//
// It is Undefined, and nothing is predicted, when a cell it reads lies
// outside the 128 x 512 memory (kAddressOutsideSpace; this is checked first),
// when it reads a lane outside warp `warp`'s quarter
// (kTmemLaneOutsideWarpQuarter), or, with .spcompress, when a group has
// more than two candidates for its kept pair: tied values, or three or more
// NaNs, of which the text lets the implementation choose (kTiedSelection).
Outcome ExecuteTcgen05Ld(const CheckedInstruction& instruction, const Tcgen05Layout& layout, const TensorMemory& tmem,
                         std::uint32_t taddr, int warp, std::optional<std::int64_t> split_offset = std::nullopt);

}  // namespace matload

#endif  // MATLOAD_FAMILIES_TCGEN05_TCGEN05_SEMANTICS_H_
