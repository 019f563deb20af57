// CompileOracle: anything that can say whether a PTX module assembles for a
// target, and why not. ptxas, nvJitLink and the CUDA driver's JIT all sit
// behind this one interface, so batch checking and reports work with each.
#ifndef MATLOAD_HARNESS_COMPILE_COMPILE_ORACLE_H_
#define MATLOAD_HARNESS_COMPILE_COMPILE_ORACLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "reference/target.h"

namespace matload {

// Diagnostic is one message a compiler printed.
struct Diagnostic {
  // kUnrecognised is a line not in the compiler's diagnostic format (a
  // loader's warning, say): kept verbatim so that it can be reported, but
  // never taken for an error that rejects a snippet.
  enum class Severity : unsigned char { kWarning, kError, kFatal, kUnrecognised };
  Severity severity = Severity::kError;
  int line = 0;  // 0 when the compiler names no line
  std::string message;
  // module is the index of the module `line` is in, for AssembleModules;
  // -1 when the message names a file that is none of them (ptxas's
  // "<builtin>" helpers). Assemble leaves it 0.
  int module = 0;
  // file is the input the message names ("<builtin>"), empty when it names none.
  std::string file = {};
};

// AssembleResult is what one compile said about one module.
struct AssembleResult {
  bool accepted = false;
  std::vector<Diagnostic> diagnostics;
};

// ParsePtxasDiagnostics reads ptxas-style messages, one per line, as ptxas,
// nvJitLink and the driver JIT all print them:
// "ptxas FILE, line 6; error   : MESSAGE" or "ptxas fatal   : MESSAGE".
// A line of any other form is kept, on no line, as kUnrecognised, never
// dropped. Messages are OutsideText (harness/platform/outside_text.h): a
// compiler may print any bytes, and its messages are stored and printed.
// It scans each line once, left to right, with no regular expression, so a
// line of any length costs time in proportion to it and no stack
// (std::regex recursed once per character and overflowed the stack on a
// 60 KB line).
std::vector<Diagnostic> ParsePtxasDiagnostics(absl::string_view log);

// CompileOracle is one compiler.
class CompileOracle {
 public:
  virtual ~CompileOracle() = default;

  // Tool names the compiler ("ptxas", "nvJitLink", "driver JIT").
  virtual std::string Tool() const = 0;
  // Version is its release, e.g. "13.0.88".
  virtual std::string Version() const = 0;
  // Toolchain is "Tool Version" ("ptxas 13.0.88"), as reports and the
  // discrepancy registry name toolchains.
  std::string Toolchain() const { return absl::StrCat(Tool(), " ", Version()); }
  // Supports says whether it can compile for `target` at all.
  virtual bool Supports(Target target) const = 0;
  // Assemble compiles `module_text` for `target`. It fails only when the
  // compiler could not be asked (not found, hung, crashed); a rejected module
  // is an AssembleResult with accepted == false.
  virtual absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const = 0;
  // MaxModulesPerRun is how many modules AssembleModules takes at once: 1
  // unless one run of the compiler can assemble several independent modules.
  virtual size_t MaxModulesPerRun() const { return 1; }
  // AssembleModules compiles `modules` (at most MaxModulesPerRun, each with
  // kernels of its own names) for `target` in one run, which is accepted
  // when every module assembles. Each diagnostic names its module
  // (Diagnostic::module). This default takes one module and is Assemble.
  virtual absl::StatusOr<AssembleResult> AssembleModules(const std::vector<std::string>& modules,
                                                         Target target) const;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_COMPILE_COMPILE_ORACLE_H_
