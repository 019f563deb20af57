// Register classes: which declared register types an operand accepts.
#ifndef MATLOAD_REFERENCE_REGISTER_CLASS_H_
#define MATLOAD_REFERENCE_REGISTER_CLASS_H_

#include "absl/strings/string_view.h"
#include <optional>
#include <vector>

#include "reference/family_spec.h"
#include "reference/spec_ref.h"

namespace matload {

// DeclarableTypes lists the types a declaration may name: the PTX
// fundamental types (PTX 9.0 5.2.2) and, for `.reg` only, .pred. Measured
// with ptxas 13.0.88 on sm_90: these are accepted, and other spellings
// (.bf16, .tf32, .e4m3, .b1, .u4, .b28) are parse errors. Found by the
// legality fuzz campaign of 2026-11-22, where the model accepted an unused
// `.reg .b28` declaration.
const std::vector<absl::string_view>& DeclarableTypes();

// IsDeclarableType says whether a `state_space` (".reg", ".shared",
// ".global") declaration may name `type`.
bool IsDeclarableType(absl::string_view state_space, absl::string_view type);

// RegisterClassTypes lists the PTX register types (".b32") in `cls`.
const std::vector<absl::string_view>& RegisterClassTypes(RegisterClass cls);

// RegisterClassAccepts says whether a register declared `type` fits `cls`.
bool RegisterClassAccepts(RegisterClass cls, absl::string_view type);

// CombinedVectorType is the type ptxas gives a brace vector of 32-bit
// registers declared with the different types `types`: a mix in which every
// two types are equal, include .b32, or are both integer types is a .b32
// vector, which every 32-bit operand accepts; any other mix (.f32 with
// .f16x2, .f32 with .u32) is nullopt, an error ("Vector with elements of
// different types are not allowed"). Vectors of 64-bit registers are not
// combined: ptxas checks each element of those. Measured with ptxas 13.0.88
// (fuzz finding, reports/fuzz/); the PTX text is silent.
std::optional<absl::string_view> CombinedVectorType(const std::vector<absl::string_view>& types);

// IsThirtyTwoBitType says whether `type` is a 32-bit register type.
bool IsThirtyTwoBitType(absl::string_view type);

// RegisterClassBits is the width of every register in `cls`: 64 for the
// .f64 class, 32 for the others.
int RegisterClassBits(RegisterClass cls);

// RegisterClassName spells the class for messages: "32-bit (.b32 .u32 ...)".
absl::string_view RegisterClassName(RegisterClass cls);

// kRegisterClassRef cites where the classes come from. The PTX sections say
// only "32-bit registers" or "a vector that can hold the fragment", so every
// class was measured against ptxas.
inline constexpr SpecRef kRegisterClassRef{"operand.register-class", kPtxasQualifierMeasurement,
                                           RuleSource::kMeasured};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_REGISTER_CLASS_H_
