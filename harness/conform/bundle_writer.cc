#include "harness/conform/bundle_writer.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "harness/families/family_runtime.h"
#include "harness/gpu/program_launch.h"
#include "harness/kernels/reproducer.h"
#include "harness/platform/output_files.h"
#include "harness/platform/outside_text.h"
#include "nlohmann/json.hpp"

namespace matload {
namespace {

// FamilyName is the form's mnemonic: "ldmatrix", "wmma.load", "tcgen05.ld".
std::string FamilyName(const TestProgram& program) { return program.instruction().spec().MnemonicText(); }

absl::Status WriteBytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  return WriteFile(path, absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// Diff lists every differing word in element terms.
std::string Diff(const BundleCase& bundle_case) {
  std::string diff = absl::StrCat("# ", bundle_case.program->Label(), "\n# ", CaseClassName(bundle_case.verdict.kind),
                                  ": ", bundle_case.verdict.detail, "\n");
  if (!bundle_case.verdict.mismatches.empty()) {
    absl::StrAppend(&diff, "# lane\tword\texpected\tactual\texpected source (matrix element or row)\n");
  }
  for (const WordMismatch& mismatch : bundle_case.verdict.mismatches) {
    absl::StrAppend(&diff, absl::StrFormat("%d\t%d\t%08x\t%08x\t%s\n", mismatch.lane, mismatch.word, mismatch.expected,
                                           mismatch.actual,
                                           bundle_case.program->WordSource(mismatch.lane, mismatch.word)));
  }
  return diff;
}

}  // namespace

std::string BundleSignature(const BundleCase& bundle_case) {
  const std::string family = FamilyName(*bundle_case.program);
  const std::string kind = Slug(CaseClassName(bundle_case.verdict.kind));
  if (const auto* values = std::get_if<LaneValues>(&bundle_case.expected);
      values != nullptr && bundle_case.verdict.kind == CaseClass::kMismatch) {
    return absl::StrCat(family, "/", kind, "/", MismatchPattern(bundle_case.verdict, *values));
  }
  // Faults, rejections and the rest: the error's first line.
  std::string error = bundle_case.verdict.detail.substr(0, bundle_case.verdict.detail.find('\n'));
  return absl::StrCat(family, "/", kind, "/", error);
}

absl::StatusOr<std::string> BundleWriter::Add(const BundleCase& bundle_case) {
  const std::string signature = BundleSignature(bundle_case);
  auto [filed, inserted] = bundles_.try_emplace(signature);
  if (!inserted) return filed->second.directory;
  const std::string name =
      absl::StrFormat("%03d-%s-%s", bundles_.size(), Slug(FamilyName(*bundle_case.program)),
                      Slug(CaseClassName(bundle_case.verdict.kind)));
  const std::filesystem::path directory = std::filesystem::path(directory_) / name;
  filed->second.directory = directory.string();
  filed->second.first_case = absl::StrCat(bundle_case.program->Label(), " variant ", bundle_case.variant.index);
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", directory.string(), ": ", error.message()));

  const TestProgram& program = *bundle_case.program;
  const CheckedInstruction& instruction = program.instruction();
  const nlohmann::json description = {
      {"signature", signature},
      {"form", program.Label()},
      {"target", instruction.target().Name()},
      {"ptx", instruction.ptx().ToString()},
      {"compile_path", bundle_case.compile_path},
      {"identity", bundle_case.identity},
      {"seed", bundle_case.seed},
      {"variant", {{"index", bundle_case.variant.index},
                   {"kind", std::string(bundle_case.variant.kind)},
                   {"pattern", std::string(DataPatternName(bundle_case.variant.pattern))},
                   {"stream", absl::StrFormat("0x%016x", bundle_case.variant.stream)},
                   {"placement", bundle_case.variant.placement == DataPlacement::kShared ? "shared" : "global"},
                   {"operands", RuntimeOf(instruction.form().family).OperandsJson(bundle_case.variant)}}},
      {"outcome", std::string(CaseClassName(bundle_case.verdict.kind))},
      {"detail", bundle_case.verdict.detail},
      {"differing_words", bundle_case.verdict.mismatches.size()},
      {"reproduce", kReproducerBuild},
  };
  std::vector<absl::Status> written = {
      WriteFile(directory / "case.json", description.dump(2) + "\n"),
      WriteFile(directory / "kernel.ptx", program.kernel()),
      WriteBytes(directory / "record.bin", program.Record(bundle_case.variant)),
      WriteFile(directory / "diff.txt", Diff(bundle_case)),
      WriteFile(directory / "repro.cpp", ReproducerSource(program.Label(), program.entry(), program.frame())),
  };
  if (const auto* values = std::get_if<LaneValues>(&bundle_case.expected)) {
    written.push_back(WriteBytes(directory / "expected.bin", ExpectedBytes(*values)));
  }
  if (!bundle_case.actual.empty()) written.push_back(WriteBytes(directory / "actual.bin", bundle_case.actual));
  // An offline path's case ran a cubin, which repro.cpp loads in place of
  // kernel.ptx: the driver's JIT may not speak the kernel's PTX version.
  if (absl::StatusOr<CompilePath> path = ParseCompilePath(bundle_case.compile_path);
      path.ok() && *path != CompilePath::kDriverJit) {
    absl::StatusOr<std::string> cubin = ProgramImage(program, *path);
    if (cubin.ok()) written.push_back(WriteFile(directory / "kernel.cubin", *cubin));
  }
  for (const absl::Status& status : written) {
    if (!status.ok()) return status;
  }
  return filed->second.directory;
}

absl::Status BundleWriter::WriteIndex() const {
  std::string index = "# signature\tcases\tbundle\tfirst case\n";
  for (const auto& [signature, filed] : bundles_) {
    absl::StrAppend(&index, signature, "\t", filed.cases, "\t", std::filesystem::path(filed.directory).filename().string(),
                    "\t", filed.first_case, "\n");
  }
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  return WriteFile(std::filesystem::path(directory_) / "index.tsv", index);
}

void BundleWriter::Count(const std::string& directory, size_t cases) {
  for (auto& [signature, filed] : bundles_) {
    if (filed.directory == directory) filed.cases += cases;
  }
}

nlohmann::json BundleWriter::State() const {
  nlohmann::json state = nlohmann::json::object();
  for (const auto& [signature, filed] : bundles_) {
    state[signature] = {OutsideText(filed.directory), filed.first_case, filed.cases};
  }
  return state;
}

absl::Status BundleWriter::Restore(const nlohmann::json& state) {
  std::map<std::string, Filed> bundles;
  try {
    for (const auto& [signature, filed] : state.items()) {
      bundles[signature] = {OutsideBytes(filed.at(0).get<std::string>()), filed.at(1).get<std::string>(),
                            filed.at(2).get<size_t>()};
    }
  } catch (const nlohmann::json::exception& error) {
    return absl::DataLossError(absl::StrCat("the recorded bundle index does not read back: ", error.what()));
  }
  bundles_ = std::move(bundles);
  return absl::OkStatus();
}

size_t BundleWriter::cases() const {
  size_t total = 0;
  for (const auto& [signature, filed] : bundles_) total += filed.cases;
  return total;
}

}  // namespace matload
