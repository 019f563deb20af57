#include "reference/parser.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "reference/register_class.h"

namespace matload {
namespace {

// StripComments replaces // and /* */ comments by spaces, keeping offsets.
absl::StatusOr<std::string> StripComments(absl::string_view text) {
  std::string out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      size_t end = out.find("*/", i + 2);
      if (end == std::string::npos) return absl::InvalidArgumentError("syntax error: unterminated /* comment");
      for (size_t j = i; j < end + 2; ++j) out[j] = out[j] == '\n' ? '\n' : ' ';
      i = end + 1;
    }
  }
  return out;
}

bool IsIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}
bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IsQualifierChar(char c) { return IsIdentifierChar(c) || c == ':'; }

// Cursor scans one statement.
class Cursor {
 public:
  explicit Cursor(absl::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  absl::Status Error(absl::string_view what) const {
    absl::string_view near = text_.substr(pos_, 20);
    return absl::InvalidArgumentError(absl::StrCat("syntax error: ", what, " near '", near, "'"));
  }

  // Identifier reads a PTX identifier: [A-Za-z_$%][A-Za-z0-9_$]*.
  absl::StatusOr<std::string> Identifier() {
    SkipSpace();
    if (pos_ >= text_.size() || !IsIdentifierStart(text_[pos_])) return Error("expected a name");
    size_t start = pos_++;
    while (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // QualifierToken reads the text after a dot: letters, digits, '_' and "::".
  absl::StatusOr<std::string> QualifierToken() {
    size_t start = pos_;
    while (pos_ < text_.size() && IsQualifierChar(text_[pos_])) ++pos_;
    if (pos_ == start) return Error("expected a qualifier after '.'");
    return std::string(text_.substr(start, pos_ - start));
  }

  // Integer reads a decimal or 0x-hexadecimal literal with an optional sign
  // and an optional U suffix.
  absl::StatusOr<std::int64_t> Integer() {
    SkipSpace();
    size_t start = pos_;
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) negative = text_[pos_++] == '-';
    int base = 10;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") {
      base = 16;
      pos_ += 2;
    }
    size_t digits = pos_;
    while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_])) &&
           (base == 16 || std::isdigit(static_cast<unsigned char>(text_[pos_])))) {
      ++pos_;
    }
    if (pos_ == digits) {
      pos_ = start;
      return Error("expected an integer");
    }
    std::string literal(text_.substr(digits, pos_ - digits));
    if (pos_ < text_.size() && text_[pos_] == 'U') ++pos_;
    errno = 0;
    unsigned long long magnitude = std::strtoull(literal.c_str(), nullptr, base);
    if (errno == ERANGE || magnitude > (std::uint64_t{1} << 63)) {
      pos_ = start;
      return Error("integer out of range");
    }
    if (negative) return static_cast<std::int64_t>(0 - magnitude);
    if (magnitude == (std::uint64_t{1} << 63)) {
      pos_ = start;
      return Error("integer out of range");
    }
    return static_cast<std::int64_t>(magnitude);
  }

  bool AtIntegerStart() {
    char c = Peek();
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+';
  }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

absl::StatusOr<AddressOperand> ParseAddress(Cursor& cursor) {
  AddressOperand address;
  if (cursor.AtIntegerStart()) {
    absl::StatusOr<std::int64_t> offset = cursor.Integer();
    if (!offset.ok()) return offset.status();
    address.offset = *offset;
  } else {
    absl::StatusOr<std::string> base = cursor.Identifier();
    if (!base.ok()) return base.status();
    address.base = *base;
    if (cursor.Peek() == '-') return cursor.Error("ptxas takes only '+' offsets in addresses (write [a+-16])");
    if (cursor.Consume('+')) {
      absl::StatusOr<std::int64_t> offset = cursor.Integer();
      if (!offset.ok()) return offset.status();
      address.offset = *offset;
    }
  }
  if (!cursor.Consume(']')) return cursor.Error("expected ']'");
  return address;
}

absl::StatusOr<Operand> ParseOperand(Cursor& cursor) {
  if (cursor.Consume('{')) {
    VectorOperand vector;
    do {
      if (cursor.AtIntegerStart()) {
        absl::StatusOr<std::int64_t> value = cursor.Integer();
        if (!value.ok()) return value.status();
        vector.elements.push_back(absl::StrCat(*value));
      } else {
        absl::StatusOr<std::string> name = cursor.Identifier();
        if (!name.ok()) return name.status();
        vector.elements.push_back(*name);
      }
    } while (cursor.Consume(','));
    if (!cursor.Consume('}')) return cursor.Error("expected '}' or ','");
    return vector;
  }
  if (cursor.Consume('[')) {
    absl::StatusOr<AddressOperand> address = ParseAddress(cursor);
    if (!address.ok()) return address.status();
    return *address;
  }
  if (cursor.AtIntegerStart()) {
    absl::StatusOr<std::int64_t> value = cursor.Integer();
    if (!value.ok()) return value.status();
    return ImmediateOperand{*value};
  }
  absl::StatusOr<std::string> name = cursor.Identifier();
  if (!name.ok()) return cursor.Error("expected an operand");
  return RegisterOperand{*name};
}

