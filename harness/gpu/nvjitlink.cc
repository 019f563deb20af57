#include "harness/gpu/nvjitlink.h"

#include <cstdlib>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/platform/environment.h"
#include "harness/platform/infrastructure.h"

namespace matload {
namespace {

// The parts of nvJitLink.h matload uses, declared here so that nothing links
// against the library (CUDA 13.0 nvJitLink.h: nvJitLinkResult, InputType).
using Handle = struct nvJitLink*;
constexpr int kNvJitLinkSuccess = 0;  // NVJITLINK_SUCCESS
constexpr int kInputPtx = 2;  // NVJITLINK_INPUT_PTX

}  // namespace

struct NvJitLink::Api {
  int (*create)(Handle*, unsigned int, const char**);
  int (*destroy)(Handle*);
  int (*add_data)(Handle, int, const void*, size_t, const char*);
  int (*complete)(Handle);
  int (*error_log_size)(Handle, size_t*);
  int (*error_log)(Handle, char*);
  int (*cubin_size)(Handle, size_t*);
  int (*cubin)(Handle, void*);
  int (*version)(unsigned int*, unsigned int*);
};

absl::StatusOr<std::unique_ptr<NvJitLink>> NvJitLink::Open(const std::string& path) {
  std::vector<std::string> names;
  if (!path.empty()) {
    names.push_back(path);
  } else {
    names = {absl::StrCat(EnvironmentOr("CUDA_HOME", "/usr/local/cuda"), "/lib64/libnvJitLink.so"),
             "libnvJitLink.so.13", "libnvJitLink.so"};
  }
  absl::StatusOr<std::shared_ptr<SharedLibrary>> library = SharedLibrary::Open(names);
  if (!library.ok()) return library.status();
  auto api = std::make_shared<Api>();
  absl::Status resolved = (*library)->Resolve(
      std::pair{"nvJitLinkCreate", &api->create}, std::pair{"nvJitLinkDestroy", &api->destroy},
      std::pair{"nvJitLinkAddData", &api->add_data}, std::pair{"nvJitLinkComplete", &api->complete},
      std::pair{"nvJitLinkGetErrorLogSize", &api->error_log_size}, std::pair{"nvJitLinkGetErrorLog", &api->error_log},
      std::pair{"nvJitLinkGetLinkedCubinSize", &api->cubin_size},
      std::pair{"nvJitLinkGetLinkedCubin", &api->cubin}, std::pair{"nvJitLinkVersion", &api->version});
  if (!resolved.ok()) return resolved;
  unsigned int major = 0;
  unsigned int minor = 0;
  if (api->version(&major, &minor) != kNvJitLinkSuccess) return absl::InternalError("nvJitLinkVersion failed");
  return std::unique_ptr<NvJitLink>(new NvJitLink(*std::move(library), api, absl::StrCat(major, ".", minor)));
}

bool NvJitLink::Supports(Target target) const {
  const std::string arch = absl::StrCat("-arch=", target.Name());
  const char* options[] = {arch.c_str()};
  Handle handle = nullptr;
  const bool created = api_->create(&handle, 1, options) == kNvJitLinkSuccess;
  if (handle != nullptr) api_->destroy(&handle);
  return created;
}

absl::StatusOr<NvJitLink::Linked> NvJitLink::Link(absl::string_view module_text, Target target,
                                                   bool want_cubin) const {
  const std::string arch = absl::StrCat("-arch=", target.Name());
  const char* options[] = {arch.c_str()};
  Handle handle = nullptr;
  if (api_->create(&handle, 1, options) != kNvJitLinkSuccess) {
    if (handle != nullptr) api_->destroy(&handle);
    return absl::UnimplementedError(absl::StrCat("nvJitLink ", version_, " cannot compile for ", target.Name()));
  }
  absl::Cleanup destroy = [&] { api_->destroy(&handle); };
  const std::string text(module_text);
  int result = api_->add_data(handle, kInputPtx, text.data(), text.size(), "matload.ptx");
  if (result == kNvJitLinkSuccess) result = api_->complete(handle);
  Linked linked{.assembled = {.accepted = result == kNvJitLinkSuccess}};
  size_t size = 0;
  if (api_->error_log_size(handle, &size) == kNvJitLinkSuccess && size > 1) {
    std::string log(size, '\0');
    if (api_->error_log(handle, log.data()) == kNvJitLinkSuccess) {
      log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
      linked.assembled.diagnostics = ParsePtxasDiagnostics(log);
    }
  }
  if (!linked.assembled.accepted && linked.assembled.diagnostics.empty()) {
    linked.assembled.diagnostics.push_back(
        {Diagnostic::Severity::kError, 0, absl::StrCat("nvJitLink failed with result ", result, " and an empty log")});
  }
  if (want_cubin && linked.assembled.accepted) {
    size_t cubin_size = 0;
    if (api_->cubin_size(handle, &cubin_size) != kNvJitLinkSuccess || cubin_size == 0) {
      return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                                 absl::StrCat("nvJitLink ", version_, " linked a module but gave no cubin"));
    }
    linked.cubin.resize(cubin_size);
    if (api_->cubin(handle, linked.cubin.data()) != kNvJitLinkSuccess) {
      return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                                 absl::StrCat("nvJitLink ", version_, " could not copy out its cubin"));
    }
  }
  return linked;
}

absl::StatusOr<AssembleResult> NvJitLink::Assemble(absl::string_view module_text, Target target) const {
  absl::StatusOr<Linked> linked = Link(module_text, target, /*want_cubin=*/false);
  if (!linked.ok()) return linked.status();
  return std::move(linked->assembled);
}

absl::StatusOr<std::string> NvJitLink::CompileToCubin(absl::string_view module_text, Target target) const {
  absl::StatusOr<Linked> linked = Link(module_text, target, /*want_cubin=*/true);
  if (!linked.ok()) return linked.status();
  if (!linked->assembled.accepted) {
    std::vector<std::string> messages;
    for (const Diagnostic& diagnostic : linked->assembled.diagnostics) messages.push_back(diagnostic.message);
    return absl::FailedPreconditionError(
        absl::StrCat("nvJitLink ", version_, " rejected the module: ", absl::StrJoin(messages, "; ")));
  }
  return std::move(linked->cubin);
}

}  // namespace matload
