// SassListing: the machine code of a cubin as cuobjdump prints it, line by
// line, with the loads marked, so that a triage can put a passing and a
// failing build side by side (LDSM against LDS, say).
//
// An instruction the disassembler cannot name is kept, with its encoding,
// and counted: it is never dropped, and never taken for absent.
#ifndef MATLOAD_HARNESS_TRIAGE_SASS_LISTING_H_
#define MATLOAD_HARNESS_TRIAGE_SASS_LISTING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// SassLine is one instruction.
struct SassLine {
  std::string offset;    // "0080"
  std::string opcode;    // "LDSM.16.M88.4"; empty when the disassembler named none
  std::string text;      // the whole instruction, operands included
  std::string encoding;  // "0x000000000204783b 0x000e240000000200"
  bool load = false;     // reads memory (IsLoadOpcode)
};

// SassListing is one kernel's instructions.
struct SassListing {
  std::vector<SassLine> lines;
  // unnamed counts the instructions the disassembler could not name.
  int unnamed = 0;
  // Loads is the load opcodes in program order, repeats counted: "LDSM.16.M88.4 x2".
  std::string Loads() const;
};

// ParseSassListing reads `cuobjdump -sass` output of one kernel.
SassListing ParseSassListing(absl::string_view dump);

// DisassembleCubin is ParseSassListing of CuobjdumpSass (sass_lowering.h):
// a cuobjdump that crashed or hung is an InfrastructureError, one that
// refused the cubin kInternal.
absl::StatusOr<SassListing> DisassembleCubin(const std::string& cuobjdump, absl::string_view cubin);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_SASS_LISTING_H_
