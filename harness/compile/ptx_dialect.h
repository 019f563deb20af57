// PtxDialect: which PTX ISA version a compiler speaks, read from its own
// answer, so that a toolkit newer or older than matload's tables is judged
// at the newest version both know instead of failing
// (docs/adding-a-ptx-version.md).
#ifndef MATLOAD_HARNESS_COMPILE_PTX_DIALECT_H_
#define MATLOAD_HARNESS_COMPILE_PTX_DIALECT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/compile/compile_oracle.h"
#include "reference/ptx_version.h"

namespace matload {

// PtxDialect is the newest PTX ISA version one compiler accepts.
struct PtxDialect {
  PtxVersion spoken;
  // from_message: read from the compiler's own "current version is 'X.Y'"
  // (ptxas, nvJitLink and the driver JIT all say it of a .version they do
  // not know); false where that message was missing and the version comes
  // from the compiler's release through the release table.
  bool from_message = true;
  // crashed: the compiler died right after saying it (ptxas 12.0.140 dies
  // of SIGSEGV after refusing any .version it does not speak).
  bool crashed = false;

  // Judged is the version matload declares for this compiler: the newest
  // both it and matload's tables know.
  PtxVersion Judged() const { return spoken < NewestPtxVersion() ? spoken : NewestPtxVersion(); }
  // AheadOfTables says whether the compiler speaks a version the tables lack.
  bool AheadOfTables() const { return NewestPtxVersion() < spoken; }
};

// ProbePtxDialect asks `compiler` to assemble an empty module of `.version
// 99.9` for a target it supports and reads the version it names in its
// refusal. A compiler that names none is read from its release
// (CompileOracle::Version's first "MAJOR.MINOR"); one with neither is
// kFailedPrecondition. A compiler that could not be asked is its error
// (an infrastructure error, never a dialect), but for a ptxas that crashed
// after naming its version (PtxDialect::crashed).
absl::StatusOr<PtxDialect> ProbePtxDialect(const CompileOracle& compiler);

// ParseCurrentPtxVersion reads "current version is 'X.Y'" out of a
// compiler message, or is kNotFound.
absl::StatusOr<PtxVersion> ParseCurrentPtxVersion(absl::string_view message);

// DialectNote is the line every report prints for a compiler (its
// toolchain name, CompileOracle::Toolchain) ahead of the
// tables ("ptxas 13.6.1 speaks PTX 9.6; matload knows 9.5: forms added
// since are not judged"), and empty for one that is not.
std::string DialectNote(absl::string_view toolchain, const PtxDialect& dialect);

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_PTX_DIALECT_H_
