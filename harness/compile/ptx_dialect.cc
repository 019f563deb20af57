#include "harness/compile/ptx_dialect.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/compile/compiler_run.h"
#include "harness/compile/ptxas.h"

namespace matload {
namespace {

// kUnspokenVersion is a .version no compiler speaks, so that its refusal
// names the newest it does.
constexpr absl::string_view kUnspokenVersion = "99.9";

// FirstRelease reads the first "MAJOR.MINOR" of a version string ("13.0.88",
// "CUDA 13.0; 580.159.04") as a CUDA release.
std::optional<CudaRelease> FirstRelease(absl::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
        (i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1])))) {
      continue;
    }
    size_t dot = i;
    while (dot < text.size() && std::isdigit(static_cast<unsigned char>(text[dot]))) ++dot;
    size_t end = dot + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    CudaRelease release;
    if (dot < text.size() && text[dot] == '.' && end > dot + 1 &&
        absl::SimpleAtoi(text.substr(i, dot - i), &release.major) &&
        absl::SimpleAtoi(text.substr(dot + 1, end - dot - 1), &release.minor)) {
      return release;
    }
  }
  return std::nullopt;
}

// Refusal is the messages of `compiler`'s answer to `module`, and whether
// it crashed after them. A ptxas is asked as it is run (Ptxas::Ask), so
// that one that dies after naming the version it speaks still names it; a
// run that names none is read as Assemble reads it, so that a crash or a
// hang without it is the infrastructure error it is.
absl::StatusOr<std::vector<Diagnostic>> Refusal(const CompileOracle& compiler, const std::string& module, Target target,
                                                bool& crashed) {
  const auto* ptxas = dynamic_cast<const Ptxas*>(&compiler);
  if (ptxas == nullptr) {
    absl::StatusOr<AssembleResult> answer = compiler.Assemble(module, target);
    if (!answer.ok()) return answer.status();
    return answer->diagnostics;
  }
  absl::StatusOr<ProcessResult> run = ptxas->Ask(module, target);
  if (!run.ok()) return run.status();
  std::vector<Diagnostic> diagnostics = ParsePtxasDiagnostics(run->standard_error);
  const bool names_it = std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& diagnostic) {
    return ParseCurrentPtxVersion(diagnostic.message).ok();
  });
  if (!names_it) {
    const std::string what = absl::StrCat(ptxas->path(), " (", ptxas->Toolchain(), ") on a .version it cannot speak");
    if (absl::Status ended = CheckCompilerRun(*run, what, {0, kPtxasRejectionExitCode}); !ended.ok()) return ended;
  }
  crashed = run->signal != 0;
  return diagnostics;
}

}  // namespace

absl::StatusOr<PtxVersion> ParseCurrentPtxVersion(absl::string_view message) {
  constexpr absl::string_view kMarker = "current version is '";
  const size_t at = message.find(kMarker);
  if (at == absl::string_view::npos) return absl::NotFoundError("no \"current version is\" in the message");
  absl::string_view rest = message.substr(at + kMarker.size());
  const size_t quote = rest.find('\'');
  if (quote == absl::string_view::npos) return absl::NotFoundError("an unterminated current version");
  return ParsePtxVersionNumbers(rest.substr(0, quote));
}

absl::StatusOr<PtxDialect> ProbePtxDialect(const CompileOracle& compiler) {
  const TargetInfo* supported = nullptr;
  for (const TargetInfo& info : AllTargets()) {
    if (compiler.Supports(info.target)) supported = &info;
  }
  if (supported == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(compiler.Toolchain(), " supports none of matload's targets"));
  }
  const std::string module =
      absl::StrCat(".version ", kUnspokenVersion, "\n.target ", supported->target.Name(), "\n.address_size 64\n");
  bool crashed = false;
  absl::StatusOr<std::vector<Diagnostic>> refusal = Refusal(compiler, module, supported->target, crashed);
  if (!refusal.ok()) return refusal.status();
  for (const Diagnostic& diagnostic : *refusal) {
    absl::StatusOr<PtxVersion> spoken = ParseCurrentPtxVersion(diagnostic.message);
    if (spoken.ok()) return PtxDialect{.spoken = *spoken, .from_message = true, .crashed = crashed};
  }
  const std::optional<CudaRelease> release = FirstRelease(compiler.Version());
  const std::optional<PtxVersion> spoken =
      release.has_value() ? NewestPtxVersionOf(*release) : std::optional<PtxVersion>();
  if (!spoken.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(compiler.Toolchain(), " names no PTX ISA version it speaks, ",
                                                      "and its release is not one matload knows"));
  }
  return PtxDialect{.spoken = *spoken, .from_message = false};
}

std::string DialectNote(absl::string_view toolchain, const PtxDialect& dialect) {
  if (!dialect.AheadOfTables()) return "";
  return absl::StrCat(toolchain, " speaks PTX ", dialect.spoken.ToString(), "; matload knows ",
                      NewestPtxVersion().ToString(), ": forms added since are not judged");
}

}  // namespace matload
