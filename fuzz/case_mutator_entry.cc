// libFuzzer's custom mutator and crossover for every target that takes fuzz
// cases: libFuzzer finds these symbols and calls them instead of mutating
// bytes blindly.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "fuzz/case_mutator.h"
#include "fuzz/fuzz_case.h"

// LLVMFuzzerMutate is libFuzzer's own byte mutator (with the dictionary). It
// is weak so that the replay build, which has no libFuzzer, links too.
extern "C" size_t LLVMFuzzerMutate(std::uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

namespace {

// kRawEditOneIn is how often the instruction's text is edited as bytes,
// with the dictionary, for spellings no table-driven mutation writes; an
// edit that no longer parses is dropped.
constexpr unsigned kRawEditOneIn = 8;

// MutateSnippetBytes lets libFuzzer edit the snippet's text alone, keeping
// the header, and returns the new size, or 0 if the result is not a case.
size_t MutateSnippetBytes(std::uint8_t* data, size_t size, size_t max_size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const size_t body = text.find("---\n");
  if (body == std::string::npos) return 0;
  const size_t header = body + 4;
  std::string snippet = text.substr(header);
  const size_t room = max_size > header ? max_size - header : 0;
  if (room < snippet.size()) return 0;
  snippet.resize(room);
  const size_t snippet_size =
      LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(snippet.data()), text.size() - header, room);
  const std::string mutated = text.substr(0, header) + snippet.substr(0, snippet_size);
  if (!matload::DecodeFuzzCase(mutated).ok()) return 0;
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(std::uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  if (LLVMFuzzerMutate != nullptr && seed % kRawEditOneIn == 0) {
    if (const size_t mutated = MutateSnippetBytes(data, size, max_size); mutated > 0) return mutated;
  }
  return matload::MutateCaseBytes(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* first, size_t first_size, const std::uint8_t* second,
                                            size_t second_size, std::uint8_t* out, size_t max_out_size,
                                            unsigned int seed) {
  return matload::CrossOverCaseBytes(first, first_size, second, second_size, out, max_out_size, seed);
}
