// The `legality` fuzz target: the model's verdict on a fuzz case against a
// real compiler's, for the case's target and PTX version. A disagreement
// that no known-discrepancy registry entry explains is a finding, filed
// with the module and the exact command that shows it.
//
// The compiler is nvJitLink, in process (the assembler ptxas runs, without
// a process per input), or ptxas itself with MATLOAD_LEGALITY_COMPILER=ptxas
// ($MATLOAD_PTXAS picks the binary). Run-time inputs play no part here.
// A case declaring a PTX version newer than the compiler speaks (CUDA
// 13.0's nvJitLink stops at 9.0; the tables go on to 9.5) cannot be judged
// by it and is kept out of the corpus, never filed as a compiler failure.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/finding_store.h"
#include "fuzz/fuzz_case.h"
#include "harness/compile/batch_checker.h"
#include "harness/compile/compile_cache.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/compile/ptx_dialect.h"
#include "harness/compile/ptx_module.h"
#include "harness/compile/ptxas.h"
#include "harness/gpu/nvjitlink.h"
#include "harness/judge/discrepancy_registry.h"
#include "harness/platform/environment.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/printer.h"

namespace matload {
namespace {

// kCachedVerdicts bounds the compiler verdicts kept in memory.
constexpr size_t kCachedVerdicts = 1 << 16;

// Oracle is what every input is checked with, set up once per process.
struct Oracle {
  std::unique_ptr<CompileCache> compiler;
  std::string toolchain;  // "nvJitLink 13.0", as the registry names it
  PtxVersion newest_judged;  // the newest PTX both it and the tables speak
  DiscrepancyRegistry registry;
};

[[noreturn]] void CannotFuzz(const absl::Status& status) {
  std::cerr << "legality_fuzzer: " << status << "\n";
  std::exit(2);
}

std::unique_ptr<CompileOracle> OpenCompiler() {
  const std::string choice = EnvironmentOr("MATLOAD_LEGALITY_COMPILER", "nvjitlink");
  if (choice == "ptxas") {
    absl::StatusOr<Ptxas> ptxas = Ptxas::Open(Ptxas::DefaultPath());
    if (!ptxas.ok()) CannotFuzz(ptxas.status());
    return std::make_unique<Ptxas>(*std::move(ptxas));
  }
  if (choice != "nvjitlink") {
    CannotFuzz(absl::InvalidArgumentError(
        absl::StrCat("MATLOAD_LEGALITY_COMPILER is 'nvjitlink' or 'ptxas', not '", choice, "'")));
  }
  absl::StatusOr<std::unique_ptr<NvJitLink>> nvjitlink = NvJitLink::Open();
  if (!nvjitlink.ok()) CannotFuzz(nvjitlink.status());
  return *std::move(nvjitlink);
}

const Oracle& TheOracle() {
  static const Oracle* const kOracle = [] {
    auto* oracle = new Oracle;
    oracle->compiler = std::make_unique<CompileCache>(OpenCompiler(), kCachedVerdicts);
    oracle->toolchain = oracle->compiler->Toolchain();
    absl::StatusOr<PtxDialect> dialect = ProbePtxDialect(*oracle->compiler);
    if (!dialect.ok()) CannotFuzz(dialect.status());
    oracle->newest_judged = dialect->Judged();
    absl::StatusOr<DiscrepancyRegistry> registry = DiscrepancyRegistry::Load(DefaultRegistryPath());
    if (!registry.ok()) CannotFuzz(registry.status());
    oracle->registry = *std::move(registry);
    return oracle;
  }();
  return *kOracle;
}

// Explained says whether a registry entry covers the disagreement: one on
// the instruction, or for a .target the .version lacks, one on that pair.
// Entries match the instruction from its opcode on, so a guard predicate
// ("@!%p") is left out: it changes no verdict.
bool Explained(const Oracle& oracle, const FuzzCase& fuzz_case, const Verdict& model, Direction direction) {
  RawInstruction unguarded = fuzz_case.snippet.instruction;
  unguarded.guard.reset();
  if (oracle.registry.Find(PrintRaw(unguarded), fuzz_case.target, direction, oracle.toolchain)) {
    return true;
  }
  for (const Reason& reason : model.reasons()) {
    if (reason.code != ReasonCode::kTargetNotInPtxVersion) continue;
    const std::string pair = absl::StrCat(".version ", fuzz_case.ptx.ToString(), " .target ", fuzz_case.target.Name());
    return oracle.registry.Find(pair, fuzz_case.target, direction, oracle.toolchain) != nullptr;
  }
  return false;
}

// Signature names the disagreement by direction, family and reason codes
// (the model's when it rejects, the compiler's when it does), never by the
// registers or the target, so one bug is one signature.
std::string Signature(const FuzzCase& fuzz_case, const Verdict& model, const CompilerVerdict& compiler) {
  const FamilySpec* spec = FindFamily(fuzz_case.snippet.instruction.opcode);
  std::set<std::string> codes;
  for (const Reason& reason : model.reasons()) codes.emplace(ReasonCodeName(reason.code));
  for (const std::string& message : compiler.messages) {
    if (!model.legal()) break;
    for (ReasonCode code : ClassifyPtxasMessage(message)) codes.emplace(ReasonCodeName(code));
  }
  return absl::StrCat("legality/", compiler.accepted ? "compiler-accepts" : "compiler-rejects", "/",
                      spec != nullptr ? spec->MnemonicText() : "no-family", "/",
                      codes.empty() ? "unclassified" : absl::StrJoin(codes, "+"));
}

void FileDisagreement(const Oracle& oracle, const FuzzCase& fuzz_case, const Verdict& model,
                      const CompilerVerdict& compiler) {
  const PtxModule module = BuildModule({fuzz_case.snippet}, fuzz_case.ptx, fuzz_case.target);
  std::string summary = absl::StrCat("The model says ", model.legal() ? "legal" : "illegal", "; ", oracle.toolchain,
                                     compiler.accepted ? " accepts" : " rejects", " it for ", fuzz_case.target.Name(),
                                     " at PTX ", fuzz_case.ptx.ToString(), ".\n\n    ", PrintSnippet(fuzz_case.snippet),
                                     "\n");
  for (const Reason& reason : model.reasons()) {
    absl::StrAppend(&summary, "\n- model: ", ReasonCodeName(reason.code), ": ", reason.message);
  }
  for (const std::string& message : compiler.messages) absl::StrAppend(&summary, "\n- compiler: ", message);
  absl::StrAppend(&summary, "\n\nReproduce: `sh repro.sh` (ptxas on module.ptx); replay: `legality_fuzzer case.txt`.\n");
  ReportFinding({.signature = Signature(fuzz_case, model, compiler),
                 .summary = summary,
                 .case_text = EncodeFuzzCase(fuzz_case),
                 .files = {{"module.ptx", module.text},
                           {"repro.sh", absl::StrCat("ptxas -arch=", fuzz_case.target.Name(),
                                                     " module.ptx -o /dev/null\n")}}});
}

}  // namespace
}  // namespace matload

