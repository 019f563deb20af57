#include "reference/memory_image.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace matload {
namespace {

using ::testing::HasSubstr;

MemoryImage TwoWindows() {
  MemoryImage memory;
  memory.shared.assign(256, 0);
  memory.global.assign(512, 0);
  for (int i = 0; i < 256; ++i) memory.shared[i] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 512; ++i) memory.global[i] = static_cast<std::uint8_t>(255 - i % 256);
  return memory;
}

constexpr StateSpace kBoth[] = {StateSpace::kShared, StateSpace::kGlobal};
constexpr StateSpace kSharedOnly[] = {StateSpace::kShared};

TEST(MemoryImageTest, SharedAddressesAreWindowOffsets) {
  const MemoryImage memory = TwoWindows();
  auto access = ResolveAccess(memory, StateSpace::kShared, {16, 32}, 4, kBoth);
  ASSERT_TRUE(std::holds_alternative<ResolvedAccess>(access));
  EXPECT_EQ(std::get<ResolvedAccess>(access).space, StateSpace::kShared);
  EXPECT_EQ(std::get<ResolvedAccess>(access).bytes[0], 16);
}

TEST(MemoryImageTest, A32BitRegisterHoldsOnlyTheLowBits) {
  const MemoryImage memory = TwoWindows();
  auto access = ResolveAccess(memory, StateSpace::kShared, {0x1'0000'0020, 32}, 1, kBoth);
  ASSERT_TRUE(std::holds_alternative<ResolvedAccess>(access));
  EXPECT_EQ(std::get<ResolvedAccess>(access).bytes[0], 0x20);
}

TEST(MemoryImageTest, GenericAddressesReachEitherWindow) {
  const MemoryImage memory = TwoWindows();
  auto shared = ResolveAccess(memory, StateSpace::kGeneric, {memory.shared_generic_base + 3}, 1, kBoth);
  ASSERT_TRUE(std::holds_alternative<ResolvedAccess>(shared));
  EXPECT_EQ(std::get<ResolvedAccess>(shared).space, StateSpace::kShared);
  EXPECT_EQ(std::get<ResolvedAccess>(shared).bytes[0], 3);
  auto global = ResolveAccess(memory, StateSpace::kGeneric, {memory.global_base + 3}, 1, kBoth);
  ASSERT_TRUE(std::holds_alternative<ResolvedAccess>(global));
  EXPECT_EQ(std::get<ResolvedAccess>(global).space, StateSpace::kGlobal);
  EXPECT_EQ(std::get<ResolvedAccess>(global).bytes[0], 252);
}

TEST(MemoryImageTest, AGenericAddressInAForbiddenSpaceIsUndefined) {
  const MemoryImage memory = TwoWindows();
  auto access = ResolveAccess(memory, StateSpace::kGeneric, {memory.global_base}, 16, kSharedOnly);
  ASSERT_TRUE(std::holds_alternative<Undefined>(access));
  EXPECT_EQ(std::get<Undefined>(access).hazard, RuntimeHazard::kAddressOutsideSpace);
  EXPECT_THAT(std::get<Undefined>(access).why, HasSubstr("is in .global, which this instruction may not read"));
}

TEST(MemoryImageTest, AnAccessCrossingTheWindowEndIsUndefined) {
  const MemoryImage memory = TwoWindows();
  auto access = ResolveAccess(memory, StateSpace::kShared, {250}, 16, kBoth);
  ASSERT_TRUE(std::holds_alternative<Undefined>(access));
  EXPECT_THAT(std::get<Undefined>(access).why, HasSubstr("the 16 bytes at .shared address 0xfa are not inside one window"));
  auto wrapped = ResolveAccess(memory, StateSpace::kGlobal, {~0ull - 4}, 16, kBoth);
  EXPECT_TRUE(std::holds_alternative<Undefined>(wrapped));
}

TEST(MemoryImageTest, ANamedSpaceDoesNotSeeTheOtherWindow) {
  const MemoryImage memory = TwoWindows();
  auto access = ResolveAccess(memory, StateSpace::kGlobal, {memory.shared_generic_base}, 1, kBoth);
  EXPECT_TRUE(std::holds_alternative<Undefined>(access));
}

}  // namespace
}  // namespace matload
