#include "reference/memory_image.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace matload {
namespace {

// Window is one state space's bytes at their address in the space being resolved.
struct Window {
  StateSpace space;
  std::uint64_t base;
  const std::vector<std::uint8_t>* bytes;
};

bool Contains(const Window& window, std::uint64_t address, std::uint64_t length) {
  return address >= window.base && length <= window.bytes->size() && address - window.base <= window.bytes->size() - length;
}

}  // namespace

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

std::variant<ResolvedAccess, Undefined> ResolveAccess(const MemoryImage& memory, StateSpace named,
                                                      AddressValue address, std::uint64_t length,
                                                      absl::Span<const StateSpace> allowed) {
  // A register narrower than the address holds only its low bits (PTX 6.4.1).
  const std::uint64_t value = address.bits >= 64 ? address.value : address.value & ((1ull << address.bits) - 1);
  absl::InlinedVector<Window, 2> windows;
  switch (named) {
    case StateSpace::kShared:
      windows.push_back({StateSpace::kShared, 0, &memory.shared});
      break;
    case StateSpace::kGlobal:
      windows.push_back({StateSpace::kGlobal, memory.global_base, &memory.global});
      break;
    case StateSpace::kGeneric:
      windows.push_back({StateSpace::kShared, memory.shared_generic_base, &memory.shared});
      windows.push_back({StateSpace::kGlobal, memory.global_base, &memory.global});
      break;
  }
  for (const Window& window : windows) {
    if (!Contains(window, value, length)) continue;
    if (std::find(allowed.begin(), allowed.end(), window.space) == allowed.end()) {
      return Undefined{RuntimeHazard::kAddressOutsideSpace,
                       absl::StrFormat("the %s address 0x%x is in %s, which this instruction may not read",
                                       StateSpaceName(named), value, StateSpaceName(window.space))};
    }
    return ResolvedAccess{window.space, absl::MakeConstSpan(*window.bytes).subspan(value - window.base, length)};
  }
  return Undefined{RuntimeHazard::kAddressOutsideSpace,
                   absl::StrFormat("the %d bytes at %s address 0x%x are not inside one window", length,
                                   StateSpaceName(named), value)};
}

}  // namespace matload