// LeakSanitizer, which libFuzzer runs, would report what libnvJitLink keeps
// allocated for the life of the process; that is not ours to fix.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace matload;
  absl::StatusOr<FuzzCase> fuzz_case = DecodeFuzzInput(data, size);
  if (!fuzz_case.ok()) return -1;  // not a case: keep it out of the corpus
  const Oracle& oracle = TheOracle();
  if (!oracle.compiler->Supports(fuzz_case->target)) return 0;
  if (oracle.newest_judged < fuzz_case->ptx) return -1;  // not the compiler's dialect
  const Verdict model = Judge(fuzz_case->snippet, fuzz_case->ptx, fuzz_case->target);
  absl::StatusOr<std::vector<CompilerVerdict>> compiled =
      CheckSnippets(*oracle.compiler, {fuzz_case->snippet}, fuzz_case->ptx, fuzz_case->target);
  if (!compiled.ok()) {
    // The compiler could not be asked (it crashed or hung): that is a
    // finding about the compiler.
    ReportFinding({.signature = absl::StrCat("legality/compiler-failed/", compiled.status().code()),
                   .summary = std::string(compiled.status().message()),
                   .case_text = EncodeFuzzCase(*fuzz_case),
                   .files = {}});
    return 0;
  }
  const CompilerVerdict& compiler = compiled->front();
  if (model.legal() == compiler.accepted) return 0;
  const Direction direction = compiler.accepted ? Direction::kToolchainAccepts : Direction::kToolchainRejects;
  if (Explained(oracle, *fuzz_case, model, direction)) return 0;
  FileDisagreement(oracle, *fuzz_case, model, compiler);
  return 0;
}
