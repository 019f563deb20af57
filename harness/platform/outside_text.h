// OutsideText: the one place where bytes from outside matload (a path, a
// command line, a compiler's diagnostic, a GPU's name) become text that
// matload stores and prints. Such bytes need not be UTF-8, and JSON, the
// results store's text and every report need UTF-8 (nlohmann::json throws on
// anything else); a tab or a newline in a GPU's name would split a line of
// results.tsv, and a terminal's control sequence in a diagnostic would
// reach the user's terminal. The text is reversible (OutsideBytes), so that
// a run directory whose path is not UTF-8 is found again on --resume.
#ifndef MATLOAD_HARNESS_PLATFORM_OUTSIDE_TEXT_H_
#define MATLOAD_HARNESS_PLATFORM_OUTSIDE_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// OutsideText is `bytes` as valid UTF-8 with no control character: each
// byte that is not part of a valid UTF-8 sequence, each C0 control (tab and
// newline included), DEL, each byte of a C1 control (U+0080 to U+009F) and
// a backslash followed by 'x' is written "\xHH" (two lowercase hex digits);
// everything else is kept. "NVIDIA H100\t\xff" becomes
// "NVIDIA H100\x09\xff" as text; text that is valid and has no control
// character and no "\x" comes out unchanged.
std::string OutsideText(absl::string_view bytes);

// PrintedText is `bytes` as OutsideText escapes them, but for a message
// printed to a terminal rather than stored: its newlines are kept (a
// message may run over several lines) and a backslash followed by 'x' is
// kept (text that OutsideText made already is not escaped twice), so it is
// not reversible. Every message matload prints that may hold bytes from
// outside (a path, a flag's value, a file's line) goes through it: no
// invalid UTF-8 and no terminal control sequence reaches the terminal.
std::string PrintedText(absl::string_view bytes);

// OutsideBytes is the bytes that OutsideText made `text` from: each "\xHH"
// is the byte 0xHH, everything else is kept.
std::string OutsideBytes(absl::string_view text);

// IsUtf8 says whether `bytes` is valid UTF-8 (no overlong form, no
// surrogate, nothing past U+10FFFF).
bool IsUtf8(absl::string_view bytes);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_OUTSIDE_TEXT_H_
