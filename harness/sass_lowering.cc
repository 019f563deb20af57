#include "harness/sass_lowering.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/subprocess.h"
#include "reference/enumerate.h"
#include "reference/printer.h"

namespace matload {

std::vector<std::pair<std::string, std::vector<std::string>>> SassFunctions(absl::string_view dump) {
  static const std::regex kFunction(R"(^\s*Function : (\S+))");
  // "        /*0080*/                   LDSM.16.M88.4 R4, [R2] ;" with an optional @P0 guard.
  static const std::regex kInstruction(R"(^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Za-z0-9_.]*))");
  std::vector<std::pair<std::string, std::vector<std::string>>> functions;
  for (absl::string_view raw : absl::StrSplit(dump, '\n')) {
    const std::string line(raw);
    std::smatch match;
    if (std::regex_search(line, match, kFunction)) {
      functions.emplace_back(match[1].str(), std::vector<std::string>{});
    } else if (!functions.empty() && std::regex_search(line, match, kInstruction)) {
      functions.back().second.push_back(match[1].str());
    }
  }
  return functions;
}

bool IsLoadOpcode(absl::string_view opcode) {
  return absl::StartsWith(opcode, "LD") && !absl::StartsWith(opcode, "LDC");
}

std::string DefaultCuobjdumpPath() {
  if (const char* path = std::getenv("MATLOAD_CUOBJDUMP"); path != nullptr && *path != '\0') return path;
  const std::string ptxas = Ptxas::DefaultPath();
  const std::string beside = ptxas.substr(0, ptxas.rfind('/') + 1) + "cuobjdump";
  if (access(beside.c_str(), X_OK) == 0) return beside;
  // Where scripts/install-deps.sh puts it when the toolkit lacks it.
  const char* cache = std::getenv("MATLOAD_CACHE");
  const char* home = std::getenv("HOME");
  return absl::StrCat(cache != nullptr ? cache : absl::StrCat(home != nullptr ? home : "", "/.cache/matload"),
                      "/cuda-13.5.37/cuobjdump");
}

absl::StatusOr<std::vector<std::string>> LowerToSass(const Ptxas& ptxas, const std::string& cuobjdump,
                                                     const std::vector<RawInstruction>& forms, PtxVersion ptx,
                                                     Target target) {
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
  const char* directory = std::getenv("TMPDIR");
  std::string base = absl::StrCat(directory != nullptr ? directory : "/tmp", "/matload-sass-XXXXXX");
  if (mkdtemp(base.data()) == nullptr) return absl::InternalError("cannot create a temporary directory");
  absl::Cleanup remove = [&base] {
    unlink((base + "/module.ptx").c_str());
    unlink((base + "/module.cubin").c_str());
    rmdir(base.c_str());
  };
  {
    FILE* file = std::fopen((base + "/module.ptx").c_str(), "w");
    if (file == nullptr) return absl::InternalError("cannot write the SASS module");
    std::fwrite(module.data(), 1, module.size(), file);
    std::fclose(file);
  }
  absl::StatusOr<ProcessResult> assembled = RunProcess(
      {ptxas.path(), absl::StrCat("-arch=", target.Name()), base + "/module.ptx", "-o", base + "/module.cubin"});
  if (!assembled.ok()) return assembled.status();
  if (assembled->exit_code != 0) {
    return absl::InternalError(absl::StrCat("ptxas rejected the SASS module for ", target.Name(), ": ",
                                            assembled->standard_error.substr(0, 400)));
  }
  // cuobjdump runs nvdisasm, which it looks for in $NVDISASM_PATH and PATH.
  const std::string tools = cuobjdump.substr(0, cuobjdump.rfind('/') + 1);
  const char* path = std::getenv("PATH");
  absl::StatusOr<ProcessResult> dump =
      RunProcess({cuobjdump, "-sass", base + "/module.cubin"}, std::chrono::seconds(120),
                 {absl::StrCat("NVDISASM_PATH=", tools), absl::StrCat("PATH=", tools, ":", path != nullptr ? path : "")});
  if (!dump.ok()) return dump.status();
  if (dump->exit_code != 0) return absl::InternalError(absl::StrCat("cuobjdump failed: ", dump->standard_error));
  std::vector<std::string> lowering(forms.size());
  for (const auto& [name, opcodes] : SassFunctions(dump->standard_output)) {
    size_t index = 0;
    if (!absl::SimpleAtoi(absl::StripPrefix(name, "matload_form_"), &index) || index >= forms.size()) continue;
    std::vector<std::pair<std::string, int>> loads;  // in program order, repeats counted
    for (const std::string& opcode : opcodes) {
      if (!IsLoadOpcode(opcode)) continue;
      if (!loads.empty() && loads.back().first == opcode) {
        ++loads.back().second;
      } else {
        loads.emplace_back(opcode, 1);
      }
    }
    lowering[index] = absl::StrJoin(loads, " ", [](std::string* out, const std::pair<std::string, int>& load) {
      absl::StrAppend(out, load.first, load.second > 1 ? absl::StrCat(" x", load.second) : "");
    });
  }
  return lowering;
}

}  // namespace matload
