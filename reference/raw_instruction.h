// RawInstruction and Snippet: instructions exactly as written.
//
// The raw level holds anything that looks like a PTX statement: unknown or
// repeated qualifiers in any order, any operand count and kind, undeclared
// registers. The parser produces it, the mutator edits it, and only the
// legality checker turns it into a CheckedInstruction.
#ifndef MATLOAD_REFERENCE_RAW_INSTRUCTION_H_
#define MATLOAD_REFERENCE_RAW_INSTRUCTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace matload {

// VectorOperand is a brace-enclosed list: {d0, d1, _}. Elements are kept as
// written, so an immediate inside the braces is representable (and illegal).
struct VectorOperand {
  std::vector<std::string> elements;
  friend bool operator==(const VectorOperand&, const VectorOperand&) = default;
};

// RegisterOperand is a bare name: a register, or a variable used as a value.
struct RegisterOperand {
  std::string name;
  friend bool operator==(const RegisterOperand&, const RegisterOperand&) = default;
};

// ImmediateOperand is an integer literal.
struct ImmediateOperand {
  std::int64_t value = 0;
  friend bool operator==(const ImmediateOperand&, const ImmediateOperand&) = default;
};

// AddressOperand is [base], [base+offset] or [offset]. `base` is empty for an
// immediate address.
struct AddressOperand {
  std::string base;
  std::int64_t offset = 0;
  friend bool operator==(const AddressOperand&, const AddressOperand&) = default;
};

// Operand is any operand as written.
using Operand = std::variant<VectorOperand, RegisterOperand, ImmediateOperand, AddressOperand>;

// OperandToString prints an operand in PTX syntax.
std::string OperandToString(const Operand& operand);

// RawInstruction is one instruction statement as written.
struct RawInstruction {
  std::optional<std::string> guard;  // "p" or "!p" from "@p" / "@!p"
  std::vector<std::string> opcode;   // split at dots: {"ldmatrix", "sync", ...}
  std::vector<Operand> operands;
  friend bool operator==(const RawInstruction&, const RawInstruction&) = default;
};

// Declaration is one declared name: `.reg .b32 d<4>` declares d0..d3, each
// as its own Declaration.
struct Declaration {
  std::string state_space;  // ".reg", ".shared", ".global"
  std::string type;         // ".b32"
  std::string name;
  friend bool operator==(const Declaration&, const Declaration&) = default;
};

// Snippet is optional declarations followed by one instruction, as in the
// spec's examples. Without declarations, registers are assumed to have the
// types the instruction needs.
struct Snippet {
  std::vector<Declaration> declarations;
  RawInstruction instruction;
  friend bool operator==(const Snippet&, const Snippet&) = default;

  // FindDeclaration returns the declaration of `name`, or nullptr.
  const Declaration* FindDeclaration(const std::string& name) const;
};

}  // namespace matload

#endif  // MATLOAD_REFERENCE_RAW_INSTRUCTION_H_
