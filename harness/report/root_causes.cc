#include "harness/report/root_causes.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "harness/platform/input_files.h"
#include "harness/report/word_origins.h"
#include "harness/report/word_picture.h"
#include "nlohmann/json.hpp"
#include "reference/outcome.h"

namespace matload {
namespace {

namespace fs = std::filesystem;

// Bytes views a file's text as its bytes.
absl::Span<const std::uint8_t> Bytes(const std::string& text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// BundleWords maps the bundle's actual.bin against its expected.bin, when
// it holds both and they have a warp's shape.
std::optional<WordMap> BundleWords(const fs::path& bundle) {
  const absl::StatusOr<std::string> expected = ReadFileBytes(bundle / "expected.bin");
  const absl::StatusOr<std::string> actual = ReadFileBytes(bundle / "actual.bin");
  if (!expected.ok() || !actual.ok() || expected->empty() || expected->size() % (4 * kWarpLanes) != 0) {
    return std::nullopt;
  }
  LaneValues model = LaneValues::Zeroed(static_cast<int>(expected->size() / (4 * kWarpLanes)));
  for (size_t index = 0; index < model.words.size(); ++index) model.words[index] = OutputWord(Bytes(*expected), index);
  return MapWords(model, Bytes(*actual));
}

// IndexedSignatures reads each bundle's signature from the index.tsv
// beside the bundles (signature, cases, bundle, first case), which is
// published whole where the bundles themselves are not.
std::map<std::string, std::string> IndexedSignatures(const fs::path& bundles) {
  std::map<std::string, std::string> signatures;
  const absl::StatusOr<std::string> index = ReadFileBytes(bundles / "index.tsv");
  if (!index.ok()) return signatures;
  for (absl::string_view line : absl::StrSplit(*index, '\n')) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    if (fields.size() >= 3 && !absl::StartsWith(line, "#")) signatures[std::string(fields[2])] = std::string(fields[0]);
  }
  return signatures;
}

// Signature is the signature the bundle's case.json names, or `fallback`.
std::string Signature(const fs::path& bundle, const std::string& fallback) {
  const absl::StatusOr<std::string> text = ReadFileBytes(bundle / "case.json");
  if (!text.ok()) return fallback;
  const nlohmann::json json = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return json.is_object() && json.contains("signature") && json["signature"].is_string()
             ? json["signature"].get<std::string>()
             : fallback;
}

}  // namespace

std::vector<RootCause> RootCauses(const std::vector<const CaseRecord*>& cases, const fs::path& run_directory) {
  std::map<std::string, RootCause> by_bundle;
  for (const CaseRecord* record : cases) {
    if (record->bundle.empty()) continue;
    RootCause& cause = by_bundle[record->bundle];
    ++cause.cases;
    if (cause.first == nullptr || record->id < cause.first->id) cause.first = record;
  }
  std::vector<RootCause> causes;
  std::map<fs::path, std::map<std::string, std::string>> indexes;  // a bundles directory -> its index
  for (auto& [bundle, cause] : by_bundle) {
    const fs::path directory = run_directory / bundle;
    const fs::path parent = directory.parent_path();
    if (!indexes.contains(parent)) indexes[parent] = IndexedSignatures(parent);
    const auto indexed = indexes[parent].find(directory.filename().string());
    cause.signature = Signature(directory, indexed != indexes[parent].end() ? indexed->second : bundle);
    cause.diagnosis = cause.first->detail;
    if (const std::optional<WordMap> words = BundleWords(directory); words.has_value()) {
      cause.diagnosis = Diagnose(*words);
      cause.picture = WordPictureSvg(*words);
    }
    causes.push_back(std::move(cause));
  }
  std::stable_sort(causes.begin(), causes.end(),
                   [](const RootCause& a, const RootCause& b) { return a.cases > b.cases; });
  return causes;
}

}  // namespace matload
