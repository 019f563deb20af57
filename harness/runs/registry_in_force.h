// RegistryInForce: the discrepancy registry a matload process judges by,
// and its SHA-256 digest, which every run it stores records. It is the
// registry built into the binary (corpora/known_discrepancies.json as the
// build found it: cmake/embed_text.cmake), so that an installed matload
// judges the same with no source tree beside it, unless `--registry FILE`
// names another for the process. Which registry judged a run decides its
// verdicts as much as the build does: `matload merge` joins only shards
// judged by one registry, and a run is resumed only under the one it began
// with.
#ifndef MATLOAD_HARNESS_RUNS_REGISTRY_IN_FORCE_H_
#define MATLOAD_HARNESS_RUNS_REGISTRY_IN_FORCE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// RegistryText is a registry as text: where it came from, and its digest.
struct RegistryText {
  std::string origin;  // how messages name it: "the built-in registry" or "--registry PATH"
  std::string text;    // the registry's JSON, unparsed
  std::string digest;  // Sha256Hex(text): 64 hex digits
};

// EmbeddedRegistryText is corpora/known_discrepancies.json as it was when
// the binary was built (defined in a source the build generates).
absl::string_view EmbeddedRegistryText();

// UseRegistryFile makes the registry in `path` the one this process judges
// by, for `--registry FILE`; kNotFound naming it when it cannot be read.
// Whether it parses is for the judge (LoadRegistryInForce in
// harness/judge/discrepancy_registry.h) to say. It is called once, before
// any command runs.
absl::Status UseRegistryFile(const std::string& path);

// RegistryInForce is the registry UseRegistryFile chose, else the built-in
// one.
const RegistryText& RegistryInForce();

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_REGISTRY_IN_FORCE_H_
