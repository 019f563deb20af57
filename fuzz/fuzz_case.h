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
#include "harness/families/family_runtime.h"
#include "harness/families/runtime_inputs.h"
#include "harness/families/test_program.h"
#include "harness/kernels/data_pattern.h"
#include "reference/legality.h"
#include "reference/outcome.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

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

}  // namespace matload

#endif  // MATLOAD_FUZZ_FUZZ_CASE_H_
