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

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "reference/raw_instruction.h"

namespace matload {

// kMaxDeclaredNames bounds the names one snippet may declare (`.reg .b32
// a<4096>` declares 4096), so that parsing and judging a snippet take time
// and memory linear in its text: a few kilobytes of `a<4096>, b<4096>, ...`
// would otherwise ask for gigabytes.
inline constexpr size_t kMaxDeclaredNames = 65536;

// ParseSnippet parses declarations followed by exactly one instruction.
// Text that is not a snippet is kInvalidArgument; a snippet declaring more
// than kMaxDeclaredNames names is kResourceExhausted, found before more
// than kMaxDeclaredNames declarations are made.
absl::StatusOr<Snippet> ParseSnippet(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_REFERENCE_PARSER_H_
