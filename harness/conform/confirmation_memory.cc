#include "harness/conform/confirmation_memory.h"

#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace matload {

ConfirmationMemory::ConfirmationMemory(const ConformanceOptions& options, const std::vector<DeviceProbe>& probes)
    : options_(options) {
  std::set<std::string> models;
  for (const DeviceProbe& probe : probes) models.insert(probe.name);
  identity_ = absl::StrCat(absl::StrJoin(models, " + "), "; ", probes.empty() ? "" : probes[0].toolchain);
}

absl::StatusOr<std::optional<std::string>> ConfirmationMemory::Recall(const Confirmation& confirmation) const {
  if (options_.confirmed_earlier != nullptr) {
    const auto earlier = options_.confirmed_earlier->find({confirmation.case_id, confirmation.entry});
    if (earlier != options_.confirmed_earlier->end()) return earlier->second;
  }
  if (!Kept(confirmation)) return std::nullopt;
  absl::StatusOr<std::optional<std::string>> found = options_.fault_memory->Find(identity_, Question(confirmation));
  if (!found.ok()) return found.status();
  const nlohmann::json answer = nlohmann::json::parse(found->value_or(""), nullptr, false);
  if (!answer.is_object() || !answer.contains("fault") || !answer["fault"].is_string()) return std::nullopt;
  return answer["fault"].get<std::string>();
}

absl::Status ConfirmationMemory::Keep(const Confirmation& confirmation, const std::string& detail) const {
  if (!Kept(confirmation)) return absl::OkStatus();
  const std::string run = options_.journal != nullptr ? options_.journal->run().id : options_.run_directory;
  const nlohmann::json answer = {{"fault", detail}, {"run", run}};
  return options_.fault_memory->Keep(identity_, {{Question(confirmation), answer.dump()}});
}

bool ConfirmationMemory::Kept(const Confirmation& confirmation) const {
  return options_.fault_memory != nullptr && confirmation.path == CompilePath::kDriverJit;
}

std::string ConfirmationMemory::Question(const Confirmation& confirmation) {
  const std::vector<std::uint8_t> record = confirmation.program->Record(confirmation.variant);
  return absl::StrCat(
      "conform fault confirmation, one variant per launch\nentry ", confirmation.entry, "\nrecord ",
      absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(record.data()), record.size())),
      "\nkernel\n", confirmation.program->kernel());
}

}  // namespace matload
