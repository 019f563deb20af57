#include "harness/cli/resumed_run_flags.h"

#include <algorithm>
#include <array>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/cli/flags.h"
#include "harness/runs/results_store.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// StoredOption is one key of a command's stored options (ConformOptionsJson,
// support's OptionsJson, fuzz's run options) and the flag it was read from.
struct StoredOption {
  absl::string_view command;
  absl::string_view key;
  absl::string_view flag;
};

constexpr StoredOption kStoredOptions[] = {
    {"conform", "variants", "variants"},
    {"conform", "seed", "seed"},
    {"conform", "forms", "forms"},
    {"conform", "paths", "paths"},
    {"conform", "undefined", "undefined"},
    {"conform", "near_miss", "near_miss"},
    {"conform", "plant", "plant"},
    {"conform", "retries", "retries"},
    {"conform", "first_failures", "first_failures"},
    {"conform", "confirm_all_faults", "confirm_all_faults"},
    {"support", "targets", "target"},
    {"support", "ptx", "ptx"},
    {"support", "compiler", "compiler"},
    {"support", "ptxas", "ptxas"},
    {"fuzz", "targets", "targets"},
    {"fuzz", "seconds", "seconds"},
    {"fuzz", "jobs", "jobs"},
    {"fuzz", "seed", "seed"},
};

// kFilterFlags are the flags of the case filter, stored as one option,
// "filter" (FilterFromFlags): they are taken from the run together or not
// at all.
constexpr std::array<absl::string_view, 3> kFilterFlags = {"cases", "include", "exclude"};

// FlagText is a stored option's value as its flag is written: a list's
// elements joined with ','.
absl::StatusOr<std::string> FlagText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean() || value.is_number_integer()) return value.dump();
  if (value.is_array()) {
    std::vector<std::string> elements;
    for (const nlohmann::json& element : value) {
      if (!element.is_string()) return absl::DataLossError(absl::StrCat("a list element ", element.dump()));
      elements.push_back(element.get<std::string>());
    }
    return absl::StrJoin(elements, ",");
  }
  return absl::DataLossError(absl::StrCat("the value ", value.dump()));
}

// FilterFlagTexts reads the case filter's stored text, "cases=PATH#HASH
// include=A,B exclude=C" (FilterFromFlags), back into --cases, --include
// and --exclude. The case list's hash is left out: the resumed run's
// options hash the list again, so a list changed since is refused.
absl::StatusOr<std::array<std::string, 3>> FilterFlagTexts(absl::string_view text) {
  const size_t exclude = text.rfind(" exclude=");
  const size_t include = exclude == absl::string_view::npos ? exclude : text.rfind(" include=", exclude);
  if (!absl::StartsWith(text, "cases=") || include == absl::string_view::npos) {
    return absl::DataLossError(absl::StrCat("the case filter '", text, "'"));
  }
  std::string cases(text.substr(6, include - 6));
  if (!cases.empty()) {
    const size_t hash = cases.rfind('#');
    if (hash == std::string::npos) return absl::DataLossError(absl::StrCat("the case filter '", text, "'"));
    cases.resize(hash);
  }
  return std::array<std::string, 3>{cases, std::string(text.substr(include + 9, exclude - include - 9)),
                                    std::string(text.substr(exclude + 9))};
}

// SetStoredFlag sets `flag` to `text`, as the run `id` stored it.
absl::Status SetStoredFlag(absl::string_view flag, const std::string& text, const std::string& id) {
  std::string error;
  if (absl::FindCommandLineFlag(flag)->ParseFrom(text, &error)) return absl::OkStatus();
  return absl::DataLossError(
      absl::StrCat("run ", id, " stored --", flag, " as '", text, "', which does not read back: ", error));
}

}  // namespace

absl::Status SetFlagsOfResumedRun(absl::string_view command, const std::set<std::string>& given) {
  const std::string resume = absl::GetFlag(FLAGS_resume);
  if (resume.empty()) return absl::OkStatus();
  // Only read: an unknown store or run is for RunJournal::Start to refuse,
  // and no store is created here.
  absl::StatusOr<ResultsStore> store = ResultsStore::OpenReadOnly(ResultsStore::DefaultPath(absl::GetFlag(FLAGS_db)));
  if (!store.ok()) return absl::OkStatus();
  absl::StatusOr<RunRecord> run = store->FindRun(resume);
  if (!run.ok() || run->command != command) return absl::OkStatus();
  const nlohmann::json options = nlohmann::json::parse(run->options, nullptr, false);
  if (!options.is_object()) {
    return absl::DataLossError(absl::StrCat("run ", run->id, "'s options are not a JSON object: ", run->options));
  }
  for (const StoredOption& option : kStoredOptions) {
    if (option.command != command || given.contains(std::string(option.flag))) continue;
    const auto value = options.find(option.key);
    if (value == options.end()) continue;
    absl::StatusOr<std::string> text = FlagText(*value);
    if (!text.ok()) {
      return absl::DataLossError(
          absl::StrCat("run ", run->id, " stored ", option.key, " as ", text.status().message(), ", not a flag's"));
    }
    if (absl::Status set = SetStoredFlag(option.flag, *text, run->id); !set.ok()) return set;
  }
  const auto filter = options.find("filter");
  const bool filter_given = std::any_of(kFilterFlags.begin(), kFilterFlags.end(),
                                        [&](absl::string_view f) { return given.contains(std::string(f)); });
  if (filter == options.end() || !filter->is_string() || filter_given) return absl::OkStatus();
  absl::StatusOr<std::array<std::string, 3>> texts = FilterFlagTexts(filter->get<std::string>());
  if (!texts.ok()) {
    return absl::DataLossError(absl::StrCat("run ", run->id, " stored ", texts.status().message(),
                                            ", which does not read back as --cases, --include and --exclude"));
  }
  for (size_t i = 0; i < kFilterFlags.size(); ++i) {
    if (absl::Status set = SetStoredFlag(kFilterFlags[i], (*texts)[i], run->id); !set.ok()) return set;
  }
  return absl::OkStatus();
}

}  // namespace matload
