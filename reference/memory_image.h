// MemoryImage: the memory a load may read, in the state spaces PTX names
// (PTX 9.0 5.1 State Spaces, 6.4.1 Addresses).
//
// A load reads the CTA's .shared window or a .global buffer. Instructions
// that name `.shared` or `.global` take addresses in that space; generic
// addresses reach both through the generic address space, where the shared
// window sits at its own base. Resolving an access here, once, gives every
// semantics the same answer to "which bytes, in which space, or undefined".
#ifndef MATLOAD_REFERENCE_MEMORY_IMAGE_H_
#define MATLOAD_REFERENCE_MEMORY_IMAGE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "reference/family_spec.h"
#include "reference/outcome.h"

namespace matload {

// MemoryImage holds the bytes of both windows and where they sit.
struct MemoryImage {
  // The shared window: shared-space addresses 0 .. shared.size()-1.
  std::vector<std::uint8_t> shared;
  // The generic address of shared byte 0. Any value works as long as the
  // two windows do not overlap; the defaults only keep them apart.
  std::uint64_t shared_generic_base = 0x7fff'0000'0000;
  // The global buffer and its global (= generic) address.
  std::vector<std::uint8_t> global;
  std::uint64_t global_base = 0x7f00'0000'0000;
};

// AddressValue is the value an address register or immediate holds, and
// its width: a 32-bit register names a .shared address, or is truncated.
struct AddressValue {
  std::uint64_t value = 0;
  int bits = 64;
};

// ResolvedAccess is an access that lands wholly inside one window.
struct ResolvedAccess {
  StateSpace space;                      // kShared or kGlobal: where the bytes are
  absl::Span<const std::uint8_t> bytes;  // exactly the accessed bytes
};

// ResolveAccess finds the `length` bytes at `address` for an instruction
// that names `named` (kGeneric when it names none). A generic address must
// resolve into one of `allowed`. An access outside every window, or in a
// space the instruction may not read, is undefined (kAddressOutsideSpace).
std::variant<ResolvedAccess, Undefined> ResolveAccess(const MemoryImage& memory, StateSpace named,
                                                      AddressValue address, std::uint64_t length,
                                                      absl::Span<const StateSpace> allowed);

// AccessResolver resolves the accesses of one instruction (the space it
// names, the spaces it may read) in one memory image. It finds the windows
// once, so resolving each of a warp's addresses is a few comparisons, and
// Find, inline, builds no message for an access it rejects.
class AccessResolver {
 public:
  AccessResolver(const MemoryImage& memory, StateSpace named, absl::Span<const StateSpace> allowed);

  // Find is Resolve's answer where the access is defined, and nullopt where
  // it is not, without saying why.
  std::optional<ResolvedAccess> Find(AddressValue address, std::uint64_t length) const {
    const std::uint64_t value = AddressBits(address);
    const Window* window = WindowHolding(value, length);
    if (window == nullptr || !window->allowed) return std::nullopt;
    return ResolvedAccess{window->space, window->bytes.subspan(value - window->base, length)};
  }
  // Resolve is the `length` bytes at `address`, or why the access is
  // undefined (ResolveAccess).
  std::variant<ResolvedAccess, Undefined> Resolve(AddressValue address, std::uint64_t length) const;

 private:
  // Window is one state space's bytes at their address in the named space.
  struct Window {
    StateSpace space;
    std::uint64_t base;
    absl::Span<const std::uint8_t> bytes;
    bool allowed;  // whether the instruction may read this space
  };

  // AddressBits is the address a register holds: one narrower than 64 bits
  // holds only its low bits (PTX 6.4.1).
  static std::uint64_t AddressBits(AddressValue address) {
    return address.bits >= 64 ? address.value : address.value & ((1ull << address.bits) - 1);
  }
  // WindowHolding is the first window that holds all `length` bytes at
  // `address`, or nullptr.
  const Window* WindowHolding(std::uint64_t address, std::uint64_t length) const {
    for (int i = 0; i < window_count_; ++i) {
      const Window& window = windows_[i];
      if (address >= window.base && length <= window.bytes.size() &&
          address - window.base <= window.bytes.size() - length) {
        return &window;
      }
    }
    return nullptr;
  }

  StateSpace named_;
  std::array<Window, 2> windows_;
  int window_count_ = 0;
};

// StateSpaceName spells a space as PTX does: "generic", ".global", ".shared".
absl::string_view StateSpaceName(StateSpace space);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_MEMORY_IMAGE_H_
