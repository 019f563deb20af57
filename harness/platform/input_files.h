// Input files: whole files read at once, the counterpart of
// output_files.h, for what matload reads back that it or a user wrote (a
// bundle's files, a report under test).
#ifndef MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_
#define MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_

#include <filesystem>
#include <string>

#include "absl/status/statusor.h"

namespace matload {

// ReadFileBytes reads a whole file, byte for byte; one that cannot be read
// is kInvalidArgument naming it (what a user named was not there).
absl::StatusOr<std::string> ReadFileBytes(const std::filesystem::path& path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_
