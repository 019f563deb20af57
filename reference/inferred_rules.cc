#include "reference/inferred_rules.h"

#include "reference/ldmatrix_table.h"
#include "reference/tcgen05_ld_table.h"

namespace matload {
namespace {

constexpr SpecRef kAllInferred[] = {
    kInferredM16n16AddressLanes, kInferredM16n16RowPairing, kInferredDecompressPadding,
    kInferredDecompressExtension, kInferredWideRowAlignment, kInferredPack16bHalves,
    kInferredRedNan,             kInferredRedAbs,
};

ModelInferences LdmatrixInferences(const QualifierSet& q) {
  ModelInferences inferences;
  const auto shape = static_cast<ldmatrix::Shape>(q.Get(ldmatrix::kShape));
  if (shape == ldmatrix::kM16n16) {
    inferences.every_register = {kInferredM16n16AddressLanes, kInferredM16n16RowPairing};
  }
  if (q.Present(ldmatrix::kSrcFmt)) {
    inferences.every_register.push_back(kInferredDecompressPadding);
    inferences.every_register.push_back(kInferredDecompressExtension);
  }
  if (shape != ldmatrix::kM8n8) inferences.definedness = {kInferredWideRowAlignment};
  return inferences;
}

ModelInferences Tcgen05Inferences(const QualifierSet& q) {
  ModelInferences inferences;
  if (q.Present(tcgen05::kPack)) inferences.every_register = {kInferredPack16bHalves};
  if (q.Present(tcgen05::kRed) && q.Get(tcgen05::kType) == tcgen05::kF32) {
    inferences.reduction = {kInferredRedNan};
    if (q.Present(tcgen05::kAbs)) inferences.reduction.push_back(kInferredRedAbs);
  }
  return inferences;
}

}  // namespace

absl::Span<const SpecRef> InferredRules() { return kAllInferred; }

ModelInferences InferencesFor(const CheckedInstruction& instruction) {
  const QualifierSet& qualifiers = instruction.form().qualifiers;
  switch (instruction.spec().family) {
    case Family::kLdmatrix:
      return LdmatrixInferences(qualifiers);
    case Family::kTcgen05Ld:
      return Tcgen05Inferences(qualifiers);
    case Family::kWmmaLoad:
      break;
  }
  return {};
}

}  // namespace matload
