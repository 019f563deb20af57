// CaseMutator: structure-aware mutation and crossover of fuzz cases.
//
// Every mutation edits the decoded case, not its bytes, and knows nothing of
// any qualifier by name: qualifier values, axes, state spaces and mnemonics
// come from the family tables, registers from the standard register file,
// targets and PTX versions from their tables. Mutations that keep a form
// legal and mutations that break it are mixed on purpose, so a campaign
// walks both sides of every rule.
#ifndef MATLOAD_FUZZ_CASE_MUTATOR_H_
#define MATLOAD_FUZZ_CASE_MUTATOR_H_

#include <cstddef>
#include <cstdint>
#include <random>

#include "absl/strings/string_view.h"
#include "fuzz/fuzz_case.h"

namespace matload {

// Mutation names one edit. The first group edits the instruction, the
// second the case's target and version, the third its run-time inputs.
enum class Mutation : unsigned char {
  kSwapQualifierValue,  // another value on the same axis: .x1 -> .x4
  kInsertQualifier,     // a value of any axis of any family, anywhere
  kDropQualifier,       // remove one opcode token
  kDuplicateQualifier,  // write one token twice
  kMoveQualifier,       // reorder: one token to another place
  kChangeMnemonic,      // another family's mnemonic, or a misspelt one
  kChangeStateSpace,    // another value of the state-space axis, or none
  kResizeVector,        // the destination vector one longer, shorter, or any length
  kRetypeRegister,      // a register of another type in an operand
  kUndeclareRegister,   // an operand names a register nobody declared
  kChangeOperandKind,   // a register, immediate, address or vector where another belongs
  kAddOrDropOperand,    // one operand more or fewer
  kChangeAddress,       // the address's base register, variable, offset or width
  kChangeGuard,         // add, flip or remove the @p guard
  kRegenerate,          // a fresh legal form of a random target
  kChangeTarget,        // another .target
  kChangePtxVersion,    // another .version
  kChangeStride,        // wmma: default, a multiple, below the default, misaligned
  kChangeLaneAddress,   // ldmatrix: one lane's row address
  kChangeOffset,        // wmma: p's offset, aligned to a random power of two or not
  kChangeColumn,        // tcgen05: the TMEM column, inside or past the end
  kChangeData,          // another data stream or pattern
  kChangePlacement,     // shared <-> global
};

// kMutationCount is the number of Mutation values.
inline constexpr int kMutationCount = static_cast<int>(Mutation::kChangePlacement) + 1;

// MutationName spells a mutation for tests and logs: "swap-qualifier-value".
absl::string_view MutationName(Mutation mutation);

// Mutate applies one mutation to `fuzz_case`. A mutation that finds nothing
// to edit (no vector to resize, say) leaves the case as it was.
void Mutate(Mutation mutation, std::mt19937_64& random, FuzzCase& fuzz_case);

// MutateRandomly applies one to three random mutations.
void MutateRandomly(std::mt19937_64& random, FuzzCase& fuzz_case);

// RandomLegalCase is a legal form of a random target at the newest PTX
// version, with default run-time inputs: where campaigns and undecodable
// inputs start.
FuzzCase RandomLegalCase(std::mt19937_64& random);

// CrossOver mixes two cases: one's instruction with the other's target and
// run-time inputs, or the qualifiers of one spliced into the other.
FuzzCase CrossOver(const FuzzCase& first, const FuzzCase& second, std::mt19937_64& random);

// MutateCaseBytes is libFuzzer's custom mutator over encoded cases: it
// decodes `data` (starting from RandomLegalCase when it does not decode),
// mutates, and writes the encoded result back if it fits in `max_size`.
// It returns the new size; the same input and seed give the same output.
size_t MutateCaseBytes(std::uint8_t* data, size_t size, size_t max_size, unsigned seed);

// CrossOverCaseBytes is libFuzzer's custom crossover over encoded cases: it
// writes CrossOver of the two decoded cases to `out` if it fits, else 0.
size_t CrossOverCaseBytes(const std::uint8_t* first, size_t first_size, const std::uint8_t* second,
                          size_t second_size, std::uint8_t* out, size_t max_out_size, unsigned seed);

}  // namespace matload

#endif  // MATLOAD_FUZZ_CASE_MUTATOR_H_
