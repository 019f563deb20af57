#include "reference/register_class.h"

#include <algorithm>

namespace matload {

const std::vector<absl::string_view>& RegisterClassTypes(RegisterClass cls) {
  // Measured with ptxas 13.0.88: each type declared in turn for each operand.
  static const auto* const kAny32 = new std::vector<absl::string_view>{".b32", ".u32", ".s32", ".f32", ".f16x2"};
  static const auto* const kHalf2 = new std::vector<absl::string_view>{".b32", ".f16x2"};
  static const auto* const kFloat32 = new std::vector<absl::string_view>{".b32", ".f32"};
  static const auto* const kInt32 = new std::vector<absl::string_view>{".b32", ".u32", ".s32"};
  static const auto* const kBits32 = new std::vector<absl::string_view>{".b32"};
  static const auto* const kFloat64 = new std::vector<absl::string_view>{".b64", ".f64"};
  static const auto* const kAddress =
      new std::vector<absl::string_view>{".b32", ".u32", ".s32", ".b64", ".u64", ".s64"};
  // ptxas takes an .f16x2 register as a Tensor Memory address but not an .f32 one.
  static const auto* const kTmemAddress = new std::vector<absl::string_view>{".b32", ".u32", ".s32", ".f16x2"};
  switch (cls) {
    case RegisterClass::kAny32: return *kAny32;
    case RegisterClass::kHalf2: return *kHalf2;
    case RegisterClass::kFloat32: return *kFloat32;
    case RegisterClass::kInt32: return *kInt32;
    case RegisterClass::kBits32: return *kBits32;
    case RegisterClass::kFloat64: return *kFloat64;
    case RegisterClass::kAddress: return *kAddress;
    case RegisterClass::kTmemAddress: return *kTmemAddress;
  }
  return *kBits32;
}

const std::vector<absl::string_view>& DeclarableTypes() {
  static const auto* const kTypes = new std::vector<absl::string_view>{
      ".s8", ".s16", ".s32", ".s64", ".u8",  ".u16", ".u32", ".u64",  ".f16",
      ".f16x2", ".f32", ".f64", ".b8", ".b16", ".b32", ".b64", ".b128", ".pred"};
  return *kTypes;
}

bool IsDeclarableType(absl::string_view state_space, absl::string_view type) {
  if (type == ".pred") return state_space == ".reg";
  return std::find(DeclarableTypes().begin(), DeclarableTypes().end(), type) != DeclarableTypes().end();
}

bool RegisterClassAccepts(RegisterClass cls, absl::string_view type) {
  const auto& types = RegisterClassTypes(cls);
  return std::find(types.begin(), types.end(), type) != types.end();
}

bool IsThirtyTwoBitType(absl::string_view type) {
  return RegisterClassAccepts(RegisterClass::kAny32, type);
}

std::optional<absl::string_view> CombinedVectorType(const std::vector<absl::string_view>& types) {
  const auto integer = [](absl::string_view type) { return RegisterClassAccepts(RegisterClass::kInt32, type); };
  for (absl::string_view a : types) {
    for (absl::string_view b : types) {
      if (a != b && a != ".b32" && b != ".b32" && !(integer(a) && integer(b))) return std::nullopt;
    }
  }
  return ".b32";
}

int RegisterClassBits(RegisterClass cls) { return cls == RegisterClass::kFloat64 ? 64 : 32; }

absl::string_view RegisterClassName(RegisterClass cls) {
  switch (cls) {
    case RegisterClass::kAny32: return "a 32-bit register (.b32 .u32 .s32 .f32 .f16x2)";
    case RegisterClass::kHalf2: return "a .b32 or .f16x2 register";
    case RegisterClass::kFloat32: return "a .b32 or .f32 register";
    case RegisterClass::kInt32: return "a 32-bit integer register (.b32 .u32 .s32)";
    case RegisterClass::kBits32: return "a .b32 register";
    case RegisterClass::kFloat64: return "a .b64 or .f64 register";
    case RegisterClass::kAddress: return "a 32- or 64-bit integer register";
    case RegisterClass::kTmemAddress: return "a 32-bit Tensor Memory address register";
  }
  return "a register";
}

}  // namespace matload
