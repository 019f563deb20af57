#include "harness/compile/sass_lowering.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/compile/compiler_run.h"
#include "harness/platform/environment.h"
#include "harness/platform/subprocess.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {

namespace {

// The scanners below read cuobjdump's lines in one pass each, with no
// regular expression (std::regex recursed once per character).

// ConsumeWhile drops the longest prefix of `text` whose characters satisfy
// `keep` and says how many it dropped.
template <typename Predicate>
size_t ConsumeWhile(absl::string_view& text, Predicate keep) {
  size_t count = 0;
  while (count < text.size() && keep(static_cast<unsigned char>(text[count]))) ++count;
  text.remove_prefix(count);
  return count;
}

bool IsSpace(unsigned char c) { return absl::ascii_isspace(c); }

// FunctionName reads "   Function : NAME" and gives NAME.
std::optional<std::string> FunctionName(absl::string_view line) {
  ConsumeWhile(line, IsSpace);
  if (!absl::ConsumePrefix(&line, "Function : ")) return std::nullopt;
  const absl::string_view rest = line;
  const size_t length = ConsumeWhile(line, [](unsigned char c) { return !absl::ascii_isspace(c); });
  if (length == 0) return std::nullopt;
  return std::string(rest.substr(0, length));
}

// ConsumeGuard drops an "@P0 " / "@!UPT " guard, if `line` starts with one;
// false when it starts with '@' but no guard.
bool ConsumeGuard(absl::string_view& line) {
  if (!absl::ConsumePrefix(&line, "@")) return true;
  absl::ConsumePrefix(&line, "!");
  absl::ConsumePrefix(&line, "U");
  if (!absl::ConsumePrefix(&line, "P")) return false;
  if (ConsumeWhile(line, [](unsigned char c) { return c == 'T' || absl::ascii_isdigit(c); }) == 0) return false;
  return ConsumeWhile(line, IsSpace) > 0;
}

// Opcode reads "        /*0080*/                   LDSM.16.M88.4 R4, [R2] ;"
// (with an optional @P0 guard) and gives "LDSM.16.M88.4".
std::optional<std::string> Opcode(absl::string_view line) {
  ConsumeWhile(line, IsSpace);
  if (!absl::ConsumePrefix(&line, "/*")) return std::nullopt;
  const auto is_hex = [](unsigned char c) { return absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f'); };
  if (ConsumeWhile(line, is_hex) < 4 || !absl::ConsumePrefix(&line, "*/")) return std::nullopt;
  if (ConsumeWhile(line, IsSpace) == 0 || !ConsumeGuard(line)) return std::nullopt;
  if (line.empty() || !absl::ascii_isupper(static_cast<unsigned char>(line[0]))) return std::nullopt;
  const absl::string_view rest = line;
  const size_t length =
      ConsumeWhile(line, [](unsigned char c) { return absl::ascii_isalnum(c) || c == '_' || c == '.'; });
  return std::string(rest.substr(0, length));
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> SassFunctions(absl::string_view dump) {
  std::vector<std::pair<std::string, std::vector<std::string>>> functions;
  for (absl::string_view line : absl::StrSplit(dump, '\n')) {
    if (std::optional<std::string> name = FunctionName(line); name.has_value()) {
      functions.emplace_back(*std::move(name), std::vector<std::string>{});
    } else if (std::optional<std::string> opcode = Opcode(line); opcode.has_value() && !functions.empty()) {
      functions.back().second.push_back(*std::move(opcode));
    }
  }
  return functions;
}

bool IsLoadOpcode(absl::string_view opcode) {
  return absl::StartsWith(opcode, "LD") && !absl::StartsWith(opcode, "LDC");
}

std::string LoadSequence(const std::vector<std::string>& opcodes) {
  std::vector<std::pair<std::string, int>> loads;  // in program order, repeats counted
  for (const std::string& opcode : opcodes) {
    if (!IsLoadOpcode(opcode)) continue;
    if (!loads.empty() && loads.back().first == opcode) {
      ++loads.back().second;
    } else {
      loads.emplace_back(opcode, 1);
    }
  }
  return absl::StrJoin(loads, " ", [](std::string* out, const std::pair<std::string, int>& load) {
    absl::StrAppend(out, load.first, load.second > 1 ? absl::StrCat(" x", load.second) : "");
  });
}

std::string DefaultCuobjdumpPath() {
  if (std::optional<std::string> path = Environment("MATLOAD_CUOBJDUMP")) return *path;
  const std::string ptxas = Ptxas::DefaultPath();
  const std::string beside = ptxas.substr(0, ptxas.rfind('/') + 1) + "cuobjdump";
  if (access(beside.c_str(), X_OK) == 0) return beside;
  // Where scripts/install-deps.sh puts it when the toolkit lacks it.
  return absl::StrCat(EnvironmentOr("MATLOAD_CACHE", absl::StrCat(EnvironmentOr("HOME", ""), "/.cache/matload")),
                      "/cuda-13.5.37/cuobjdump");
}

std::string SassModule(const std::vector<RawInstruction>& forms, PtxVersion ptx, Target target) {
  std::string module = absl::StrCat(".version ", ptx.ToString(), "\n.target ", target.Name(),
                                    "\n.address_size 64\n");
  for (const Declaration& declaration : StandardRegisterFile()) {
    if (declaration.state_space != ".reg") {
      absl::StrAppend(&module, declaration.state_space, " ", declaration.type, " ", declaration.name, "[64];\n");
    }
  }
  for (size_t i = 0; i < forms.size(); ++i) {
    absl::StrAppend(&module, ".visible .entry matload_form_", i, "(.param .u64 out)\n{\n.reg .b64 %out;\n");
    const std::vector<Declaration> declarations = UsedStandardDeclarations(forms[i]);
    for (const Declaration& declaration : declarations) {
      if (declaration.state_space == ".reg") absl::StrAppend(&module, ".reg ", declaration.type, " ", declaration.name, ";\n");
    }
    absl::StrAppend(&module, PrintRaw(forms[i]), "\nld.param.u64 %out, [out];\n");
    int offset = 0;
    for (const Operand& operand : forms[i].operands) {
      const auto* vector = std::get_if<VectorOperand>(&operand);
      if (vector == nullptr) continue;
      for (const std::string& element : vector->elements) {
        const auto declared = std::find_if(declarations.begin(), declarations.end(),
                                           [&element](const Declaration& d) { return d.name == element; });
        const bool wide = declared != declarations.end() && declared->type == ".b64";
        absl::StrAppend(&module, "st.global.b", wide ? 64 : 32, " [%out+", offset, "], ", element, ";\n");
        offset += wide ? 8 : 4;
      }
      break;
    }
    absl::StrAppend(&module, "ret;\n}\n");
  }
  return module;
}

absl::StatusOr<std::string> CuobjdumpSass(const std::string& cuobjdump, absl::string_view cubin) {
  std::string base = absl::StrCat(TemporaryDirectory(), "/matload-sass-XXXXXX");
  if (mkdtemp(base.data()) == nullptr) return absl::InternalError("cannot create a temporary directory");
  absl::Cleanup remove = [&base] {
    unlink((base + "/module.cubin").c_str());
    rmdir(base.c_str());
  };
  {
    std::ofstream file(base + "/module.cubin", std::ios::binary);
    file << cubin;
    if (!file) return absl::InternalError("cannot write a cubin for cuobjdump");
  }
  // cuobjdump runs nvdisasm, which it looks for in $NVDISASM_PATH and PATH.
  const std::string tools = cuobjdump.substr(0, cuobjdump.rfind('/') + 1);
  absl::StatusOr<ProcessResult> dump =
      RunProcess({cuobjdump, "-sass", base + "/module.cubin"}, std::chrono::seconds(120),
                 {absl::StrCat("NVDISASM_PATH=", tools), absl::StrCat("PATH=", tools, ":", EnvironmentOr("PATH", ""))});
  if (!dump.ok()) return dump.status();
  if (dump->timed_out || dump->signal != 0) return CheckCompilerRun(*dump, cuobjdump, {0});
  if (dump->exit_code != 0)
    return absl::InternalError(absl::StrCat("cuobjdump failed: ", QuotedOutput(dump->standard_error)));
  return dump->standard_output;
}

absl::StatusOr<std::vector<std::string>> LowerToSass(const Ptxas& ptxas, const std::string& cuobjdump,
                                                     const std::vector<RawInstruction>& forms, PtxVersion ptx,
                                                     Target target) {
  absl::StatusOr<std::string> cubin = ptxas.CompileToCubin(SassModule(forms, ptx, target), target);
  if (!cubin.ok()) return cubin.status();
  // A cuobjdump that crashed or hung is infrastructure; one that refused the
  // cubin only leaves the SASS column empty, and the report says why.
  absl::StatusOr<std::string> dump = CuobjdumpSass(cuobjdump, *cubin);
  if (!dump.ok()) return dump.status();
  std::vector<std::string> lowering(forms.size());
  for (const auto& [name, opcodes] : SassFunctions(*dump)) {
    size_t index = 0;
    if (!absl::SimpleAtoi(absl::StripPrefix(name, "matload_form_"), &index) || index >= forms.size()) continue;
    lowering[index] = LoadSequence(opcodes);
  }
  return lowering;
}

}  // namespace matload
