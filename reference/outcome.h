// Outcome: what the reference model says one execution of a load does.
//
// Exactly one of: the register values of every lane; undefined, with the
// runtime hazard that makes it so (the harness must not compare it); or a
// fault the spec or the platform guarantees.
#ifndef MATLOAD_REFERENCE_OUTCOME_H_
#define MATLOAD_REFERENCE_OUTCOME_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "reference/family_spec.h"

namespace matload {

// kWarpLanes is the number of lanes in a warp: every load here is warp-wide.
inline constexpr int kWarpLanes = 32;

// LaneValues holds each lane's destination registers, lane-major: 32 lanes,
// each with the signature's destination registers as 32-bit words. A 64-bit
// register (wmma .f64) takes two words, low word first, as it sits in memory.
struct LaneValues {
  std::vector<std::vector<std::uint32_t>> lanes;
  int register_bits = 32;
  friend bool operator==(const LaneValues&, const LaneValues&) = default;
};

// Undefined says the spec leaves the result undefined, and why.
struct Undefined {
  RuntimeHazard hazard;
  std::string why;
};

// MustFault says the load must raise a fault.
struct MustFault {
  std::string why;
};

// Outcome is the model's prediction for one execution.
using Outcome = std::variant<LaneValues, Undefined, MustFault>;

}  // namespace matload

#endif  // MATLOAD_REFERENCE_OUTCOME_H_
