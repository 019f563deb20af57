// ModelExplanation: one modelled execution as `matload model` shows it,
// every register of every lane with where each of its bits came from. Each
// family's descriptor makes it (FamilyRuntime::Explain), so the command
// itself knows no family.
#ifndef MATLOAD_HARNESS_FAMILIES_MODEL_EXPLANATION_H_
#define MATLOAD_HARNESS_FAMILIES_MODEL_EXPLANATION_H_

#include <string>
#include <vector>

#include "reference/outcome.h"

namespace matload {

// BitSource is where one bit range of one register came from, in words:
// "a(9,3)", "tmem(lane 3, column 5) bits 0-15".
struct BitSource {
  int first_bit;
  int last_bit;
  std::string source;
};

// ModelExplanation is each lane's registers (words, low first) and each
// loaded register's bit sources, [lane][register].
struct ModelExplanation {
  Outcome outcome;
  int register_bits = 32;
  std::vector<std::vector<std::vector<BitSource>>> provenance;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_FAMILIES_MODEL_EXPLANATION_H_
