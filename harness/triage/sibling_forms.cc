#include "harness/triage/sibling_forms.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace matload {
namespace {

// Respelt is `opcode` with its qualifier `from` (".shared") replaced by
// `to`, or empty where it has none.
std::string Respelt(const std::string& opcode, absl::string_view from, absl::string_view to) {
  const std::string qualifier = absl::StrCat(from, ".");
  const size_t at = opcode.find(qualifier);
  if (at == std::string::npos) return "";
  std::string respelt = opcode;
  respelt.replace(at, from.size(), std::string(to));
  return respelt;
}

}  // namespace

std::vector<SiblingForm> SiblingForms(const TestProgram& program) {
  std::vector<std::pair<SiblingKind, std::pair<std::string, std::string>>> spellings;
  for (const absl::string_view space : {".shared::cta", ".shared", ".global"}) {
    const std::string generic = Respelt(program.opcode(), space, "");
    if (!generic.empty()) {
      spellings.push_back({SiblingKind::kGenericAddress, {absl::StrCat("without ", space), generic}});
      break;
    }
  }
  const std::pair<const char*, const char*> fewer[] = {{".x4", ".x2"}, {".x4", ".x1"}, {".x2", ".x1"}};
  for (const auto& [from, to] : fewer) {
    const std::string smaller = Respelt(program.opcode(), from, to);
    if (!smaller.empty())
      spellings.push_back({SiblingKind::kFewerMatrices, {absl::StrCat(to, " for ", from), smaller}});
  }
  std::vector<SiblingForm> siblings;
  const CheckedInstruction& instruction = program.instruction();
  for (auto& [kind, spelling] : spellings) {
    absl::StatusOr<std::unique_ptr<TestProgram>> sibling =
        TestProgram::ForOpcode(spelling.second, instruction.target(), instruction.ptx(), program.options());
    if (!sibling.ok() || (*sibling)->frame().record_bytes != program.frame().record_bytes) continue;
    siblings.push_back({kind, std::move(spelling.first), *std::move(sibling)});
  }
  return siblings;
}

}  // namespace matload
