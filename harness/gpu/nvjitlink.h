// NvJitLink: libnvJitLink as a compile oracle, in process, loaded with dlopen.
#ifndef MATLOAD_HARNESS_GPU_NVJITLINK_H_
#define MATLOAD_HARNESS_GPU_NVJITLINK_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "harness/compile/compile_oracle.h"
#include "harness/platform/shared_library.h"

namespace matload {

// NvJitLink compiles a PTX module to a cubin with nvJitLink (which runs the
// same assembler as ptxas, in process) and reads its error log.
class NvJitLink : public CompileOracle {
 public:
  // Open loads libnvJitLink: `path` if given, else $CUDA_HOME/lib64 or
  // /usr/local/cuda/lib64, else whatever dlopen finds by soname.
  static absl::StatusOr<std::unique_ptr<NvJitLink>> Open(const std::string& path = "");

  // library_file is the shared library's path, which the verdict cache
  // knows this compiler by (toolchain_identity.h).
  const std::string& library_file() const { return library_->file(); }

  std::string Tool() const override { return "nvJitLink"; }
  std::string Version() const override { return version_; }
  // Supports says whether nvJitLink accepts -arch=`target`.
  bool Supports(Target target) const override;
  absl::StatusOr<AssembleResult> Assemble(absl::string_view module_text, Target target) const override;
  // CompileToCubin compiles `module_text` for `target` and returns the cubin,
  // for the driver to load as is (the nvjitlink-cubin compile path). A
  // module nvJitLink rejects is kFailedPrecondition with its error log.
  absl::StatusOr<std::string> CompileToCubin(absl::string_view module_text, Target target) const;

  struct Api;  // the entry points, resolved once

 private:
  // Linked is one nvJitLink run: its verdict and, when asked for and
  // accepted, the cubin.
  struct Linked {
    AssembleResult assembled;
    std::string cubin;
  };
  absl::StatusOr<Linked> Link(absl::string_view module_text, Target target, bool want_cubin) const;

  NvJitLink(std::shared_ptr<SharedLibrary> library, std::shared_ptr<const Api> api, std::string version)
      : library_(std::move(library)), api_(std::move(api)), version_(std::move(version)) {}

  std::shared_ptr<SharedLibrary> library_;
  std::shared_ptr<const Api> api_;
  std::string version_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_GPU_NVJITLINK_H_
