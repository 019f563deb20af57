#include "harness/platform/outside_text.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"

namespace matload {
namespace {

// SequenceLength is the length of the valid UTF-8 sequence that starts
// `bytes` at `at`, or 0 if none does (RFC 3629: no overlong form, no
// surrogate, nothing past U+10FFFF).
size_t SequenceLength(absl::string_view bytes, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<std::uint8_t>(bytes[at + i]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  std::uint8_t low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // overlong
    if (lead == 0xed) high = 0x9f;  // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // overlong
    if (lead == 0xf4) high = 0x8f;  // past U+10FFFF
  } else {
    return 0;
  }
  if (at + length > bytes.size() || byte(1) < low || byte(1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  }
  return length;
}

// IsC1Control says whether the two-byte sequence at `at` is U+0080 to U+009F.
bool IsC1Control(absl::string_view bytes, size_t at) {
  return static_cast<std::uint8_t>(bytes[at]) == 0xc2 && static_cast<std::uint8_t>(bytes[at + 1]) <= 0x9f;
}

// AppendEscaped appends `bytes`, each as "\xHH".
void AppendEscaped(absl::string_view bytes, std::string& text) {
  for (const char byte : bytes) absl::StrAppendFormat(&text, "\\x%02x", static_cast<std::uint8_t>(byte));
}

// Escaped is OutsideText (`reversible`) or PrintedText (not).
std::string Escaped(absl::string_view bytes, bool reversible) {
  std::string text;
  text.reserve(bytes.size());
  for (size_t at = 0; at < bytes.size();) {
    const size_t length = SequenceLength(bytes, at);
    const absl::string_view sequence = bytes.substr(at, length == 0 ? 1 : length);
    const bool control =
        length == 1 && absl::ascii_iscntrl(static_cast<unsigned char>(bytes[at])) && (reversible || bytes[at] != '\n');
    const bool escape_start = reversible && bytes[at] == '\\' && at + 1 < bytes.size() && bytes[at + 1] == 'x';
    if (length == 0 || control || escape_start || (length == 2 && IsC1Control(bytes, at))) {
      AppendEscaped(sequence, text);
    } else {
      text.append(sequence.data(), sequence.size());
    }
    at += sequence.size();
  }
  return text;
}

}  // namespace

std::string OutsideText(absl::string_view bytes) { return Escaped(bytes, true); }

std::string PrintedText(absl::string_view bytes) { return Escaped(bytes, false); }

std::string OutsideBytes(absl::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t at = 0; at < text.size(); ++at) {
    int value = 0;
    if (text.substr(at, 2) == "\\x" && at + 4 <= text.size() && absl::ascii_isxdigit(text[at + 2]) &&
        absl::ascii_isxdigit(text[at + 3])) {
      for (const char digit : text.substr(at + 2, 2)) {
        value = value * 16 + (absl::ascii_isdigit(digit) ? digit - '0' : absl::ascii_tolower(digit) - 'a' + 10);
      }
      bytes.push_back(static_cast<char>(value));
      at += 3;
      continue;
    }
    bytes.push_back(text[at]);
  }
  return bytes;
}

bool IsUtf8(absl::string_view bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const size_t length = SequenceLength(bytes, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

}  // namespace matload
