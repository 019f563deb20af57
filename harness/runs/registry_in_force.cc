#include "harness/runs/registry_in_force.h"

#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "harness/platform/outside_text.h"
#include "harness/runs/sha256.h"

namespace matload {
namespace {

// Chosen is the registry in force, made from the built-in one on first use.
RegistryText& Chosen() {
  static auto* const chosen = new RegistryText{.origin = "the built-in registry",
                                               .text = std::string(EmbeddedRegistryText()),
                                               .digest = Sha256Hex(EmbeddedRegistryText())};
  return *chosen;
}

}  // namespace

absl::Status UseRegistryFile(const std::string& path) {
  const absl::Status unreadable =
      absl::NotFoundError(absl::StrCat("--registry ", OutsideText(path), ": cannot read the discrepancy registry"));
  std::ifstream file(path, std::ios::binary);
  if (!file.is_open()) return unreadable;
  std::string text((std::istreambuf_iterator<char>(file)), {});
  if (file.bad()) return unreadable;
  Chosen() = RegistryText{.origin = absl::StrCat("--registry ", OutsideText(path)), .digest = Sha256Hex(text)};
  Chosen().text = std::move(text);
  return absl::OkStatus();
}

const RegistryText& RegistryInForce() { return Chosen(); }

}  // namespace matload
