#include "harness/triage/triage_case.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "reference/ptx_version.h"
#include "reference/target.h"

namespace matload {
namespace {

// ProgramOptionsOfLabel reads the address width a label names
// ("... [32-bit address]", TestProgram::Label) and strips it off `label`.
ProgramOptions ProgramOptionsOfLabel(std::string& label) {
  ProgramOptions options;
  for (const int bits : {32, 64}) {
    const std::string suffix = absl::StrCat(" [", bits, "-bit address]");
    if (absl::EndsWith(label, suffix)) {
      label.resize(label.size() - suffix.size());
      options.shared_address_bits = bits;
    }
  }
  return options;
}

// Invalid is the bundle's bad-input status.
absl::Status Invalid(const std::filesystem::path& bundle, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(bundle.string(), " is no bundle matload triage can run: ", what));
}

// FindVariant makes variant `index` of `seed` as the run may have made it
// (with or without undefined variants) and keeps the one whose record is
// the bundle's `record`.
absl::Status FindVariant(const std::string& record, std::int64_t index, TriageCase& triage_case) {
  for (const bool undefined : {false, true}) {
    Variant variant = triage_case.program->MakeVariant(triage_case.seed, static_cast<int>(index), undefined);
    const std::vector<std::uint8_t> made = triage_case.program->Record(variant);
    if (std::string(made.begin(), made.end()) == record) {
      triage_case.variant = variant;
      triage_case.undefined = undefined;
      return absl::OkStatus();
    }
  }
  return Invalid(triage_case.bundle, absl::StrCat("record.bin is not variant ", index, " of seed ", triage_case.seed,
                                                  " of ", triage_case.program->Label()));
}

}  // namespace

absl::StatusOr<TriageCase> ReadTriageCase(const std::filesystem::path& directory) {
  TriageCase triage_case{.bundle = directory};
  absl::StatusOr<std::string> text = ReadFileBytes(directory / "case.json");
  if (!text.ok()) return Invalid(directory, text.status().message());
  const nlohmann::json description = nlohmann::json::parse(*text, nullptr, false);
  std::int64_t index = 0;
  std::string label;
  absl::StatusOr<Target> target = absl::InvalidArgumentError("no target");
  absl::StatusOr<PtxVersion> ptx = absl::InvalidArgumentError("no PTX version");
  try {
    label = description.at("form").get<std::string>();
    target = ParseTarget(description.at("target").get<std::string>());
    ptx = ParsePtxVersion(description.at("ptx").get<std::string>());
    triage_case.seed = description.at("seed").get<std::uint64_t>();
    index = description.at("variant").at("index").get<std::int64_t>();
    triage_case.signature = description.at("signature").get<std::string>();
    triage_case.recorded_outcome = description.at("outcome").get<std::string>();
    triage_case.recorded_detail = description.at("detail").get<std::string>();
    triage_case.recorded_compile_path = description.at("compile_path").get<std::string>();
    triage_case.recorded_identity = description.at("identity").get<std::string>();
  } catch (const nlohmann::json::exception& error) {
    return Invalid(directory, absl::StrCat("case.json: ", error.what()));
  }
  if (!target.ok()) return Invalid(directory, target.status().message());
  if (!ptx.ok()) return Invalid(directory, ptx.status().message());
  const ProgramOptions options = ProgramOptionsOfLabel(label);
  absl::StatusOr<std::unique_ptr<TestProgram>> program = TestProgram::ForOpcode(label, *target, *ptx, options);
  if (!program.ok()) return Invalid(directory, program.status().message());
  triage_case.program = *std::move(program);
  absl::StatusOr<std::string> kernel = ReadFileBytes(directory / "kernel.ptx");
  absl::StatusOr<std::string> record = ReadFileBytes(directory / "record.bin");
  if (!kernel.ok()) return Invalid(directory, kernel.status().message());
  if (!record.ok()) return Invalid(directory, record.status().message());
  triage_case.kernel = *kernel;
  triage_case.kernel_is_matloads = *kernel == triage_case.program->kernel();
  if (absl::Status found = FindVariant(*record, index, triage_case); !found.ok()) return found;
  return triage_case;
}

}  // namespace matload
