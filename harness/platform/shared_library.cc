#include "harness/platform/shared_library.h"

#include <dlfcn.h>
#include <link.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace matload {
namespace {

// LoadedFile is the path of the file `handle` loaded, or `name` when the
// loader does not say.
std::string LoadedFile(void* handle, const std::string& name) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr || *map->l_name == '\0') {
    return name;
  }
  return map->l_name;
}

}  // namespace

absl::StatusOr<std::shared_ptr<SharedLibrary>> SharedLibrary::Open(const std::vector<std::string>& names) {
  std::vector<std::string> errors;
  for (const std::string& name : names) {
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      return std::shared_ptr<SharedLibrary>(new SharedLibrary(handle, name, LoadedFile(handle, name)));
    }
    const char* error = dlerror();
    errors.push_back(error != nullptr ? error : name);
  }
  return absl::NotFoundError(absl::StrCat("cannot load any of ", absl::StrJoin(names, ", "), ": ",
                                          absl::StrJoin(errors, "; ")));
}

SharedLibrary::~SharedLibrary() { dlclose(handle_); }

absl::StatusOr<void*> SharedLibrary::RawSymbol(const char* symbol) const {
  dlerror();
  void* address = dlsym(handle_, symbol);
  if (address == nullptr) {
    return absl::NotFoundError(absl::StrCat(name_, " has no symbol ", symbol));
  }
  return address;
}

}  // namespace matload
