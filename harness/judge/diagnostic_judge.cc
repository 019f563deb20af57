#include "harness/judge/diagnostic_judge.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "harness/compile/diagnostic_classifier.h"

namespace matload {
namespace {

// kInternalPrefixes start the names of ptxas's own helpers and intrinsics
// ("__cuda_sm7x_wmma_m16n16k8_acc_f16", measured with ptxas 13.0.88).
constexpr absl::string_view kInternalPrefixes[] = {"__cuda", "__nv"};
// kInternalWords, in any case, name what only the compiler's own library
// holds: no instruction of the three families is a call.
constexpr absl::string_view kInternalWords[] = {"builtin", "prototype"};
// kInstructionQuote introduces the instruction a ptxas message is about:
// "Arguments mismatch for instruction 'mov'".
constexpr absl::string_view kInstructionQuote = "instruction '";
// kWrittenModifierQuotes introduce a qualifier a ptxas message says the
// form holds: "Illegal modifier 'Component' for instruction 'ldmatrix'".
constexpr absl::string_view kWrittenModifierQuotes[] = {"Illegal modifier '", "Unknown modifier '"};
// kSyntaxQuote introduces the text a ptxas syntax error stops at: "Parsing
// error near 'x64b': syntax error".
constexpr absl::string_view kSyntaxQuote = "near '";

// Quoted lists what follows each `introduction` in `message`, up to the
// closing quote.
std::vector<absl::string_view> Quoted(absl::string_view message, absl::string_view introduction) {
  std::vector<absl::string_view> quoted;
  for (size_t at = message.find(introduction); at != absl::string_view::npos; at = message.find(introduction, at + 1)) {
    const absl::string_view rest = message.substr(at + introduction.size());
    const size_t close = rest.find('\'');
    if (close != absl::string_view::npos && close > 0) quoted.push_back(rest.substr(0, close));
  }
  return quoted;
}

// IsForm says whether `name` is `instruction`'s opcode or a prefix of it
// that ends at a qualifier: "wmma.load.a" of "wmma.load.a.sync...".
bool IsForm(absl::string_view instruction, absl::string_view name) {
  return absl::StartsWith(instruction, name) &&
         (instruction.size() == name.size() || instruction[name.size()] == '.' || instruction[name.size()] == ' ');
}

// NamesInternalSymbol says whether `message` names what the user of
// `instruction` never wrote (MisdiagnosisKind::kInternalSymbol).
bool NamesInternalSymbol(absl::string_view instruction, absl::string_view message) {
  for (absl::string_view prefix : kInternalPrefixes) {
    if (absl::StrContains(message, prefix)) return true;
  }
  const std::string lower = absl::AsciiStrToLower(message);
  for (absl::string_view word : kInternalWords) {
    if (absl::StrContains(lower, word)) return true;
  }
  for (absl::string_view name : Quoted(message, kInstructionQuote)) {
    if (!IsForm(instruction, name)) return true;
  }
  for (absl::string_view quote : kWrittenModifierQuotes) {
    for (absl::string_view modifier : Quoted(message, quote)) {
      if (!absl::StrContains(instruction, modifier)) return true;
    }
  }
  return false;
}

// NamedReasons is the reasons `message` names of `instruction`: those
// ClassifyPtxasMessage gives, and an unknown qualifier besides where it is a
// syntax error that stops at text of the form's qualifiers (the opcode as
// written). A qualifier no instruction of the module's language has is no
// token to ptxas: 11.8.89 to 12.2.140 read the '.16' of a tcgen05.ld shape
// written on a wmma.load at PTX 7.8 as a number, and stop at 'x64b'.
std::vector<ReasonCode> NamedReasons(absl::string_view instruction, absl::string_view message) {
  std::vector<ReasonCode> codes = ClassifyPtxasMessage(message);
  if (std::find(codes.begin(), codes.end(), ReasonCode::kSyntax) == codes.end()) return codes;
  const absl::string_view opcode = instruction.substr(0, instruction.find(' '));
  const std::vector<absl::string_view> near = Quoted(message, kSyntaxQuote);
  if (std::any_of(near.begin(), near.end(),
                  [opcode](absl::string_view text) { return absl::StrContains(opcode, text); })) {
    codes.push_back(ReasonCode::kUnknownQualifier);
  }
  return codes;
}

// Agrees says whether the reasons a compiler's messages name, `named`, hold
// one the model gives. A qualifier newer than the module's .version or the
// target is one the compiler does not know there, so "unknown qualifier"
// names the model's version and target gates too, and so does "unknown
// instruction" where the qualifier is part of the instruction's name to
// ptxas ("Not a name of any known instruction: 'tcgen05.ld.red'" from ptxas
// 12.8.93 at PTX 8.7, 'tcgen05.ld.spcompress' from 13.0.88 at 9.0). Where
// the qualifiers make no form, the model judges no operand, so a wrong
// operand count is a fault the form may have as well (a near miss with an
// extra immediate: ptxas 13.0.88 counts the operands of tcgen05.ld
// .16x256b.x64 before it finds that .x64 is not allowed with the shape).
bool Agrees(const absl::flat_hash_set<ReasonCode>& named, const std::vector<ReasonCode>& model_reasons) {
  return std::any_of(model_reasons.begin(), model_reasons.end(), [&named](ReasonCode code) {
    const bool gate = code == ReasonCode::kPtxVersion || code == ReasonCode::kTarget;
    const bool no_form = code == ReasonCode::kQualifierCombination;
    const bool unknown =
        named.contains(ReasonCode::kUnknownQualifier) || named.contains(ReasonCode::kUnknownInstruction);
    return named.contains(code) || (gate && unknown) || (no_form && named.contains(ReasonCode::kOperandCount));
  });
}

// IsSymbolCharacter says whether `c` continues an identifier.
bool IsSymbolCharacter(char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

absl::string_view MisdiagnosisKindName(MisdiagnosisKind kind) {
  switch (kind) {
    case MisdiagnosisKind::kInternalSymbol: return "internal symbol";
    case MisdiagnosisKind::kNoLine: return "no line";
    case MisdiagnosisKind::kWrongReason: return "wrong reason";
  }
  return "unknown";
}

std::optional<Misdiagnosis> JudgeDiagnostic(absl::string_view instruction, const std::vector<ReasonCode>& model_reasons,
                                            const CompilerVerdict& compiler) {
  const std::vector<std::string>& messages = compiler.messages;
  for (const std::string& message : messages) {
    if (NamesInternalSymbol(instruction, message)) return Misdiagnosis{MisdiagnosisKind::kInternalSymbol, message};
  }
  if (compiler.unplaced > 0 && compiler.unplaced <= messages.size()) {
    return Misdiagnosis{MisdiagnosisKind::kNoLine, messages[messages.size() - compiler.unplaced]};
  }
  absl::flat_hash_set<ReasonCode> named;
  const std::string* first_reason = nullptr;
  for (const std::string& message : messages) {
    const std::vector<ReasonCode> codes = NamedReasons(instruction, message);
    if (!codes.empty() && first_reason == nullptr) first_reason = &message;
    named.insert(codes.begin(), codes.end());
  }
  if (first_reason == nullptr || Agrees(named, model_reasons)) return std::nullopt;
  return Misdiagnosis{MisdiagnosisKind::kWrongReason, *first_reason};
}

std::string MessageShape(absl::string_view message) {
  std::string shape;
  for (size_t i = 0; i < message.size();) {
    if (message[i] == '\'') {
      const size_t close = message.find('\'', i + 1);
      if (close != absl::string_view::npos) {
        shape += "'…'";
        i = close + 1;
        continue;
      }
    }
    const absl::string_view rest = message.substr(i);
    if (std::any_of(std::begin(kInternalPrefixes), std::end(kInternalPrefixes),
                    [rest](absl::string_view prefix) { return absl::StartsWith(rest, prefix); })) {
      shape += "__…";
      while (i < message.size() && IsSymbolCharacter(message[i])) ++i;
      continue;
    }
    shape += message[i++];
  }
  return shape;
}

}  // namespace matload
