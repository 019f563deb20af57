#include "reference/memory_image.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace matload {

absl::string_view StateSpaceName(StateSpace space) {
  switch (space) {
    case StateSpace::kGeneric:
      return "generic";
    case StateSpace::kGlobal:
      return ".global";
    case StateSpace::kShared:
      return ".shared";
  }
  return "?";
}

AccessResolver::AccessResolver(const MemoryImage& memory, StateSpace named, absl::Span<const StateSpace> allowed)
    : named_(named) {
  const auto add = [&](StateSpace space, std::uint64_t base, const std::vector<std::uint8_t>& bytes) {
    windows_[window_count_++] = {space, base, absl::MakeConstSpan(bytes),
                                 std::find(allowed.begin(), allowed.end(), space) != allowed.end()};
  };
  // A generic address reaches the shared window, then the global buffer.
  switch (named) {
    case StateSpace::kShared:
      add(StateSpace::kShared, 0, memory.shared);
      break;
    case StateSpace::kGlobal:
      add(StateSpace::kGlobal, memory.global_base, memory.global);
      break;
    case StateSpace::kGeneric:
      add(StateSpace::kShared, memory.shared_generic_base, memory.shared);
      add(StateSpace::kGlobal, memory.global_base, memory.global);
      break;
  }
}

std::variant<ResolvedAccess, Undefined> AccessResolver::Resolve(AddressValue address, std::uint64_t length) const {
  if (std::optional<ResolvedAccess> access = Find(address, length)) return *access;
  const std::uint64_t value = AddressBits(address);
  if (const Window* window = WindowHolding(value, length)) {
    return Undefined{RuntimeHazard::kAddressOutsideSpace,
                     absl::StrFormat("the %s address 0x%x is in %s, which this instruction may not read",
                                     StateSpaceName(named_), value, StateSpaceName(window->space))};
  }
  return Undefined{RuntimeHazard::kAddressOutsideSpace,
                   absl::StrFormat("the %d bytes at %s address 0x%x are not inside one window", length,
                                   StateSpaceName(named_), value)};
}

std::variant<ResolvedAccess, Undefined> ResolveAccess(const MemoryImage& memory, StateSpace named,
                                                      AddressValue address, std::uint64_t length,
                                                      absl::Span<const StateSpace> allowed) {
  return AccessResolver(memory, named, allowed).Resolve(address, length);
}

}  // namespace matload
