// Ptxas: the toolkit's PTX assembler as a compile oracle.
#ifndef MATLOAD_HARNESS_PTXAS_H_
#define MATLOAD_HARNESS_PTXAS_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "reference/target.h"

namespace matload {

// Diagnostic is one message ptxas printed.
struct Diagnostic {
  enum class Severity : unsigned char { kWarning, kError, kFatal };
  Severity severity = Severity::kError;
  int line = 0;  // 0 when ptxas names no line
  std::string message;
};

// AssembleResult is what one ptxas run said about one module.
struct AssembleResult {
  bool accepted = false;
  std::vector<Diagnostic> diagnostics;
};

// ParsePtxasDiagnostics reads ptxas's standard error, one message a line:
// "ptxas FILE, line 6; error   : MESSAGE" or "ptxas fatal   : MESSAGE".
std::vector<Diagnostic> ParsePtxasDiagnostics(absl::string_view standard_error);

// Ptxas runs one ptxas binary, without a shell.
class Ptxas {
 public:
  // Open checks that `path` runs and reads its version and the -arch values
  // it accepts from --version and --help.
  static absl::StatusOr<Ptxas> Open(std::string path);

  // DefaultPath is $MATLOAD_PTXAS, else $CUDA_HOME/bin/ptxas, else
  // /usr/local/cuda/bin/ptxas.
  static std::string DefaultPath();

  const std::string& path() const { return path_; }
  // version is the release, e.g. "13.0.88".
  const std::string& version() const { return version_; }

  // Supports says whether this ptxas can assemble for `target` (-arch).
  bool Supports(Target target) const { return arches_.contains(target.Name()); }

  // Assemble writes `module_text` to a temporary file and assembles it for
  // `target`. It fails if ptxas cannot be run, hangs, or crashes; a module
  // ptxas rejects is an AssembleResult with accepted == false.
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const;

 private:
  Ptxas(std::string path, std::string version, absl::flat_hash_set<std::string> arches)
      : path_(std::move(path)), version_(std::move(version)), arches_(std::move(arches)) {}

  std::string path_;
  std::string version_;
  absl::flat_hash_set<std::string> arches_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_PTXAS_H_
