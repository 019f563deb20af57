#include "harness/cli/pure_commands.h"

#include <cstdint>
#include <optional>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/check_command.h"
#include "harness/cli/flags.h"
#include "harness/cli/forms_command.h"
#include "harness/cli/model_command.h"
#include "harness/platform/exit_status.h"
#include "harness/platform/outside_text.h"

namespace matload {
namespace {

int Fail(std::ostream& err, absl::string_view message) {
  err << "matload: " << PrintedText(message) << "\n";
  return kExitUsage;
}

// ParseOneTarget reads --target as exactly one target for `command`.
absl::StatusOr<Target> ParseOneTarget(absl::string_view command) {
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!targets.ok()) return absl::InvalidArgumentError(absl::StrCat("--target: ", targets.status().message()));
  if (targets->size() != 1) return absl::InvalidArgumentError(absl::StrCat(command, " takes exactly one --target"));
  return targets->front();
}

// ParsePtxFlag reads --ptx, the newest version matload knows when it is not given.
absl::StatusOr<PtxVersion> ParsePtxFlag() {
  if (absl::GetFlag(FLAGS_ptx).empty()) return NewestPtxVersion();
  absl::StatusOr<PtxVersion> ptx = ParsePtxVersion(absl::GetFlag(FLAGS_ptx));
  if (!ptx.ok()) return absl::InvalidArgumentError(absl::StrCat("--ptx: ", ptx.status().message()));
  return ptx;
}

}  // namespace

int RunCheckCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<Target>> targets = ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!targets.ok()) return Fail(err, absl::StrCat("--target: ", targets.status().message()));
  absl::StatusOr<PtxVersion> ptx = ParsePtxFlag();
  if (!ptx.ok()) return Fail(err, ptx.status().message());
  std::vector<LabeledSnippet> snippets;
  const std::string file = absl::GetFlag(FLAGS_file);
  if (!file.empty()) {
    if (!arguments.empty()) return Fail(err, "give either --file or a snippet, not both");
    absl::StatusOr<std::vector<LabeledSnippet>> read = ReadSnippetFile(file);
    if (!read.ok()) return ReportFailure(err, read.status());
    snippets = *std::move(read);
  } else if (arguments.size() == 1) {
    snippets.push_back({"argv", arguments[0]});
  } else {
    return Fail(err, "check needs one snippet argument (quote it) or --file F");
  }
  WriteCheck(snippets, *targets, *ptx, absl::GetFlag(FLAGS_json), out);
  return kExitClean;
}

int RunFormsCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (!arguments.empty()) return Fail(err, absl::StrCat("forms takes no arguments, got '", arguments[0], "'"));
  if (absl::GetFlag(FLAGS_families)) {
    WriteFamilies(out);
    return kExitClean;
  }
  absl::StatusOr<Target> target = ParseOneTarget("forms");
  if (!target.ok()) return Fail(err, target.status().message());
  absl::StatusOr<PtxVersion> ptx = ParsePtxFlag();
  if (!ptx.ok()) return Fail(err, ptx.status().message());
  if (!TargetExistsIn(*target, *ptx)) {
    return Fail(err, absl::StrCat(".target ", target->Name(), " does not exist in PTX ISA ", ptx->ToString()));
  }
  std::string filter_text;
  absl::StatusOr<CaseFilter> filter = FilterFromFlags(filter_text);
  if (!filter.ok()) return ReportFailure(err, filter.status());
  WriteForms(*ptx, *target, {.illegal = absl::GetFlag(FLAGS_illegal), .ids = absl::GetFlag(FLAGS_ids), .filter = *filter},
             out);
  return kExitClean;
}

int RunModelCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.size() != 1) return Fail(err, "model needs one instruction argument (quote it)");
  absl::StatusOr<Target> target = ParseOneTarget("model");
  if (!target.ok()) return Fail(err, target.status().message());
  absl::StatusOr<PtxVersion> ptx = ParsePtxFlag();
  if (!ptx.ok()) return Fail(err, ptx.status().message());
  ModelOptions options{.target = *target, .ptx = *ptx, .data = absl::GetFlag(FLAGS_data),
                       .base = absl::GetFlag(FLAGS_base), .json = absl::GetFlag(FLAGS_json)};
  for (const std::string& address : absl::GetFlag(FLAGS_row_addresses)) {
    std::uint64_t value = 0;
    if (!absl::SimpleAtoi(address, &value)) {
      return Fail(err, absl::StrCat("--row-addresses: '", address, "' is not a number"));
    }
    options.row_addresses.push_back(value);
  }
  // The parser holds --stride to 0..2^32-1 (harness/cli/flags.cc).
  if (const std::optional<std::int64_t> stride = absl::GetFlag(FLAGS_stride)) {
    options.stride = static_cast<std::uint32_t>(*stride);
  }
  if (absl::Status status = WriteModel(arguments[0], options, out); !status.ok()) return ReportFailure(err, status);
  return kExitClean;
}

PureCommand FindPureCommand(absl::string_view name) {
  if (name == "check") return RunCheckCommand;
  if (name == "forms") return RunFormsCommand;
  if (name == "model") return RunModelCommand;
  return nullptr;
}

}  // namespace matload
