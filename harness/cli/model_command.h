// `matload model`: what the reference model says one execution of an
// instruction gives, lane by lane, with where every bit came from.
#ifndef MATLOAD_HARNESS_CLI_MODEL_COMMAND_H_
#define MATLOAD_HARNESS_CLI_MODEL_COMMAND_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {

// ModelOptions are the run-time inputs of one modelled execution.
struct ModelOptions {
  Target target;
  PtxVersion ptx;
  std::string data = "iota8";                // iota8 | iota16 | iota32 | random:SEED
  std::vector<std::uint64_t> row_addresses;  // ldmatrix: per lane; empty: lane i gives 16 i
  std::uint64_t base = 0;                    // wmma: p's offset in the window; tcgen05: taddr
  std::optional<std::uint32_t> stride;       // wmma: nullopt for the default
  bool json = false;
};

// kModelWindowBytes is the size of the memory window the pattern fills.
inline constexpr size_t kModelWindowBytes = 65536;

// FillPattern fills `bytes` bytes with a named pattern: in iotaN the N-bit
// word at byte offset N/8*k holds k; random:SEED is a seeded mt19937.
absl::StatusOr<std::vector<std::uint8_t>> FillPattern(absl::string_view name, size_t bytes);

// WriteModel judges `instruction` for the options' target and PTX version,
// executes it on a window filled with the pattern (the CTA's .shared window
// and a .global buffer both hold it; tcgen05.ld reads Tensor Memory filled
// with it, lane-major), and writes each lane's registers in hex and each
// element's provenance, as text or as JSON. An illegal instruction, a bad
// pattern or a form with no known layout is an error; an undefined outcome
// is written, with its reason.
absl::Status WriteModel(absl::string_view instruction, const ModelOptions& options, std::ostream& out);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_MODEL_COMMAND_H_
