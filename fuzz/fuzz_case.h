// FuzzCase: one fuzz input, decoded. A case is a target, a PTX version, a
// snippet (declarations and one instruction, legal or not) and the run-time
// inputs a load of it would take: data, placement, row addresses, pointer,
// stride and TMEM column.
//
// Cases are stored as short text, so corpora and crash files can be read,
// diffed and edited by hand:
//
//   target sm_90
//   ptx 9.0
//   data random 0x1234
//   placement shared
//   rows 0 16 32
//   offset 64
//   stride default
//   column 0
//   ---
//   .reg .b32 %r0; .reg .b64 %addr; ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%addr];
//
// Every header line is optional and may appear once; the snippet follows
// `---`. Decoding is deterministic and strict, so a crash file replays as
// exactly the case that crashed, and anything else is a clear error.
#ifndef MATLOAD_FUZZ_FUZZ_CASE_H_
#define MATLOAD_FUZZ_FUZZ_CASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/data_pattern.h"
#include "harness/kernel_text.h"
#include "harness/test_program.h"
#include "reference/legality.h"
#include "reference/outcome.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// RuntimeInputs are a case's run-time operands. They are kept for every
// family, so a mutation that turns an ldmatrix into a wmma.load keeps its
// rows for when it turns back.
struct RuntimeInputs {
  DataPattern pattern = DataPattern::kRandom;
  std::uint64_t stream = 0;  // the data's DataStream key
  DataPlacement placement = DataPlacement::kShared;
  // ldmatrix: byte offsets of each lane's row in the shared window; lanes
  // past the end read contiguous 16-byte rows (lane i at 16*i).
  std::vector<std::uint64_t> rows;
  std::uint64_t offset = 0;             // wmma.load: p's byte offset in the window
  std::optional<std::uint32_t> stride;  // wmma.load: in elements; nullopt is the default
  std::uint32_t column = 0;             // tcgen05.ld: the TMEM column
  friend bool operator==(const RuntimeInputs&, const RuntimeInputs&) = default;
};

// kMaxRowEntries bounds `rows`: one per lane.
inline constexpr size_t kMaxRowEntries = kWarpLanes;

// PaddedRows is every lane's row offset: `rows`, then contiguous rows
// (lane i at i * ldmatrix::kRowBytes) for the lanes it does not name.
std::vector<std::uint64_t> PaddedRows(const RuntimeInputs& runtime);

// FuzzCase is one decoded input.
struct FuzzCase {
  Target target{90};
  PtxVersion ptx = NewestPtxVersion();
  RuntimeInputs runtime;
  Snippet snippet;
  friend bool operator==(const FuzzCase&, const FuzzCase&) = default;
};

// DecodeFuzzCase reads a case's text. A malformed header line, a repeated
// key, an unknown target or PTX version, or a snippet that does not parse is
// kInvalidArgument naming the line.
absl::StatusOr<FuzzCase> DecodeFuzzCase(absl::string_view text);

// DecodeFuzzInput is DecodeFuzzCase over the bytes libFuzzer hands a target.
absl::StatusOr<FuzzCase> DecodeFuzzInput(const std::uint8_t* data, size_t size);

// EncodeFuzzCase writes a case so that DecodeFuzzCase gives it back.
std::string EncodeFuzzCase(const FuzzCase& fuzz_case);

// VariantFor turns a legal case's run-time inputs into the variant its test
// program runs: the family's operands, the data and a placement the form
// can address (a form that names .shared or .global is placed there).
Variant VariantFor(const CheckedInstruction& instruction, const RuntimeInputs& runtime);

}  // namespace matload

#endif  // MATLOAD_FUZZ_FUZZ_CASE_H_
