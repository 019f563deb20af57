// libFuzzer's custom mutator and crossover for every target that takes fuzz
// cases: libFuzzer finds these symbols and calls them instead of mutating
// bytes blindly.
#include <cstddef>
#include <cstdint>

#include "fuzz/case_mutator.h"

extern "C" size_t LLVMFuzzerCustomMutator(std::uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return matload::MutateCaseBytes(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* first, size_t first_size, const std::uint8_t* second,
                                            size_t second_size, std::uint8_t* out, size_t max_out_size,
                                            unsigned int seed) {
  return matload::CrossOverCaseBytes(first, first_size, second, second_size, out, max_out_size, seed);
}
