#include "harness/cli/model_command.h"

#include <limits>
#include <optional>
#include <utility>
#include <random>
#include <variant>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "harness/families/family_runtime.h"
#include "nlohmann/json.hpp"
#include "reference/inferred_rules.h"
#include "reference/legality.h"
#include "reference/parser.h"
#include "reference/raw_instruction.h"
#include "reference/spec_ref.h"

namespace matload {
namespace {

// WrittenOperands are the run-time operands an instruction's text fixes:
// its address operand and, for wmma.load, the operand after it.
struct WrittenOperands {
  AddressOperand address;
  std::optional<Operand> stride;
};

// FindWrittenOperands reads them from `text`, which Judge found legal.
absl::StatusOr<WrittenOperands> FindWrittenOperands(absl::string_view text) {
  absl::StatusOr<Snippet> snippet = ParseSnippet(text);
  if (!snippet.ok()) return snippet.status();
  const std::vector<Operand>& operands = snippet->instruction.operands;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (const auto* address = std::get_if<AddressOperand>(&operands[i])) {
      WrittenOperands written{.address = *address};
      if (i + 1 < operands.size()) written.stride = operands[i + 1];
      return written;
    }
  }
  return absl::InternalError("a legal load without an address operand");
}

// WithWrittenOperands is `options` with the operands the instruction's text
// writes honoured: an offset in the address adds to --base (wmma.load's p,
// tcgen05.ld's taddr) or to every lane's row address (ldmatrix); an
// immediate address replaces them; an immediate stride is the stride. The
// flags give what the text leaves to registers. A flag the text contradicts,
// or one for an operand the form does not have, is kInvalidArgument.
absl::StatusOr<ModelOptions> WithWrittenOperands(const CheckedInstruction& instruction,
                                                 const WrittenOperands& written, ModelOptions options) {
  const AddressOperand& address = written.address;
  const bool immediate = address.base.empty();
  if (immediate && (options.base != 0 || !options.row_addresses.empty())) {
    return absl::InvalidArgumentError(absl::StrCat("the address [", address.offset,
                                                   "] is an immediate: --base and --row-addresses do not apply"));
  }
  const std::int64_t base = (immediate ? 0 : static_cast<std::int64_t>(options.base)) + address.offset;
  if (base < 0) {
    return absl::InvalidArgumentError(absl::StrCat("the address ", OperandToString(address), " with --base ",
                                                   options.base, " is below 0"));
  }
  options.base = static_cast<std::uint64_t>(base);
  // Per-lane addresses (ldmatrix's rows) take the written offset too; each
  // family reads the operands its roles name (FamilyRuntime::Explain).
  if (options.row_addresses.empty()) {
    for (int lane = 0; lane < kWarpLanes; ++lane) options.row_addresses.push_back(immediate ? 0 : 16 * lane);
  }
  for (std::uint64_t& row : options.row_addresses) row += address.offset;
  if (!instruction.signature().stride || !written.stride.has_value()) {
    if (options.stride.has_value()) {
      return absl::InvalidArgumentError(
          "--stride: the instruction has no stride operand, so it loads at its default stride");
    }
    return options;
  }
  if (const auto* literal = std::get_if<ImmediateOperand>(&*written.stride)) {
    if (options.stride.has_value() && *options.stride != literal->value) {
      return absl::InvalidArgumentError(
          absl::StrCat("--stride ", *options.stride, " contradicts the stride operand ", literal->value));
    }
    if (literal->value < 0 || literal->value > std::numeric_limits<std::uint32_t>::max()) {
      return absl::InvalidArgumentError(absl::StrCat("the stride operand ", literal->value, " is not a 32-bit stride"));
    }
    options.stride = static_cast<std::uint32_t>(literal->value);
  }
  return options;
}

// RuleIds are the ids of `rules`, as JSON and as "id, id" text.
nlohmann::json RuleIds(const std::vector<SpecRef>& rules) {
  nlohmann::json ids = nlohmann::json::array();
  for (const SpecRef& rule : rules) ids.push_back(std::string(rule.id));
  return ids;
}

// InferenceLabel is the text label of bits resting on `rules`: " [inferred:
// id, id]", or "" when the text fixes them.
std::string InferenceLabel(const std::vector<SpecRef>& rules) {
  if (rules.empty()) return "";
  std::vector<std::string> ids;
  for (const SpecRef& rule : rules) ids.emplace_back(rule.id);
  return absl::StrCat(" [inferred: ", absl::StrJoin(ids, ", "), "]");
}

// InferenceList is every inferred rule an execution rests on, with what it
// covers ("every register", "redval", "definedness") and what it was
// inferred from, for the head of the output.
nlohmann::json InferenceList(const ModelInferences& inferences) {
  nlohmann::json list = nlohmann::json::array();
  const std::pair<const std::vector<SpecRef>*, const char*> groups[] = {
      {&inferences.every_register, "every register"},
      {&inferences.reduction, "redval"},
      {&inferences.definedness, "definedness"}};
  for (const auto& [rules, covers] : groups) {
    for (const SpecRef& rule : *rules) {
      list.push_back({{"rule", std::string(rule.id)},
                      {"source", std::string(RuleSourceName(rule.source))},
                      {"covers", covers},
                      {"from", std::string(rule.section)}});
    }
  }
  return list;
}

// WriteInferenceLines writes InferenceList as text, one rule a line.
void WriteInferenceLines(const nlohmann::json& list, std::ostream& out) {
  for (const nlohmann::json& entry : list) {
    out << "inferred: " << entry["rule"].get<std::string>() << " (" << entry["covers"].get<std::string>()
        << "): " << entry["from"].get<std::string>() << "\n";
  }
}

std::string RegisterHex(absl::Span<const std::uint32_t> words, int reg, int register_bits) {
  const int per_register = register_bits / 32;
  std::string hex;
  for (int word = per_register - 1; word >= 0; --word) absl::StrAppendFormat(&hex, "%08x", words[reg * per_register + word]);
  return hex;
}

}  // namespace

