// Ptxas: the toolkit's PTX assembler as a compile oracle.
#ifndef MATLOAD_HARNESS_PTXAS_H_
#define MATLOAD_HARNESS_PTXAS_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "harness/compile_oracle.h"
#include "absl/status/statusor.h"
#include "reference/target.h"

namespace matload {

// Ptxas runs one ptxas binary, without a shell.
class Ptxas : public CompileOracle {
 public:
  // Open checks that `path` runs and reads its version and the -arch values
  // it accepts from --version and --help.
  static absl::StatusOr<Ptxas> Open(std::string path);

  // DefaultPath is $MATLOAD_PTXAS, else $CUDA_HOME/bin/ptxas, else
  // /usr/local/cuda/bin/ptxas.
  static std::string DefaultPath();

  const std::string& path() const { return path_; }

  std::string Tool() const override { return "ptxas"; }
  std::string Version() const override { return version_; }
  // Supports says whether this ptxas accepts `target` as -arch.
  bool Supports(Target target) const override { return arches_.contains(target.Name()); }
  // Assemble writes `module_text` to a temporary file and runs ptxas on it.
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;
  // CompileToCubin assembles `module_text` and returns the cubin, for the
  // offline compile path (the driver loads it without its JIT). A module
  // ptxas rejects is kFailedPrecondition with ptxas's messages.
  absl::StatusOr<std::string> CompileToCubin(absl::string_view module_text, Target target) const;

 private:
  Ptxas(std::string path, std::string version, absl::flat_hash_set<std::string> arches)
      : path_(std::move(path)), version_(std::move(version)), arches_(std::move(arches)) {}

  std::string path_;
  std::string version_;
  absl::flat_hash_set<std::string> arches_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_PTXAS_H_
