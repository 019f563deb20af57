// Inferred rules: the places where the PTX text is silent and the model
// decides, each tagged RuleSource::kInferred with what it was inferred from.
//
// Users must be able to tell a predicted bit the text fixes from one that
// rests on an inference, so `matload model` labels every register bit with
// the inferred rules it depends on, and the support report lists them.
// docs/spec-decisions.md explains each decision; reports/spec-errata.md
// holds the spec's words that leave it open.
#ifndef MATLOAD_REFERENCE_INFERRED_RULES_H_
#define MATLOAD_REFERENCE_INFERRED_RULES_H_

#include <vector>

#include "absl/types/span.h"
#include "reference/legality.h"
#include "reference/spec_ref.h"

namespace matload {

// ldmatrix .m16n16: the address table shows eight address lanes per matrix;
// a 16-row matrix needs sixteen, and the model takes lanes 16m..16m+15.
inline constexpr SpecRef kInferredM16n16AddressLanes{
    "ldmatrix.infer.m16n16-address-lanes",
    "inferred from PTX 9.0 9.7.14.5.15's address table (lanes 8m..8m+7 give matrix m's rows) extended to 16 rows, "
    "and CuTe SM100_U8x8_LDSM_T; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .m16n16: Figure 105's text says each lane holds "4 consecutive
// columns across 2 rows"; which two rows (r and r+8) is the model's choice.
inline constexpr SpecRef kInferredM16n16RowPairing{
    "ldmatrix.infer.m16n16-row-pairing",
    "inferred from PTX 9.0 9.7.14.5.15 Figure 105's caption text and CuTe SM100_U8x8_LDSM_T: register 2m holds row "
    "lane/4, register 2m+1 row lane/4+8; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .src_fmt: "16 elements with N bits padding" does not say where
// the padding sits or how the elements are packed.
inline constexpr SpecRef kInferredDecompressPadding{
    "ldmatrix.infer.decompress-padding",
    "inferred from PTX 9.0 9.7.14.5.15's format table ('16 elements ... padding') and TMA's 16U4_ALIGN16B/"
    "16U6_ALIGN16B: elements packed LSB first from the row's first byte, padding at the high bytes; "
    "docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .src_fmt: "8-bit element will have 4 bits or 2 bits of padding"
// does not say which bits.
inline constexpr SpecRef kInferredDecompressExtension{
    "ldmatrix.infer.decompress-zero-extension",
    "inferred from CUTLASS mma_traits_sm120 (fp4_shift moves the value from bits [3:0]): each value zero-extended "
    "into the low bits of its byte; docs/spec-decisions.md",
    RuleSource::kInferred};
// ldmatrix .m8n16/.m16n16: the 16-byte natural alignment is stated for 8x8
// matrices only.
inline constexpr SpecRef kInferredWideRowAlignment{
    "ldmatrix.infer.row-alignment-m8n16-m16n16",
    "inferred: PTX 9.0 9.7.14.5.15 states 16-byte natural alignment 'when reading 8x8 matrices'; the model applies "
    "it to the 16-byte rows of .m8n16 and .m16n16; docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld .pack::16b: the Packing figure is an image; which 16-bit halves
// are taken and where they go is the model's choice.
inline constexpr SpecRef kInferredPack16bHalves{
    "tcgen05.ld.infer.pack-16b-halves",
    "inferred from PTX 9.0 9.7.16.10.4.1 (a 16-bit element sits in the low half of its 32-bit cell) and CuTe *_16b "
    "layouts: the low halves of columns 2c (bits 0-15) and 2c+1 (bits 16-31); docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld.red .f32: NaN handling and the canonical NaN are not defined.
inline constexpr SpecRef kInferredRedNan{
    "tcgen05.ld.infer.red-nan",
    "inferred from redux.sync .f32 (PTX 9.0 9.7.13.12): NaN inputs are skipped unless .NaN, all-NaN or .NaN with "
    "a NaN gives 0x7fffffff, -0.0 < +0.0; docs/spec-decisions.md",
    RuleSource::kInferred};
// tcgen05.ld.red .abs: not defined in the tcgen05 section.
inline constexpr SpecRef kInferredRedAbs{
    "tcgen05.ld.infer.red-abs",
    "inferred from redux.sync .f32 .abs (PTX 9.0 9.7.13.12): the reduction is over absolute values, the registers "
    "still get the loaded data; docs/spec-decisions.md",
    RuleSource::kInferred};

// InferredRules lists every rule above, for reports and tests.
absl::Span<const SpecRef> InferredRules();

// ModelInferences are the inferred rules one modelled execution rests on.
struct ModelInferences {
  std::vector<SpecRef> every_register;  // every bit of every loaded register
  std::vector<SpecRef> reduction;       // tcgen05.ld.red's redval
  std::vector<SpecRef> definedness;     // whether the run is defined at all
};

// InferencesFor says which inferred rules `instruction`'s modelled
// execution rests on.
ModelInferences InferencesFor(const CheckedInstruction& instruction);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_INFERRED_RULES_H_
