#include "harness/judge/discrepancy_registry.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/source_tree.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

absl::StatusOr<std::string> Field(const nlohmann::json& entry, const char* name, const std::string& where,
                                  bool required = true) {
  if (!entry.contains(name)) {
    if (!required) return std::string();
    return absl::InvalidArgumentError(absl::StrCat(where, ": missing field '", name, "'"));
  }
  if (!entry[name].is_string()) return absl::InvalidArgumentError(absl::StrCat(where, ": '", name, "' is not a string"));
  return entry[name].get<std::string>();
}

}  // namespace

std::string DefaultRegistryPath() { return SourceTreePath("corpora/known_discrepancies.json"); }

absl::StatusOr<DiscrepancyRegistry> DiscrepancyRegistry::Load(const std::string& path) {
  std::ifstream file(path);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot read the discrepancy registry ", path));
  std::stringstream text;
  text << file.rdbuf();
  absl::StatusOr<DiscrepancyRegistry> registry = Parse(text.str());
  if (!registry.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", registry.status().message()));
  return registry;
}

absl::StatusOr<DiscrepancyRegistry> DiscrepancyRegistry::Parse(absl::string_view json) {
  nlohmann::json document = nlohmann::json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return absl::InvalidArgumentError("the registry is not valid JSON");
  if (!document.is_object() || !document.contains("discrepancies") || !document["discrepancies"].is_array()) {
    return absl::InvalidArgumentError("the registry must be an object with a 'discrepancies' array");
  }
  DiscrepancyRegistry registry;
  for (const nlohmann::json& item : document["discrepancies"]) {
    const std::string where = absl::StrCat("entry ", registry.entries_.size());
    if (!item.is_object()) return absl::InvalidArgumentError(absl::StrCat(where, ": not an object"));
    DiscrepancyEntry entry;
    for (auto [field, name, required] : {std::tuple{&entry.id, "id", true}, {&entry.pattern, "pattern", true},
                                         {&entry.rule, "rule", true},
                                         {&entry.toolchain_message, "toolchain_message", true},
                                         {&entry.judgement, "judgement", true}, {&entry.example, "example", true},
                                         {&entry.link, "link", false}}) {
      absl::StatusOr<std::string> value = Field(item, name, where, required);
      if (!value.ok()) return value.status();
      *field = *value;
    }
    absl::StatusOr<std::string> direction = Field(item, "direction", where);
    if (!direction.ok()) return direction.status();
    if (*direction == "toolchain-accepts") {
      entry.direction = Direction::kToolchainAccepts;
    } else if (*direction == "toolchain-rejects") {
      entry.direction = Direction::kToolchainRejects;
    } else if (*direction == "device-faults") {
      entry.direction = Direction::kDeviceFaults;
    } else if (*direction == "toolchain-misdiagnoses") {
      entry.direction = Direction::kToolchainMisdiagnoses;
    } else if (*direction == "toolchain-crashes") {
      entry.direction = Direction::kToolchainCrashes;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(entry.id,
                                                     ": direction must be toolchain-accepts, toolchain-rejects, "
                                                     "device-faults, toolchain-misdiagnoses or toolchain-crashes"));
    }
    if (!item.contains("toolchains") || !item["toolchains"].is_array() || item["toolchains"].empty()) {
      return absl::InvalidArgumentError(absl::StrCat(entry.id, ": 'toolchains' must list where it was measured"));
    }
    for (const nlohmann::json& toolchain : item["toolchains"]) {
      if (!toolchain.is_string()) return absl::InvalidArgumentError(absl::StrCat(entry.id, ": toolchains"));
      entry.toolchains.push_back(toolchain.get<std::string>());
    }
    if (item.contains("targets")) {
      if (!item["targets"].is_array()) return absl::InvalidArgumentError(absl::StrCat(entry.id, ": targets"));
      for (const nlohmann::json& name : item["targets"]) {
        absl::StatusOr<Target> target = ParseTarget(name.is_string() ? name.get<std::string>() : "");
        if (!target.ok()) return absl::InvalidArgumentError(absl::StrCat(entry.id, ": ", target.status().message()));
        entry.targets.push_back(*target);
      }
    }
    if (entry.direction == Direction::kToolchainMisdiagnoses && entry.targets.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(entry.id, ": a toolchain-misdiagnoses entry names the targets its example is assembled for"));
    }
    try {
      entry.compiled = std::regex(entry.pattern);
    } catch (const std::regex_error& error) {
      return absl::InvalidArgumentError(absl::StrCat(entry.id, ": bad pattern: ", error.what()));
    }
    registry.entries_.push_back(std::move(entry));
  }
  return registry;
}

bool DiscrepancyRegistry::AppliesTo(const DiscrepancyEntry& entry, absl::string_view toolchain) {
  for (const std::string& measured : entry.toolchains) {
    if (absl::StartsWith(toolchain, measured)) return true;
  }
  return false;
}

const DiscrepancyEntry* DiscrepancyRegistry::Find(absl::string_view case_text, Target target, Direction direction,
                                                  absl::string_view toolchain) const {
  return Matching(case_text, target, direction, &toolchain);
}

const DiscrepancyEntry* DiscrepancyRegistry::FindAnywhere(absl::string_view case_text, Target target,
                                                          Direction direction) const {
  return Matching(case_text, target, direction, nullptr);
}

const DiscrepancyEntry* DiscrepancyRegistry::FindMisdiagnosis(absl::string_view case_text,
                                                              absl::string_view message) const {
  const std::string text(case_text);
  for (const DiscrepancyEntry& entry : entries_) {
    if (entry.direction == Direction::kToolchainMisdiagnoses && absl::StrContains(message, entry.toolchain_message) &&
        std::regex_search(text, entry.compiled)) {
      return &entry;
    }
  }
  return nullptr;
}

const DiscrepancyEntry* DiscrepancyRegistry::Matching(absl::string_view case_text, Target target, Direction direction,
                                                      const absl::string_view* toolchain) const {
  const std::string text(case_text);
  for (const DiscrepancyEntry& entry : entries_) {
    if (entry.direction != direction || (toolchain != nullptr && !AppliesTo(entry, *toolchain))) continue;
    if (!entry.targets.empty() && std::find(entry.targets.begin(), entry.targets.end(), target) == entry.targets.end()) {
      continue;
    }
    if (std::regex_search(text, entry.compiled)) return &entry;
  }
  return nullptr;
}

}  // namespace matload
