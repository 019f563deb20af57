#include "harness/runs/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// Digest is one SHA-256 computation in progress.
class Digest {
 public:
  Digest() : context_(EVP_MD_CTX_new()) { EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr); }

  void Add(absl::string_view bytes) { EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()); }

  // Hex ends the computation and gives the digest in lowercase hex.
  std::string Hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_DigestFinal_ex(context_.get(), digest.data(), &length);
    return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest.data()), length));
  }

 private:
  struct Free {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> context_;
};

}  // namespace

std::string Sha256Hex(absl::string_view text) {
  Digest digest;
  digest.Add(text);
  return digest.Hex();
}

absl::StatusOr<std::string> Sha256OfFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  Digest digest;
  std::array<char, 1 << 16> block;
  while (file.read(block.data(), block.size()) || file.gcount() > 0) {
    digest.Add(absl::string_view(block.data(), static_cast<size_t>(file.gcount())));
  }
  if (file.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  return digest.Hex();
}

}  // namespace matload
