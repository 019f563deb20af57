#include "families/wmma/wmma_layouts.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "reference/form.h"
#include "reference/printer.h"

namespace matload {
namespace {

using wmma::kA;
using wmma::kB;
using wmma::kC;

constexpr Target Sm(int sm, TargetVariant variant = TargetVariant::kBaseline) { return Target{sm, variant}; }

// The architectures each source speaks for. wmma_extension picks its map
// from __CUDA_ARCH__: below 7.1 the Volta map, 7.1-7.9 the Turing map, 8.0
// and up the Ampere map, and was tested on sm_70, 75, 80, 89 and 90
// (docs/spec-decisions.md wmma.layout.*, "Dispatch quirk"). It says nothing of sm_100 and later.
const std::vector<Target>& Volta() {
  static const auto* const kTargets = new std::vector<Target>{Sm(70)};
  return *kTargets;
}
const std::vector<Target>& Turing() {
  static const auto* const kTargets = new std::vector<Target>{Sm(72), Sm(75)};
  return *kTargets;
}
const std::vector<Target>& AmpereToHopper() {
  static const auto* const kTargets = new std::vector<Target>{
      Sm(80), Sm(86), Sm(87), Sm(88), Sm(89), Sm(90), Sm(90, TargetVariant::kArchSpecific)};
  return *kTargets;
}

constexpr SpecRef kVoltaSource{"wmma.layout.sm70", "docs/spec-decisions.md wmma.layout.*: wmma_extension sm_70.hpp, A and C also GPGPU-Sim",
                               RuleSource::kSecondary};
constexpr SpecRef kTuringAmpereSource{"wmma.layout.sm75-sm80.m16n16k16",
                                      "docs/spec-decisions.md wmma.layout.*: wmma_extension sm_75.hpp and sm_80.hpp", RuleSource::kSecondary};
constexpr SpecRef kTf32Source{"wmma.layout.sm80.m16n16k8", "docs/spec-decisions.md wmma.layout.*: wmma_extension sm_80_tf32.hpp",
                              RuleSource::kSecondary};

// The layouts below are written as the docs/spec-decisions.md wmma.layout.* formulas decompose: the
// (row, col) each element-index bit adds, then each lane bit (t = lane&3 is
// lane bits 0-1, g = lane>>2 is lane bits 2-4).

// ThreadLanes is the lane part of every sm_75 and later layout: the four
// lanes of a quad (t = lane&3, lane bits 0-1) step `step` elements along
// the columns (or rows), and the eight quads (g = lane>>2, lane bits 2-4)
// count rows (or columns) 0..7.
std::array<MatrixCoord, kWarpLaneBits> ThreadLanes(bool quad_along_cols, int step) {
  if (quad_along_cols) return {{{0, step}, {0, 2 * step}, {1, 0}, {2, 0}, {4, 0}}};
  return {{{step, 0}, {2 * step, 0}, {0, 1}, {0, 2}, {0, 4}}};
}

constexpr bool kQuadAlongCols = true;
constexpr bool kQuadAlongRows = false;

// The layouts measured on the H100 with element-tagged data, for the forms
// no source covers, as the fitted bases of harness/gpu/wmma_device_test.cc.
constexpr SpecRef kHopperMeasurement{
    "wmma.layout.sm90.measured",
    "measured on an H100 (sm_90), driver 580.159.04, CUDA 13.0, 2026-11-22: reports/gpu-checks/wmma-h100-2026-11-22",
    RuleSource::kMeasured};

const std::vector<Target>& Hopper() {
  static const auto* const kTargets = new std::vector<Target>{Sm(90), Sm(90, TargetVariant::kArchSpecific)};
  return *kTargets;
}

// MeasuredLayout is one row of the measurement: the element basis and the
// quad direction and step of ThreadLanes.
struct MeasuredLayout {
  wmma::Matrix matrix;
  wmma::Shape shape;
  std::vector<wmma::Type> types;
  std::vector<MatrixCoord> element_bits;
  bool quad_along_cols;
  int quad_step;
};

std::vector<MeasuredLayout> HopperMeasurements() {
  using wmma::kBf16, wmma::kF16, wmma::kF32, wmma::kF64, wmma::kS32, wmma::kS4, wmma::kS8, wmma::kU4, wmma::kU8,
      wmma::kB1;
  const std::vector<wmma::Type> bytes = {kS8, kU8};
  const std::vector<wmma::Type> accumulators = {kF16, kF32, kS32};
  return {
      // A: rows by quad, columns by lane within the quad.
      {kA, wmma::kM16n16k16, bytes, {{0, 1}, {0, 2}, {8, 0}}, kQuadAlongCols, 4},
      {kA, wmma::kM16n16k16, {kBf16}, {{0, 1}, {8, 0}, {0, 8}}, kQuadAlongCols, 2},
      {kA, wmma::kM8n32k16, {kF16}, {{0, 1}, {0, 8}, {0, 0}, {0, 0}}, kQuadAlongCols, 2},
      {kA, wmma::kM8n32k16, bytes, {{0, 1}, {0, 2}}, kQuadAlongCols, 4},
      {kA, wmma::kM8n32k16, {kBf16}, {{0, 1}, {0, 8}}, kQuadAlongCols, 2},
      {kA, wmma::kM32n8k16, {kF16, kBf16}, {{0, 1}, {8, 0}, {0, 8}, {16, 0}}, kQuadAlongCols, 2},
      {kA, wmma::kM32n8k16, bytes, {{0, 1}, {0, 2}, {8, 0}, {16, 0}}, kQuadAlongCols, 4},
      {kA, wmma::kM8n8k4, {kF64}, {}, kQuadAlongCols, 1},
      {kA, wmma::kM8n8k32, {kS4, kU4}, {{0, 1}, {0, 2}, {0, 4}}, kQuadAlongCols, 8},
      {kA, wmma::kM8n8k128, {kB1}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}, kQuadAlongCols, 32},
      // B: columns by quad, rows (k) by lane within the quad.
      {kB, wmma::kM16n16k16, bytes, {{1, 0}, {2, 0}, {0, 8}}, kQuadAlongRows, 4},
      {kB, wmma::kM16n16k16, {kBf16}, {{1, 0}, {8, 0}, {0, 8}}, kQuadAlongRows, 2},
      {kB, wmma::kM8n32k16, {kF16, kBf16}, {{1, 0}, {0, 8}, {8, 0}, {0, 16}}, kQuadAlongRows, 2},
      {kB, wmma::kM8n32k16, bytes, {{1, 0}, {2, 0}, {0, 8}, {0, 16}}, kQuadAlongRows, 4},
      {kB, wmma::kM32n8k16, {kF16}, {{1, 0}, {8, 0}, {0, 0}, {0, 0}}, kQuadAlongRows, 2},
      {kB, wmma::kM32n8k16, {kBf16}, {{1, 0}, {8, 0}}, kQuadAlongRows, 2},
      {kB, wmma::kM32n8k16, bytes, {{1, 0}, {2, 0}}, kQuadAlongRows, 4},
      {kB, wmma::kM8n8k4, {kF64}, {}, kQuadAlongRows, 1},
      {kB, wmma::kM8n8k32, {kS4, kU4}, {{1, 0}, {2, 0}, {4, 0}}, kQuadAlongRows, 8},
      {kB, wmma::kM8n8k128, {kB1}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, kQuadAlongRows, 32},
      // C: the m16n16 accumulator's pattern, except m8n32 whose quads run down the rows.
      {kC, wmma::kM16n16k16, {kS32}, {{0, 1}, {8, 0}, {0, 8}}, kQuadAlongCols, 2},
      {kC, wmma::kM8n32k16, accumulators, {{1, 0}, {0, 8}, {0, 16}}, kQuadAlongRows, 2},
      {kC, wmma::kM32n8k16, accumulators, {{0, 1}, {8, 0}, {16, 0}}, kQuadAlongCols, 2},
      {kC, wmma::kM8n8k4, {kF64}, {{0, 1}}, kQuadAlongCols, 2},
      {kC, wmma::kM8n8k32, {kS32}, {{0, 1}}, kQuadAlongCols, 2},
      {kC, wmma::kM8n8k128, {kS32}, {{0, 1}}, kQuadAlongCols, 2},
  };
}

std::vector<WmmaLayoutEntry> BuildTable() {
  const std::vector<wmma::Type> f16 = {wmma::kF16};
  const std::vector<wmma::Type> f16_f32 = {wmma::kF16, wmma::kF32};
  std::vector<WmmaLayoutEntry> table;
  // sm_70 m16n16k16 (docs/spec-decisions.md wmma.layout.* Volta table). A and B depend on the layout.
  // A .row: row = t + 8*((l>>2)&1) + 4*((l>>4)&1), col = x.
  table.push_back({Volta(), kA, wmma::kM16n16k16, f16, wmma::kRow,
                   LinearLayout({{0, 1}, {0, 2}, {0, 4}, {0, 8}}, {{{1, 0}, {2, 0}, {8, 0}, {0, 0}, {4, 0}}}), kVoltaSource});
  // A .col: row = 8*((l>>2)&1) + 4*((l>>4)&1) + (x&3), col = t + (x&12).
  table.push_back({Volta(), kA, wmma::kM16n16k16, f16, wmma::kCol,
                   LinearLayout({{1, 0}, {2, 0}, {0, 4}, {0, 8}}, {{{0, 1}, {0, 2}, {8, 0}, {0, 0}, {4, 0}}}), kVoltaSource});
  // B .col: k = x, n = t + (l&8) + ((l&16)>>2).
  table.push_back({Volta(), kB, wmma::kM16n16k16, f16, wmma::kCol,
                   LinearLayout({{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {{{0, 1}, {0, 2}, {0, 0}, {0, 8}, {0, 4}}}), kVoltaSource});
  // B .row: k = t + (x&12), n = (l&8) + ((l&16)>>2) + (x&3).
  table.push_back({Volta(), kB, wmma::kM16n16k16, f16, wmma::kRow,
                   LinearLayout({{0, 1}, {0, 2}, {4, 0}, {8, 0}}, {{{1, 0}, {2, 0}, {0, 0}, {0, 8}, {0, 4}}}), kVoltaSource});
  // C .f16: row = t + 8*((l>>2)&1) + 4*((l>>4)&1), col = x + (l&8).
  table.push_back({Volta(), kC, wmma::kM16n16k16, f16, std::nullopt,
                   LinearLayout({{0, 1}, {0, 2}, {0, 4}}, {{{1, 0}, {2, 0}, {8, 0}, {0, 8}, {4, 0}}}), kVoltaSource});
  // C .f32: row = (l&1) + 8*((l>>2)&1) + 4*((l>>4)&1) + (x&2), col = (l&2) + (l&8) + (x&1) + (x&4).
  table.push_back({Volta(), kC, wmma::kM16n16k16, {wmma::kF32}, std::nullopt,
                   LinearLayout({{0, 1}, {2, 0}, {0, 4}}, {{{1, 0}, {0, 2}, {8, 0}, {0, 8}, {4, 0}}}), kVoltaSource});

  // sm_75 to sm_90 m16n16k16 f16/f32 (docs/spec-decisions.md wmma.layout.*): .row and .col give the
  // same fragment. A: row = g + 8*((e>>1)&1), col = 2t + (e&1) + 8*((e>>2)&1),
  // elements 8..15 repeat 0..7.
  const LinearLayout a_m16n16k16 = LinearLayout({{0, 1}, {8, 0}, {0, 8}, {0, 0}}, ThreadLanes(kQuadAlongCols, 2));
  // B: k = 2t + (e&1) + 8*((e>>1)&1), n = g + 8*((e>>2)&1), elements 8..15 repeat 0..7.
  const LinearLayout b_m16n16k16 = LinearLayout({{1, 0}, {8, 0}, {0, 8}, {0, 0}}, ThreadLanes(kQuadAlongRows, 2));
  // C: row = g + 8*((x>>1)&1), col = 2t + (x&1) + 8*((x>>2)&1).
  const LinearLayout c_m16n16 = LinearLayout({{0, 1}, {8, 0}, {0, 8}}, ThreadLanes(kQuadAlongCols, 2));
  for (const std::vector<Target>* targets : {&Turing(), &AmpereToHopper()}) {
    table.push_back({*targets, kA, wmma::kM16n16k16, f16, std::nullopt, a_m16n16k16, kTuringAmpereSource});
    table.push_back({*targets, kB, wmma::kM16n16k16, f16, std::nullopt, b_m16n16k16, kTuringAmpereSource});
    table.push_back({*targets, kC, wmma::kM16n16k16, f16_f32, std::nullopt, c_m16n16, kTuringAmpereSource});
  }
  // sm_80 m16n16k8 tf32 (docs/spec-decisions.md wmma.layout.*). A: row = g + 8*(x&1), col = t + 4*((x>>1)&1).
  table.push_back({AmpereToHopper(), kA, wmma::kM16n16k8, {wmma::kTf32}, std::nullopt,
                   LinearLayout({{8, 0}, {0, 4}}, ThreadLanes(kQuadAlongCols, 1)), kTf32Source});
  // B: k = t + 4*(x&1), n = g + 8*((x>>1)&1).
  table.push_back({AmpereToHopper(), kB, wmma::kM16n16k8, {wmma::kTf32}, std::nullopt,
                   LinearLayout({{4, 0}, {0, 8}}, ThreadLanes(kQuadAlongRows, 1)), kTf32Source});
  // C "as above": the m16n16 accumulator.
  table.push_back({AmpereToHopper(), kC, wmma::kM16n16k8, {wmma::kF32}, std::nullopt, c_m16n16, kTf32Source});
  for (const MeasuredLayout& row : HopperMeasurements()) {
    table.push_back({Hopper(), row.matrix, row.shape, row.types, std::nullopt,
                     LinearLayout(row.element_bits, ThreadLanes(row.quad_along_cols, row.quad_step)), kHopperMeasurement});
  }
  return table;
}

}  // namespace

const std::vector<WmmaLayoutEntry>& WmmaLayoutTable() {
  static const auto* const kTable = new std::vector<WmmaLayoutEntry>(BuildTable());
  return *kTable;
}

absl::StatusOr<const WmmaLayoutEntry*> FindWmmaLayout(const QualifierSet& qualifiers, Target target) {
  const auto matrix = static_cast<wmma::Matrix>(qualifiers.Get(wmma::kMatrix));
  const auto shape = static_cast<wmma::Shape>(qualifiers.Get(wmma::kShape));
  const auto type = static_cast<wmma::Type>(qualifiers.Get(wmma::kType));
  const auto layout = static_cast<wmma::Layout>(qualifiers.Get(wmma::kLayout));
  for (const WmmaLayoutEntry& entry : WmmaLayoutTable()) {
    if (entry.matrix != matrix || entry.shape != shape) continue;
    if (std::find(entry.types.begin(), entry.types.end(), type) == entry.types.end()) continue;
    if (entry.layout.has_value() && *entry.layout != layout) continue;
    if (std::find(entry.targets.begin(), entry.targets.end(), target) == entry.targets.end()) continue;
    return &entry;
  }
  return absl::NotFoundError(absl::StrCat(
      "no source or measurement gives the ", target.Name(), " fragment layout of ",
      PrintOpcode(Family::kWmmaLoad, qualifiers),
      "; PTX leaves it unspecified (9.7.14.4.1)"));
}

}  // namespace matload
