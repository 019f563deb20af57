#include "harness/triage/sass_listing.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/compile/sass_lowering.h"

namespace matload {
namespace {

// EncodingWord reads "/* 0x000e240000000200 */" and gives "0x000e240000000200".
std::optional<std::string> EncodingWord(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (!absl::ConsumePrefix(&text, "/*") || !absl::ConsumeSuffix(&text, "*/")) return std::nullopt;
  text = absl::StripAsciiWhitespace(text);
  if (!absl::StartsWith(text, "0x")) return std::nullopt;
  return std::string(text);
}

// NamedOpcode is the opcode of instruction text "@P0 LDSM.16.M88.4 R4, [R2] ;",
// or empty where the disassembler printed no name (an unknown encoding).
std::string NamedOpcode(absl::string_view text) {
  text = absl::StripLeadingAsciiWhitespace(text);
  if (absl::StartsWith(text, "@")) {
    const size_t space = text.find(' ');
    text = space == absl::string_view::npos ? "" : absl::StripLeadingAsciiWhitespace(text.substr(space));
  }
  const absl::string_view opcode = text.substr(0, text.find_first_of(" ;"));
  if (opcode.empty() || !absl::ascii_isupper(static_cast<unsigned char>(opcode[0])) || opcode == "UNKNOWN") return "";
  for (const char c : opcode) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return "";
  }
  return std::string(opcode);
}

// ParseInstruction reads "        /*0080*/   LDSM.16.M88.4 R4, [R2] ;   /* 0x000000000204783b */".
std::optional<SassLine> ParseInstruction(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  if (!absl::ConsumePrefix(&line, "/*")) return std::nullopt;
  const size_t close = line.find("*/");
  if (close == absl::string_view::npos || close < 4) return std::nullopt;
  const absl::string_view offset = line.substr(0, close);
  for (const char c : offset) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  line.remove_prefix(close + 2);
  const size_t encoding_at = line.rfind("/*");
  if (encoding_at == absl::string_view::npos) return std::nullopt;
  SassLine sass{.offset = std::string(offset),
                .text = std::string(absl::StripAsciiWhitespace(line.substr(0, encoding_at))),
                .encoding = EncodingWord(line.substr(encoding_at)).value_or("")};
  sass.opcode = NamedOpcode(sass.text);
  sass.load = !sass.opcode.empty() && IsLoadOpcode(sass.opcode);
  return sass;
}

}  // namespace

std::string SassListing::Loads() const {
  std::vector<std::string> opcodes;
  for (const SassLine& line : lines) opcodes.push_back(line.opcode);
  return LoadSequence(opcodes);
}

SassListing ParseSassListing(absl::string_view dump) {
  SassListing listing;
  for (const absl::string_view line : absl::StrSplit(dump, '\n')) {
    if (std::optional<SassLine> instruction = ParseInstruction(line); instruction.has_value()) {
      listing.unnamed += instruction->opcode.empty() ? 1 : 0;
      listing.lines.push_back(*std::move(instruction));
    } else if (std::optional<std::string> word = EncodingWord(line); word.has_value() && !listing.lines.empty()) {
      absl::StrAppend(&listing.lines.back().encoding, " ", *word);
    }
  }
  return listing;
}

absl::StatusOr<SassListing> DisassembleCubin(const std::string& cuobjdump, absl::string_view cubin) {
  absl::StatusOr<std::string> dump = CuobjdumpSass(cuobjdump, cubin);
  if (!dump.ok()) return dump.status();
  return ParseSassListing(*dump);
}

}  // namespace matload
