// Input files: whole files read at once, the counterpart of
// output_files.h, for what matload reads back that it or a user wrote (a
// bundle's files, a fuzz run's coverage.tsv, a registry, a report under
// test). What lies at such a path is not trusted to be a file: a run
// directory is the user's, and anything may have been put there.
#ifndef MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_
#define MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_

#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"

namespace matload {

// kMaxInputFileBytes is the most ReadFileBytes reads of one file. Its
// callers' largest files are a fuzz run's coverage.tsv (a row per target
// every 10 s: tens of MiB after a week-long campaign), a bundle's
// kernel.cubin and a conform run's bundles/index.tsv (a few MiB at most);
// a bundle's .bin files, case.json, kernel.ptx and the discrepancy
// registry are kilobytes. A file beyond it is no file matload wrote.
inline constexpr std::int64_t kMaxInputFileBytes = std::int64_t{256} << 20;

// ReadFileBytes reads a whole regular file, byte for byte, and never
// throws. Its errors name the path: a path where nothing is, kNotFound; one
// that cannot be opened, the code of its errno (kPermissionDenied, ...);
// a directory, FIFO, socket or device (a symlink to one included: it is
// refused as what it points at, without waiting for a FIFO's writer or
// reading a device's endless bytes), kFailedPrecondition; a file larger
// than kMaxInputFileBytes, kResourceExhausted; a read that fails part way,
// kDataLoss.
absl::StatusOr<std::string> ReadFileBytes(const std::filesystem::path& path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_INPUT_FILES_H_
