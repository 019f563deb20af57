#include "harness/triage/triage_builds.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/gpu/isolated_runner.h"
#include "harness/gpu/nvjitlink.h"

namespace matload {

// kLinkTimeout bounds the nvJitLink build's worker.
constexpr std::chrono::seconds kLinkTimeout{120};

namespace {

// NvJitLinkBuild links the kernel with the toolkit's libnvJitLink in a
// worker process (isolated_runner.h): loaded into matload itself, it
// initialises the CUDA driver, and a process that has may not fork the
// workers that run kernels (their cuInit then fails).
TriageBuild NvJitLinkBuild(const std::string& kernel, Target target) {
  TriageBuild build{.name = "nvJitLink", .cubin = true, .image = absl::UnknownError("not linked")};
  absl::StatusOr<std::vector<ItemResult>> linked = RunIsolated(
      1,
      [&](int) -> absl::StatusOr<std::string> {
        absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
        if (!nvjitlink.ok()) return nvjitlink.status();
        absl::StatusOr<std::string> cubin = (*nvjitlink)->CompileToCubin(kernel, target);
        if (!cubin.ok()) return cubin.status();
        return absl::StrCat((*nvjitlink)->Toolchain(), "\n", *cubin);
      },
      kLinkTimeout);
  if (!linked.ok()) {
    build.image = linked.status();
  } else if ((*linked)[0].kind != ItemResult::Kind::kDone) {
    const ItemResult& item = (*linked)[0];
    build.image = item.kind == ItemResult::Kind::kFailed ? item.error : absl::InternalError(item.output);
  } else {
    const std::string& output = (*linked)[0].output;
    build.toolchain = output.substr(0, output.find('\n'));
    build.image = output.substr(output.find('\n') + 1);
  }
  return build;
}

}  // namespace

std::vector<TriageBuild> MakeTriageBuilds(const TriageCase& triage_case, const Ptxas* ptxas) {
  const Target target = triage_case.program->instruction().target();
  std::vector<TriageBuild> builds;
  builds.push_back({.name = "driver JIT", .toolchain = "driver JIT", .cubin = false, .image = triage_case.kernel});
  for (const char* level : {"-O3", "-O0"}) {
    TriageBuild build{.name = absl::StrCat("ptxas ", level),
                      .cubin = true,
                      .image = absl::NotFoundError("no ptxas: give --ptxas or set $MATLOAD_PTXAS")};
    if (ptxas != nullptr) {
      build.toolchain = ptxas->Toolchain();
      build.image = ptxas->WithArguments({level}).CompileToCubin(triage_case.kernel, target);
    }
    builds.push_back(std::move(build));
  }
  builds.push_back(NvJitLinkBuild(triage_case.kernel, target));
  return builds;
}

}  // namespace matload