absl::StatusOr<std::vector<std::uint8_t>> FillPattern(absl::string_view name, size_t bytes) {
  std::vector<std::uint8_t> window(bytes);
  if (absl::ConsumePrefix(&name, "random:")) {
    std::uint64_t seed = 0;
    if (!absl::SimpleAtoi(name, &seed)) return absl::InvalidArgumentError(absl::StrCat("--data random:SEED needs a number, got '", name, "'"));
    std::mt19937_64 random(seed);
    for (std::uint8_t& byte : window) byte = static_cast<std::uint8_t>(random());
    return window;
  }
  int width = 0;
  if (name == "iota8") width = 1;
  if (name == "iota16") width = 2;
  if (name == "iota32") width = 4;
  if (width == 0) return absl::InvalidArgumentError(absl::StrCat("--data must be iota8, iota16, iota32 or random:SEED, got '", name, "'"));
  for (size_t k = 0; k < bytes / width; ++k) {
    for (int b = 0; b < width; ++b) window[k * width + b] = static_cast<std::uint8_t>(k >> (8 * b));
  }
  return window;
}

absl::Status WriteModel(absl::string_view instruction, const ModelOptions& options, std::ostream& out) {
  const Verdict verdict = JudgeText(instruction, options.ptx, options.target);
  if (!verdict.legal()) {
    std::vector<std::string> reasons;
    for (const Reason& reason : verdict.reasons()) reasons.push_back(reason.message);
    return absl::InvalidArgumentError(absl::StrCat("illegal on ", options.target.Name(), ": ", absl::StrJoin(reasons, "; ")));
  }
  const CheckedInstruction& checked = *verdict.checked();
  absl::StatusOr<WrittenOperands> written = FindWrittenOperands(instruction);
  if (!written.ok()) return written.status();
  absl::StatusOr<ModelOptions> honoured = WithWrittenOperands(checked, *written, options);
  if (!honoured.ok()) return honoured.status();
  absl::StatusOr<std::vector<std::uint8_t>> window = FillPattern(options.data, kModelWindowBytes);
  if (!window.ok()) return window.status();
  const RuntimeInputs inputs{.rows = honoured->row_addresses,
                             .offset = honoured->base,
                             .stride = honoured->stride,
                             .column = static_cast<std::uint32_t>(honoured->base)};
  absl::StatusOr<ModelExplanation> result = RuntimeOf(checked.spec().family).Explain(checked, *window, inputs);
  if (!result.ok()) return result.status();
  const ModelInferences inferences = InferencesFor(checked);
  const nlohmann::json inference_list = InferenceList(inferences);
  if (!options.json) WriteInferenceLines(inference_list, out);
  if (const auto* undefined = std::get_if<Undefined>(&result->outcome)) {
    if (options.json) {
      out << nlohmann::json{{"undefined", undefined->why}, {"inferences", inference_list}}.dump() << "\n";
    } else {
      out << "undefined: " << undefined->why << "\n";
    }
    return absl::OkStatus();
  }
  if (const auto* fault = std::get_if<MustFault>(&result->outcome)) {
    out << (options.json ? nlohmann::json{{"must_fault", fault->why}, {"inferences", inference_list}}.dump()
                         : absl::StrCat("must fault: ", fault->why))
        << "\n";
    return absl::OkStatus();
  }
  const LaneValues& values = std::get<LaneValues>(result->outcome);
  const int registers = values.words_per_lane * 32 / result->register_bits;
  nlohmann::json json_registers = nlohmann::json::array();
  nlohmann::json json_provenance = nlohmann::json::array();
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    nlohmann::json lane_registers = nlohmann::json::array();
    nlohmann::json lane_provenance = nlohmann::json::array();
    std::string hex_line = absl::StrCat("lane ", lane, ":");
    std::string provenance_lines;
    for (int reg = 0; reg < registers; ++reg) {
      const std::string hex = RegisterHex(values.lane(lane), reg, result->register_bits);
      // tcgen05.ld.red's redval follows the registers and has no layout entry.
      const bool loaded = reg < static_cast<int>(result->provenance[lane].size());
      const std::vector<BitSource> pieces =
          loaded ? result->provenance[lane][reg]
                 : std::vector<BitSource>{{0, 31, "redval: the reduction over the lane's loaded values"}};
      const std::vector<SpecRef>& inferred = loaded ? inferences.every_register : inferences.reduction;
      nlohmann::json json_pieces = nlohmann::json::array();
      std::vector<std::string> text_pieces;
      for (const BitSource& piece : pieces) {
        const std::string bits = absl::StrCat(piece.first_bit, "-", piece.last_bit);
        json_pieces.push_back({{"bits", bits}, {"from", piece.source}, {"inferred", RuleIds(inferred)}});
        text_pieces.push_back(absl::StrCat("[", bits, "] ", piece.source, InferenceLabel(inferred)));
      }
      lane_registers.push_back(hex);
      lane_provenance.push_back(std::move(json_pieces));
      absl::StrAppend(&hex_line, " ", hex);
      absl::StrAppend(&provenance_lines, "  r", reg, ": ", absl::StrJoin(text_pieces, ", "), "\n");
    }
    json_registers.push_back(std::move(lane_registers));
    json_provenance.push_back(std::move(lane_provenance));
    if (!options.json) out << hex_line << "\n" << provenance_lines;
  }
  if (options.json) {
    out << nlohmann::json{{"registers", json_registers}, {"provenance", json_provenance}, {"inferences", inference_list}}
               .dump()
        << "\n";
  }
  return absl::OkStatus();
}

}  // namespace matload
