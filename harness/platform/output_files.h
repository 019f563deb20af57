// Output files: whole files written at once, and names that are safe and
// stable on any file system, for bundles, findings and reports.
#ifndef MATLOAD_HARNESS_PLATFORM_OUTPUT_FILES_H_
#define MATLOAD_HARNESS_PLATFORM_OUTPUT_FILES_H_

#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// WriteFile replaces `path` with `text` atomically and durably: it writes a
// temporary file beside it, fsyncs it and renames it over `path`, so a
// reader sees the old file or the whole new one, never a truncated one. A
// path that cannot be written (no such directory, no permission) is
// kFailedPrecondition (exit status 2), a full or failed disk an
// InfrastructureError kOutOfDisk (exit status 4), any other failure
// kDataLoss; all name the path, and the old file is left as it was.
absl::Status WriteFile(const std::filesystem::path& path, absl::string_view text);

// CreateDirectories makes `path` and its parents, never throwing. A path
// that cannot be a directory (a file in the way, no permission, a read-only
// file system) is kFailedPrecondition naming it, since the user chose it
// (exit status 2); a disk that failed (full, over quota, an I/O error) is an
// InfrastructureError kOutOfDisk (exit status 4; harness/platform/infrastructure.h).
absl::Status CreateDirectories(const std::filesystem::path& path);

// Slug keeps letters and digits and turns everything else into '-':
// "wmma.load/mismatch" -> "wmma-load-mismatch".
std::string Slug(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_OUTPUT_FILES_H_
