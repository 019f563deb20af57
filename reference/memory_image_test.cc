#include "reference/memory_image.h"

#include <vector>

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

// AccessResolver::Find finds exactly the accesses ResolveAccess defines, the same
// bytes, on every case above and a sweep of addresses around both windows.
TEST(MemoryImageTest, FindAgreesWithResolveAccess) {
  const MemoryImage memory = TwoWindows();
  std::vector<AddressValue> addresses = {{16, 32}, {0x1'0000'0020, 32}, {~0ull - 4}};
  for (std::uint64_t base : {std::uint64_t{0}, memory.shared_generic_base, memory.global_base}) {
    for (std::uint64_t offset = 0; offset < 600; offset += 7) addresses.push_back({base + offset});
  }
  int defined = 0;
  for (StateSpace named : {StateSpace::kShared, StateSpace::kGlobal, StateSpace::kGeneric}) {
    for (absl::Span<const StateSpace> allowed :
         {absl::Span<const StateSpace>(kBoth), absl::Span<const StateSpace>(kSharedOnly)}) {
      for (const AddressValue address : addresses) {
        const auto resolved = ResolveAccess(memory, named, address, 16, allowed);
        const std::optional<ResolvedAccess> found = AccessResolver(memory, named, allowed).Find(address, 16);
        ASSERT_EQ(found.has_value(), std::holds_alternative<ResolvedAccess>(resolved)) << address.value;
        if (!found.has_value()) continue;
        ++defined;
        EXPECT_EQ(found->space, std::get<ResolvedAccess>(resolved).space);
        EXPECT_EQ(found->bytes.data(), std::get<ResolvedAccess>(resolved).bytes.data());
        EXPECT_EQ(found->bytes.size(), 16u);
      }
    }
  }
  EXPECT_GT(defined, 50);
}

}  // namespace
}  // namespace matload
