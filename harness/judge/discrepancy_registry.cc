#include "harness/judge/discrepancy_registry.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/platform/source_tree.h"
#include "harness/runs/registry_in_force.h"
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

// Releases reads the optional array `name` of `item` into `names`, each
// parsed into `releases`; `required` says it must be there and not empty.
absl::Status Releases(const nlohmann::json& item, const char* name, const std::string& id, bool required,
                      std::vector<std::string>& names, std::vector<ToolchainRelease>& releases) {
  if (!item.contains(name) && !required) return absl::OkStatus();
  if (!item.contains(name) || !item[name].is_array() || (required && item[name].empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        id, ": '", name, "' must ", required ? "list where it was measured" : "be an array of toolchains"));
  }
  for (const nlohmann::json& toolchain : item[name]) {
    std::optional<ToolchainRelease> release =
        toolchain.is_string() ? ParseToolchainRelease(toolchain.get<std::string>()) : std::nullopt;
    if (!release.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(id, ": ", name, " '", toolchain.is_string() ? toolchain.get<std::string>() : toolchain.dump(),
                       "' names no tool and release (\"ptxas 13.0.88\")"));
    }
    names.push_back(toolchain.get<std::string>());
    releases.push_back(*std::move(release));
  }
  return absl::OkStatus();
}

// CheckFixes says why a fix of `entry` means nothing, if one does: each must
// follow a release of its tool that the entry was measured on, and be none.
absl::Status CheckFixes(const DiscrepancyEntry& entry) {
  for (size_t i = 0; i < entry.fixed.size(); ++i) {
    const ToolchainRelease& fix = entry.fixed[i];
    bool follows = false;
    for (const ToolchainRelease& measured : entry.measured) {
      if (measured.tool == fix.tool && measured.release == fix.release) {
        return absl::InvalidArgumentError(
            absl::StrCat(entry.id, ": fixed_in '", entry.fixed_in[i], "' is also a release it was measured on"));
      }
      follows = follows || (Reaches(fix, measured) && !IsRelease(fix, measured));
    }
    if (!follows) {
      return absl::InvalidArgumentError(absl::StrCat(entry.id, ": fixed_in '", entry.fixed_in[i],
                                                     "' follows no release of its tool that 'toolchains' lists"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string DefaultRegistryPath() { return SourceTreePath("corpora/known_discrepancies.json"); }

absl::StatusOr<DiscrepancyRegistry> LoadRegistryInForce() {
  const RegistryText& in_force = RegistryInForce();
  absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Parse(in_force.text);
  if (!registry.ok())
    return absl::InvalidArgumentError(absl::StrCat(in_force.origin, ": ", registry.status().message()));
  return registry;
}

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
    for (absl::Status read :
         {Releases(item, "toolchains", entry.id, true, entry.toolchains, entry.measured),
          Releases(item, "fixed_in", entry.id, false, entry.fixed_in, entry.fixed), CheckFixes(entry)}) {
      if (!read.ok()) return read;
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

Coverage DiscrepancyRegistry::CoverageOf(const DiscrepancyEntry& entry, absl::string_view toolchain) {
  const std::optional<ToolchainRelease> release = ParseToolchainRelease(toolchain);
  if (!release.has_value()) return Coverage::kNone;
  const ToolchainRelease* latest = nullptr;
  bool latest_is_fix = false;
  for (const auto& [releases, fixes] : {std::pair{&entry.measured, false}, {&entry.fixed, true}}) {
    for (const ToolchainRelease& named : *releases) {
      if (!Reaches(*release, named) || (latest != nullptr && named.release <= latest->release)) continue;
      latest = &named;
      latest_is_fix = fixes;
    }
  }
  if (latest == nullptr || latest_is_fix) return Coverage::kNone;
  return IsRelease(*release, *latest) ? Coverage::kMeasured : Coverage::kCarried;
}

bool DiscrepancyRegistry::AppliesTo(const DiscrepancyEntry& entry, absl::string_view toolchain) {
  return CoverageOf(entry, toolchain) != Coverage::kNone;
}

std::string DiscrepancyRegistry::Standing(const DiscrepancyEntry& entry, absl::string_view toolchain) {
  return CoverageOf(entry, toolchain) == Coverage::kCarried ? absl::StrCat("also seen on ", toolchain) : "";
}

bool DiscrepancyRegistry::Falls(const DiscrepancyEntry& entry, const std::string& case_text, Target target,
                                Direction direction) {
  return entry.direction == direction &&
         (entry.targets.empty() ||
          std::find(entry.targets.begin(), entry.targets.end(), target) != entry.targets.end()) &&
         std::regex_search(case_text, entry.compiled);
}

const DiscrepancyEntry* DiscrepancyRegistry::ById(absl::string_view id) const {
  for (const DiscrepancyEntry& entry : entries_) {
    if (entry.id == id) return &entry;
  }
  return nullptr;
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
    if (Falls(entry, text, target, direction)) return &entry;
  }
  return nullptr;
}

}  // namespace matload
