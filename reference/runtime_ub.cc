#include "reference/runtime_ub.h"

#include "reference/ldmatrix_table.h"
#include "reference/register_class.h"
#include "reference/wmma_load_table.h"

namespace matload {

int WmmaDefaultStride(const QualifierSet& qualifiers) {
  const wmma::Geometry geometry = wmma::ShapeGeometry(static_cast<wmma::Shape>(qualifiers.Get(wmma::kShape)));
  const bool row_major = qualifiers.Has(wmma::kLayout, wmma::kRow);
  // A is MxK, B is KxN, C is MxN; row-major rows hold the second dimension.
  switch (qualifiers.Get(wmma::kMatrix)) {
    case wmma::kA:
      return row_major ? geometry.k : geometry.m;
    case wmma::kB:
      return row_major ? geometry.n : geometry.k;
    default:
      return row_major ? geometry.n : geometry.m;
  }
}

int WmmaFragmentBytes(const QualifierSet& qualifiers, const OperandSignature& signature) {
  return signature.destination_count * RegisterClassBits(signature.destination_class) / 8;
}

std::uint32_t WmmaAlignedStrideAbove(const QualifierSet& qualifiers, const OperandSignature& signature,
                                     std::uint32_t stride) {
  const int bits = wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType)));
  const std::uint32_t unit = 8 * WmmaFragmentBytes(qualifiers, signature) / bits;  // elements per fragment
  return (stride / unit + 1) * unit;
}

std::uint32_t LdmatrixAddressLanes(const QualifierSet& qualifiers) {
  const int matrices = 1 << qualifiers.Get(ldmatrix::kNum);  // .x1 .x2 .x4
  const int lanes = matrices * ldmatrix::RowsPerMatrix(static_cast<ldmatrix::Shape>(qualifiers.Get(ldmatrix::kShape)));
  return lanes >= 32 ? 0xffffffffu : (std::uint32_t{1} << lanes) - 1;
}

std::vector<RuntimeCondition> RuntimeConditions(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  const Family family = instruction.spec().family;
  std::vector<RuntimeCondition> conditions;
  for (const RuntimeRule& rule : instruction.spec().runtime_rules) {
    if (!rule.when.Holds(qualifiers)) continue;
    bool on_target = rule.on_targets.empty();
    for (const TargetClause& clause : rule.on_targets) {
      on_target = on_target || clause.Matches(instruction.target(), instruction.ptx());
    }
    if (!on_target) continue;
    RuntimeCondition condition{.hazard = rule.hazard, .description = std::string(rule.description), .ref = rule.ref};
    if (family == Family::kWmmaLoad) {
      condition.alignment_bytes = WmmaFragmentBytes(qualifiers, instruction.signature());
      condition.default_stride_elements = WmmaDefaultStride(qualifiers);
      condition.element_bits = wmma::ElementBits(static_cast<wmma::Type>(qualifiers.Get(wmma::kType)));
      condition.allowed_spaces = {StateSpace::kGlobal, StateSpace::kShared};
    } else if (family == Family::kLdmatrix) {
      condition.alignment_bytes = ldmatrix::kRowBytes;
      condition.allowed_spaces = {StateSpace::kShared};
      condition.address_lanes = LdmatrixAddressLanes(qualifiers);
    }
    conditions.push_back(std::move(condition));
  }
  return conditions;
}

}  // namespace matload
