#include "harness/support_sweep.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/batch_checker.h"
#include "harness/infrastructure.h"
#include "harness/ptxas.h"
#include "harness/sass_lowering.h"
#include "reference/enumerate.h"
#include "reference/families.h"
#include "reference/legality.h"
#include "reference/printer.h"

namespace matload {
namespace {

// MatrixForm is one row of the matrix: a qualifier set legal on some target,
// in the plain operand style.
struct MatrixForm {
  std::string family;
  std::string opcode;
  RawInstruction instruction;
};

// MatrixForms lists every qualifier set legal on at least one target at
// `ptx`, once, in a fixed order.
std::vector<MatrixForm> MatrixForms(PtxVersion ptx) {
  std::map<std::string, MatrixForm> forms;
  for (const TargetInfo& info : AllTargets()) {
    if (!TargetExistsIn(info.target, ptx)) continue;
    for (const FamilySpec* spec : AllFamilies()) {
      for (const QualifierSet& qualifiers : LegalQualifierSets(*spec, ptx, info.target)) {
        const OperandSignature signature = *spec->Signature(qualifiers);
        RawInstruction raw = ToRaw(Form{spec->family, std::nullopt, qualifiers,
                                        StandardOperands(signature, OperandStyles(signature)[0])});
        std::string opcode = PrintOpcode(spec->family, qualifiers);
        forms.try_emplace(opcode, MatrixForm{spec->MnemonicText(), opcode, std::move(raw)});
      }
    }
  }
  std::vector<MatrixForm> ordered;
  for (auto& [opcode, form] : forms) ordered.push_back(std::move(form));
  return ordered;
}

// TargetResult is one target's share of the sweep, merged afterwards.
struct TargetResult {
  TargetSummary summary;
  std::vector<SupportCell> cells;  // one per matrix form
  std::vector<Disagreement> disagreements;
};

absl::StatusOr<TargetResult> SweepTarget(const CompileOracle& compiler, const DiscrepancyRegistry& registry,
                                         const std::vector<MatrixForm>& matrix, Target target, PtxVersion ptx,
                                         const std::string& cuobjdump) {
  TargetResult result;
  result.summary.target = target.Name();
  result.summary.matrix_rows = matrix.size();
  std::vector<Snippet> snippets;
  for (const MatrixForm& form : matrix) snippets.push_back({StandardRegisterFile(), form.instruction});
  for (const Form& form : LegalForms(ptx, target)) snippets.push_back({StandardRegisterFile(), ToRaw(form)});
  result.summary.legal = snippets.size() - matrix.size();
  for (RawInstruction& raw : NearMissInstructions(ptx, target)) snippets.push_back({StandardRegisterFile(), raw});
  result.summary.near_miss = snippets.size() - matrix.size() - result.summary.legal;

  // The model's verdicts, compared below, also keep the forms it calls legal
  // out of the modules its near misses stop.
  BatchOptions options;
  for (const Snippet& snippet : snippets) options.predicted_legal.push_back(Judge(snippet, ptx, target).legal());
  std::vector<CompilerVerdict> verdicts(snippets.size());
  result.summary.compiled = compiler.Supports(target);
  if (result.summary.compiled) {
    BatchReport report;
    options.report = &report;
    absl::StatusOr<std::vector<CompilerVerdict>> checked = CheckSnippets(compiler, snippets, ptx, target, options);
    if (!checked.ok()) return checked.status();
    verdicts = *std::move(checked);
    result.summary.compiler_runs = report.runs;
    result.summary.bisection_runs = report.bisection_runs;
    result.summary.unjudged = report.unjudged;
    result.summary.unrecognised_lines = std::move(report.unrecognised_lines);
  }
  for (size_t i = 0; i < snippets.size(); ++i) {
    const bool model_legal = options.predicted_legal[i];
    if (i < matrix.size()) {
      // A matrix row is compared like any form: on a target where it is
      // not legal, it is one more illegal form the compiler may accept.
      result.cells.push_back({.model_legal = model_legal,
                              .compiled = result.summary.compiled,
                              .compiler_accepted = verdicts[i].accepted,
                              .compiler_messages = verdicts[i].messages});
    }
    // An unjudged form is counted in summary.unjudged and compared with nothing.
    if (!result.summary.compiled || !verdicts[i].judged) continue;
    if (model_legal == verdicts[i].accepted) {
      ++result.summary.agree;
      continue;
    }
    Disagreement disagreement{.target = target.Name(),
                              .instruction = PrintRaw(snippets[i].instruction),
                              .model_legal = model_legal,
                              .compiler_messages = verdicts[i].messages};
    if (const DiscrepancyEntry* entry = registry.Find(
            disagreement.instruction, target,
            verdicts[i].accepted ? Direction::kToolchainAccepts : Direction::kToolchainRejects,
            compiler.Toolchain());
        entry != nullptr) {
      disagreement.registry_id = entry->id;
      ++result.summary.explained;
    } else {
      ++result.summary.unexplained;
    }
    result.disagreements.push_back(std::move(disagreement));
  }
  const auto* ptxas = dynamic_cast<const Ptxas*>(&compiler);
  if (ptxas != nullptr && !cuobjdump.empty() && result.summary.compiled) {
    std::vector<RawInstruction> accepted;
    std::vector<size_t> rows;
    for (size_t row = 0; row < matrix.size(); ++row) {
      if (result.cells[row].model_legal && result.cells[row].compiler_accepted) {
        accepted.push_back(matrix[row].instruction);
        rows.push_back(row);
      }
    }
    absl::StatusOr<std::vector<std::string>> lowering = LowerToSass(*ptxas, cuobjdump, accepted, ptx, target);
    if (InfrastructureCauseOf(lowering.status()).has_value()) return lowering.status();
    if (lowering.ok()) {
      for (size_t i = 0; i < rows.size(); ++i) result.cells[rows[i]].sass = (*lowering)[i];
    } else {
      result.summary.sass_error = std::string(lowering.status().message());
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<SupportSweep> RunSupportSweep(const CompileOracle& compiler, const DiscrepancyRegistry& registry,
                                             const std::vector<Target>& targets, PtxVersion ptx, int threads,
                                             const Progress& progress, const std::string& cuobjdump) {
  const std::vector<MatrixForm> matrix = MatrixForms(ptx);
  std::vector<absl::StatusOr<TargetResult>> results(targets.size(), absl::UnknownError("not run"));
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (size_t i = next++; i < targets.size(); i = next++) {
      results[i] = SweepTarget(compiler, registry, matrix, targets[i], ptx, cuobjdump);
      std::lock_guard<std::mutex> lock(progress_mutex);
      if (progress) progress(++done, targets.size(), targets[i].Name());
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();

  SupportSweep sweep{.compiler = compiler.Toolchain(), .ptx = ptx};
  for (const MatrixForm& form : matrix) {
    sweep.rows.push_back({form.family, form.opcode, PrintRaw(form.instruction), {}});
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (!results[i].ok()) return results[i].status();
    TargetResult& result = *results[i];
    sweep.targets.push_back(targets[i].Name());
    sweep.summaries.push_back(result.summary);
    for (size_t row = 0; row < matrix.size(); ++row) {
      sweep.rows[row].cells[targets[i].Name()] = std::move(result.cells[row]);
    }
    for (Disagreement& disagreement : result.disagreements) sweep.disagreements.push_back(std::move(disagreement));
  }
  return sweep;
}

}  // namespace matload
