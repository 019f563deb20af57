#include "harness/platform/xml_escape.h"

#include <cstddef>
#include <iterator>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

constexpr char32_t kInvalidUtf8 = 0xFFFFFFFF;
constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// SequenceLength is how many bytes the UTF-8 sequence led by `lead` takes; 0 for a byte that leads none.
std::size_t SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;  // a continuation byte, or the lead of an overlong 2-byte sequence
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return lead < 0xF5 ? 4 : 0;  // F5 and above would lead beyond U+10FFFF
}

// NextCodePoint decodes the UTF-8 sequence at text[i] and moves `i` past it;
// a byte that starts no valid sequence (truncated, overlong, beyond
// U+10FFFF) is kInvalidUtf8 and moves `i` one byte on.
char32_t NextCodePoint(absl::string_view text, std::size_t& i) {
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};  // by sequence length, against overlongs
  const unsigned char lead = text[i];
  const std::size_t length = SequenceLength(lead);
  char32_t code = length == 1 ? lead : lead & (0x7F >> length);
  bool valid = length != 0 && i + length <= text.size();
  for (std::size_t k = 1; valid && k < length; ++k) {
    const unsigned char next = text[i + k];
    valid = (next & 0xC0) == 0x80;
    code = code << 6 | (next & 0x3F);
  }
  if (!valid || code < kSmallest[length] || code > 0x10FFFF) {
    ++i;
    return kInvalidUtf8;
  }
  i += length;
  return code;
}

// IsXmlChar says whether XML 1.0 allows `code` in a document (its production "Char").
bool IsXmlChar(char32_t code) {
  return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
         (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

// kReferences are the characters XmlEscape writes as references: markup, and the whitespace a parser would
// otherwise normalize in an attribute.
constexpr std::pair<char32_t, absl::string_view> kReferences[] = {
    {'&', "&amp;"},   {'<', "&lt;"},  {'>', "&gt;"},   {'"', "&quot;"},
    {'\'', "&apos;"}, {'\t', "&#9;"}, {'\n', "&#10;"}, {'\r', "&#13;"},
};

}  // namespace

std::string XmlEscape(absl::string_view text) {
  std::string escaped;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t code = NextCodePoint(text, i);
    const auto* reference = absl::c_find_if(kReferences, [code](const auto& entry) { return entry.first == code; });
    if (reference != std::end(kReferences)) {
      absl::StrAppend(&escaped, reference->second);
    } else {
      absl::StrAppend(&escaped, IsXmlChar(code) ? text.substr(start, i - start) : kReplacement);
    }
  }
  return escaped;
}

}  // namespace matload
