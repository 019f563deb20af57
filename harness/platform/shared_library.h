// SharedLibrary: a library loaded at run time with dlopen, never linked, so
// one matload binary runs on machines with and without the CUDA driver or
// nvJitLink and says which it found.
#ifndef MATLOAD_HARNESS_PLATFORM_SHARED_LIBRARY_H_
#define MATLOAD_HARNESS_PLATFORM_SHARED_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace matload {

// SharedLibrary owns one dlopen handle.
class SharedLibrary {
 public:
  // Open tries each name in turn (a path, or a soname dlopen searches for)
  // and fails with kNotFound listing every dlerror if none loads.
  static absl::StatusOr<std::shared_ptr<SharedLibrary>> Open(const std::vector<std::string>& names);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // name is the name that loaded.
  const std::string& name() const { return name_; }
  // file is the path of the file that loaded (a soname resolved), or the
  // name when the loader does not say.
  const std::string& file() const { return file_; }

  // Resolve looks up each (symbol, slot) and stores its address in the slot,
  // which must be a function pointer; kNotFound names the first missing one.
  template <typename... Functions>
  absl::Status Resolve(std::pair<const char*, Functions**>... symbols) const {
    absl::Status status;
    (
        [&] {
          if (!status.ok()) return;
          absl::StatusOr<void*> address = RawSymbol(symbols.first);
          if (!address.ok()) {
            status = address.status();
            return;
          }
          *symbols.second = reinterpret_cast<Functions*>(*address);
        }(),
        ...);
    return status;
  }

 private:
  SharedLibrary(void* handle, std::string name, std::string file)
      : handle_(handle), name_(std::move(name)), file_(std::move(file)) {}
  absl::StatusOr<void*> RawSymbol(const char* symbol) const;

  void* handle_;
  std::string name_;
  std::string file_;
};

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_SHARED_LIBRARY_H_
