#include "harness/runs/registry_in_force.h"

#include "absl/strings/str_cat.h"
#include "harness/platform/input_files.h"
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
  absl::StatusOr<std::string> text = ReadFileBytes(path);
  if (!text.ok()) {
    return absl::NotFoundError(
        absl::StrCat("--registry ", OutsideText(path), ": cannot read the discrepancy registry"));
  }
  Chosen() = RegistryText{.origin = absl::StrCat("--registry ", OutsideText(path)), .digest = Sha256Hex(*text)};
  Chosen().text = *std::move(text);
  return absl::OkStatus();
}

const RegistryText& RegistryInForce() { return Chosen(); }

}  // namespace matload
