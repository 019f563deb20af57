// Sha256: the SHA-256 digest (FIPS 180-4, computed by OpenSSL's libcrypto)
// of text or of a file, in lowercase hex. The verdict cache names what it
// keeps by these digests: a compiler binary, and each question asked of it.
#ifndef MATLOAD_HARNESS_RUNS_SHA256_H_
#define MATLOAD_HARNESS_RUNS_SHA256_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace matload {

// Sha256Hex is the digest of `text`: 64 hex digits.
std::string Sha256Hex(absl::string_view text);

// Sha256OfFile is the digest of the file at `path`, read in blocks so that
// a 40 MB compiler is never held in memory whole; kNotFound when it cannot
// be opened, kDataLoss when reading it fails part way.
absl::StatusOr<std::string> Sha256OfFile(const std::string& path);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_SHA256_H_
