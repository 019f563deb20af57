// The `text` fuzz target: whatever bytes arrive, the parser either returns a
// snippet, kInvalidArgument or (past its declaration limit)
// kResourceExhausted; a snippet prints and parses back to itself; judging
// it never crashes, and a legal verdict carries a checked
// instruction whose canonical spelling decodes to the same form.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "reference/form.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/printer.h"

namespace {

void Check(bool condition, const char* what, const std::string& input) {
  if (condition) return;
  std::cerr << "text_fuzzer: " << what << "\ninput: " << input << "\n";
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<matload::Snippet> snippet = matload::ParseSnippet(input);
  if (!snippet.ok()) {
    Check(snippet.status().code() == absl::StatusCode::kInvalidArgument ||
              snippet.status().code() == absl::StatusCode::kResourceExhausted,
          "parse failed with an unexpected code", input);
    return 0;
  }
  absl::StatusOr<matload::Snippet> again = matload::ParseSnippet(matload::PrintSnippet(*snippet));
  Check(again.ok() && *again == *snippet, "print then parse changed the snippet", input);
  for (const matload::Target target : {matload::Target{75}, matload::Target{100, matload::TargetVariant::kArchSpecific}}) {
    matload::Verdict verdict = matload::Judge(*snippet, matload::NewestPtxVersion(), target);
    Check(verdict.legal() == verdict.checked().has_value(), "legal verdict without a checked instruction", input);
    if (!verdict.legal()) continue;
    const matload::Form& form = verdict.checked()->form();
    absl::StatusOr<matload::Snippet> canonical = matload::ParseSnippet(matload::PrintForm(form));
    Check(canonical.ok(), "canonical spelling does not parse", input);
    absl::StatusOr<matload::Form> decoded = matload::DecodeForm(canonical->instruction);
    Check(decoded.ok() && *decoded == form, "canonical spelling decodes to another form", input);
  }
  return 0;
}
