// Parser: PTX text to Snippet.
//
// Accepts what ptxas accepts for one instruction statement: comments,
// whitespace and newlines anywhere, qualifiers in any order, a guard
// predicate, brace vectors, immediates, [reg], [reg+imm] and [imm]
// addresses, preceded by any number of .reg/.shared/.global declarations.
// Anything else is a kInvalidArgument error that says where; the parser
// never crashes, whatever the input.
#ifndef MATLOAD_REFERENCE_PARSER_H_
#define MATLOAD_REFERENCE_PARSER_H_

#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "reference/raw_instruction.h"

namespace matload {

// ParseSnippet parses declarations followed by exactly one instruction.
absl::StatusOr<Snippet> ParseSnippet(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_PARSER_H_
