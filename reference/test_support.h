// Helpers for reference/ tests: judge a text snippet in one call.
#ifndef MATLOAD_REFERENCE_TEST_SUPPORT_H_
#define MATLOAD_REFERENCE_TEST_SUPPORT_H_

#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "reference/families.h"
#include "reference/form.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/target.h"

namespace matload::testing {

// JudgeAt judges `text` for `target` ("sm_90") at `ptx` ("9.0").
inline Verdict JudgeAt(absl::string_view text, absl::string_view target, absl::string_view ptx = "9.0") {
  return JudgeText(text, *ParsePtxVersion(ptx), *ParseTarget(target));
}

// Codes lists the reason codes of a verdict, in order.
inline std::vector<ReasonCode> Codes(const Verdict& verdict) {
  std::vector<ReasonCode> codes;
  for (const Reason& reason : verdict.reasons()) codes.push_back(reason.code);
  return codes;
}

// RegisterCount is the destination vector length the model derives from the
// qualifiers of `text` (operands ignored), or -1 if no fragment row matches.
inline int RegisterCount(absl::string_view text) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(text);
  if (!snippet.ok()) return -1;
  const FamilySpec* spec = FindFamily(snippet->instruction.opcode);
  if (spec == nullptr) return -1;
  std::optional<OperandSignature> signature =
      spec->Signature(DecodeQualifiers(*spec, snippet->instruction.opcode).qualifiers);
  return signature.has_value() ? signature->destination_count : -1;
}

}  // namespace matload::testing

#endif  // MATLOAD_REFERENCE_TEST_SUPPORT_H_
