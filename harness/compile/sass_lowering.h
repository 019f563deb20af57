// SASS lowering: which machine instructions each form compiles to, read
// with cuobjdump. Triagers use it to see which hardware path a form takes
// (LDSM, LDS, LDG, LDTM, ...).
#ifndef MATLOAD_HARNESS_COMPILE_SASS_LOWERING_H_
#define MATLOAD_HARNESS_COMPILE_SASS_LOWERING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/compile/ptxas.h"
#include "reference/ptx_version.h"
#include "reference/raw_instruction.h"
#include "reference/target.h"

namespace matload {

// SassFunctions parses `cuobjdump -sass` output into the opcodes (with their
// modifiers, e.g. "LDSM.16.M88.4") of each function, by function name.
std::vector<std::pair<std::string, std::vector<std::string>>> SassFunctions(absl::string_view dump);

// IsLoadOpcode says whether a SASS opcode reads memory or Tensor Memory
// (LD*, but not the constant-bank LDC that every kernel uses for parameters).
bool IsLoadOpcode(absl::string_view opcode);

// LoadSequence is the load opcodes among `opcodes`, in program order with
// repeats counted: "LDSM.16.M88.4", "LDS.U.128 x2".
std::string LoadSequence(const std::vector<std::string>& opcodes);

// SassModule is the module LowerToSass compiles for `forms`: a kernel per
// form that stores every destination register, so that nothing is dead
// code.
std::string SassModule(const std::vector<RawInstruction>& forms, PtxVersion ptx, Target target);

// LowerToSass compiles each of `forms` (legal for `target`) into a kernel of
// its own (SassModule) and returns, per form, its load opcodes joined by " "
// in program order with repeats counted ("LDSM.16.M88.4", "LDS.U.128 x2").
// `cuobjdump` is the path of the toolkit's cuobjdump.
absl::StatusOr<std::vector<std::string>> LowerToSass(const Ptxas& ptxas, const std::string& cuobjdump,
                                                     const std::vector<RawInstruction>& forms, PtxVersion ptx,
                                                     Target target);

// CuobjdumpSass writes `cubin` to a temporary file and gives what
// `cuobjdump -sass` prints of it. A cuobjdump that crashed or hung is an
// InfrastructureError; one that refused the cubin is kInternal with its
// message.
absl::StatusOr<std::string> CuobjdumpSass(const std::string& cuobjdump, absl::string_view cubin);

// DefaultCuobjdumpPath is $MATLOAD_CUOBJDUMP, else cuobjdump beside the
// default ptxas, else the one scripts/install-deps.sh fetches where the
// toolkit lacks it.
std::string DefaultCuobjdumpPath();

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_SASS_LOWERING_H_
