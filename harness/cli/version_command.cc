#include "harness/cli/version_command.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/cuda_driver.h"
#include "harness/gpu/nvjitlink.h"
#include "harness/platform/environment.h"
#include "harness/runs/build_info.h"

namespace matload {
namespace {

// PtxasLine is "ptxas PATH: VERSION", or why PATH is not a ptxas that runs.
std::string PtxasLine(const std::string& path) {
  absl::StatusOr<Ptxas> ptxas = Ptxas::Open(path);
  if (!ptxas.ok()) return absl::StrCat("ptxas ", path, ": not usable: ", ptxas.status().message());
  return absl::StrCat("ptxas ", path, ": ", ptxas->Version());
}

}  // namespace

std::vector<std::string> CachedPtxasPaths() {
  const std::string cache = EnvironmentOr("MATLOAD_CACHE", absl::StrCat(EnvironmentOr("HOME", ""), "/.cache/matload"));
  std::vector<std::string> paths;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cache, error)) {
    const std::filesystem::path ptxas = entry.path() / "ptxas";
    if (entry.path().filename().string().starts_with("cuda-") && std::filesystem::exists(ptxas, error)) {
      paths.push_back(ptxas.string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

int PrintVersion(std::ostream& out) {
  out << MatloadVersion() << "\nrelease " << Release() << "\ncommit " << GitCommit() << "\nbuild type " << BuildType()
      << "\n";
  out << PtxasLine(Ptxas::DefaultPath()) << " (the default)\n";
  for (const std::string& path : CachedPtxasPaths()) out << PtxasLine(path) << "\n";
  absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
  out << "nvJitLink: "
      << (nvjitlink.ok() ? (*nvjitlink)->Version() : absl::StrCat("none (", nvjitlink.status().message(), ")")) << "\n";
  absl::StatusOr<std::shared_ptr<CudaDriver>> driver = CudaDriver::Open();
  out << "CUDA driver: "
      << (driver.ok()
              ? absl::StrCat((*driver)->version(), (*driver)->release().empty() ? "" : "; ", (*driver)->release())
              : absl::StrCat("none (", driver.status().message(), ")"))
      << "\n";
  return 0;
}

}  // namespace matload