absl::StatusOr<RawInstruction> ParseInstruction(absl::string_view statement) {
  Cursor cursor(statement);
  RawInstruction instruction;
  if (cursor.Consume('@')) {
    bool negated = cursor.Consume('!');
    absl::StatusOr<std::string> predicate = cursor.Identifier();
    if (!predicate.ok()) return predicate.status();
    instruction.guard = absl::StrCat(negated ? "!" : "", *predicate);
  }
  absl::StatusOr<std::string> head = cursor.Identifier();
  if (!head.ok()) return cursor.Error("expected an instruction");
  instruction.opcode.push_back(*head);
  while (cursor.Peek() == '.' ) {
    cursor.Consume('.');
    absl::StatusOr<std::string> token = cursor.QualifierToken();
    if (!token.ok()) return token.status();
    instruction.opcode.push_back(*token);
  }
  if (cursor.AtEnd()) return instruction;
  do {
    absl::StatusOr<Operand> operand = ParseOperand(cursor);
    if (!operand.ok()) return operand.status();
    instruction.operands.push_back(*std::move(operand));
  } while (cursor.Consume(','));
  if (!cursor.AtEnd()) return cursor.Error("expected ',' or ';'");
  return instruction;
}

bool IsDeclaration(absl::string_view statement) {
  for (absl::string_view space : {".reg", ".shared", ".global"}) {
    if (statement.substr(0, space.size()) == space &&
        (statement.size() == space.size() || !IsQualifierChar(statement[space.size()]))) {
      return true;
    }
  }
  return false;
}

// DeclarationLimitError is the kResourceExhausted status of a snippet that
// declares more than kMaxDeclaredNames names.
absl::Status DeclarationLimitError() {
  return absl::ResourceExhaustedError(absl::StrCat("the snippet declares more than ", kMaxDeclaredNames,
                                                   " names; matload judges snippets up to that size"));
}

// ParseDeclaration parses ".reg .b32 a, d<4>;" or ".shared .align 16 .b8 s[64];".
// It appends nothing past kMaxDeclaredNames names in `out`: a register
// vector is counted before any of its names is made.
absl::Status ParseDeclaration(absl::string_view statement, std::vector<Declaration>& out) {
  Cursor cursor(statement);
  std::vector<std::string> words;
  while (cursor.Consume('.')) {
    absl::StatusOr<std::string> word = cursor.QualifierToken();
    if (!word.ok()) return word.status();
    words.push_back(absl::StrCat(".", *word));
    if (words.back() == ".align") {
      absl::StatusOr<std::int64_t> alignment = cursor.Integer();
      if (!alignment.ok()) return alignment.status();
      words.pop_back();
    }
  }
  if (words.size() != 2) return cursor.Error("expected a state space and one type in a declaration");
  if (!IsDeclarableType(words[0], words[1])) {
    return cursor.Error(absl::StrCat("'", words[1], "' is not a type a ", words[0], " declaration may name"));
  }
  do {
    absl::StatusOr<std::string> name = cursor.Identifier();
    if (!name.ok()) return name.status();
    if (cursor.Consume('<')) {
      absl::StatusOr<std::int64_t> count = cursor.Integer();
      if (!count.ok()) return count.status();
      if (*count <= 0 || *count > 4096) return cursor.Error("register vector count must be 1..4096");
      if (!cursor.Consume('>')) return cursor.Error("expected '>'");
      if (out.size() + *count > kMaxDeclaredNames) return DeclarationLimitError();
      for (std::int64_t i = 0; i < *count; ++i) out.push_back({words[0], words[1], absl::StrCat(*name, i)});
      continue;
    }
    if (cursor.Consume('[')) {
      absl::StatusOr<std::int64_t> size = cursor.Integer();
      if (!size.ok()) return size.status();
      if (!cursor.Consume(']')) return cursor.Error("expected ']'");
    }
    if (out.size() == kMaxDeclaredNames) return DeclarationLimitError();
    out.push_back({words[0], words[1], *name});
  } while (cursor.Consume(','));
  if (!cursor.AtEnd()) return cursor.Error("expected ',' or ';' in a declaration");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Snippet> ParseSnippet(absl::string_view text) {
  absl::StatusOr<std::string> clean = StripComments(text);
  if (!clean.ok()) return clean.status();
  std::vector<absl::string_view> statements = absl::StrSplit(*clean, ';');
  // The text after the last ';' must be blank: every statement ends in ';'.
  absl::string_view tail = absl::StripAsciiWhitespace(statements.back());
  if (!tail.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("syntax error: expected ';' after '", tail.substr(0, 60), "'"));
  }
  statements.pop_back();
  Snippet snippet;
  bool have_instruction = false;
  for (absl::string_view raw_statement : statements) {
    absl::string_view statement = absl::StripAsciiWhitespace(raw_statement);
    if (statement.empty()) continue;
    if (have_instruction) {
      return absl::InvalidArgumentError(
          absl::StrCat("syntax error: a snippet holds one instruction, last; found more after it: '",
                       statement.substr(0, 60), "'"));
    }
    if (IsDeclaration(statement)) {
      absl::Status status = ParseDeclaration(statement, snippet.declarations);
      if (!status.ok()) return status;
      continue;
    }
    absl::StatusOr<RawInstruction> instruction = ParseInstruction(statement);
    if (!instruction.ok()) return instruction.status();
    snippet.instruction = *std::move(instruction);
    have_instruction = true;
  }
  if (!have_instruction) return absl::InvalidArgumentError("syntax error: no instruction in the snippet");
  return snippet;
}

}  // namespace matload
