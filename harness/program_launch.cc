#include "harness/program_launch.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/ptxas.h"

namespace matload {
namespace {

// Image is what the driver loads for `path`.
absl::StatusOr<std::string> Image(const TestProgram& program, CompilePath path) {
  if (path == CompilePath::kDriverJit) return program.kernel();
  static absl::StatusOr<Ptxas>* ptxas = new absl::StatusOr<Ptxas>(Ptxas::Open(Ptxas::DefaultPath()));
  if (!ptxas->ok()) return ptxas->status();
  return (*ptxas)->CompileToCubin(program.kernel(), program.instruction().target());
}

}  // namespace

absl::string_view CompilePathName(CompilePath path) {
  return path == CompilePath::kDriverJit ? "driver-jit" : "ptxas-cubin";
}

absl::StatusOr<CompilePath> ParseCompilePath(absl::string_view name) {
  for (CompilePath path : {CompilePath::kDriverJit, CompilePath::kPtxasCubin}) {
    if (name == CompilePathName(path)) return path;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown compile path '", name, "' (driver-jit or ptxas-cubin)"));
}

absl::StatusOr<DriverJit*> WorkerJit(int ordinal) {
  static absl::StatusOr<std::unique_ptr<DriverJit>>* jit = [ordinal] {
    absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
    return new absl::StatusOr<std::unique_ptr<DriverJit>>(
        driver.ok() ? DriverJit::Open(*driver, ordinal) : absl::StatusOr<std::unique_ptr<DriverJit>>(driver.status()));
  }();
  if (!jit->ok()) return jit->status();
  return jit->value().get();
}

absl::StatusOr<std::vector<std::uint8_t>> LaunchProgram(const DriverJit& jit, const TestProgram& program,
                                                        absl::Span<const Variant* const> variants, CompilePath path) {
  absl::StatusOr<std::string> image = Image(program, path);
  if (!image.ok()) return image.status();
  DriverJit::KernelLaunch launch{.entry = program.entry(),
                                 .blocks = static_cast<unsigned>(variants.size()),
                                 .threads = kWarpLanes,
                                 .inputs = {{}},
                                 .scratch_bytes = variants.size() * program.frame().window_bytes,
                                 .output_bytes = variants.size() * program.frame().output_bytes};
  for (const Variant* variant : variants) {
    const std::vector<std::uint8_t> record = program.Record(*variant);
    launch.inputs[0].insert(launch.inputs[0].end(), record.begin(), record.end());
  }
  return jit.Launch(*image, launch);
}

}  // namespace matload
