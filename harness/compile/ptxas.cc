#include "harness/compile/ptxas.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/compile/compiler_run.h"
#include "harness/compile/diagnostic_classifier.h"
#include "harness/platform/environment.h"
#include "harness/platform/infrastructure.h"
#include "harness/platform/subprocess.h"

namespace matload {
namespace {

absl::StatusOr<std::string> WriteTemporaryFile(absl::string_view text) {
  std::string path = absl::StrCat(TemporaryDirectory(), "/matload-XXXXXX.ptx");
  int fd = mkostemps(path.data(), 4, O_CLOEXEC);
  if (fd < 0) return absl::InternalError(absl::StrCat("cannot create a temporary file ", path));
  absl::Cleanup close_fd = [fd] { close(fd); };
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n <= 0) {
      unlink(path.c_str());
      return absl::InternalError(absl::StrCat("cannot write ", path));
    }
    written += static_cast<size_t>(n);
  }
  return path;
}

// WithModuleFile writes `module_text` to a temporary file and gives `use`
// its path and a cubin path beside it, both removed when `use` returns.
template <typename Use>
auto WithModuleFile(absl::string_view module_text, const Use& use) -> decltype(use(std::string(), std::string())) {
  absl::StatusOr<std::string> file = WriteTemporaryFile(module_text);
  if (!file.ok()) return file.status();
  const std::string cubin = *file + ".cubin";
  absl::Cleanup remove_files = [&] {
    unlink(file->c_str());
    unlink(cubin.c_str());
  };
  return use(*file, cubin);
}

// Digits is the length of the run of decimal digits that starts `text`.
size_t Digits(absl::string_view text) {
  size_t count = 0;
  while (count < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[count]))) ++count;
  return count;
}

// ReleaseIn finds the release in ptxas --version's "..., V13.0.88" line:
// the first ", V" followed by three dot-separated numbers. One pass, no
// regular expression, whatever the output's length.
std::optional<std::string> ReleaseIn(absl::string_view output) {
  for (size_t at = output.find(", V"); at != absl::string_view::npos; at = output.find(", V", at + 1)) {
    const absl::string_view rest = output.substr(at + 3);
    size_t end = 0;
    bool release = true;
    for (int part = 0; part < 3 && release; ++part) {
      if (part > 0) release = end < rest.size() && rest[end++] == '.';
      const size_t digits = release ? Digits(rest.substr(end)) : 0;
      release = digits > 0;
      end += digits;
    }
    if (release) return std::string(rest.substr(0, end));
  }
  return std::nullopt;
}

// ArchesIn collects the quoted -arch values ('sm_90', 'sm_90a', 'sm_100f')
// that ptxas --help lists, in one pass.
absl::flat_hash_set<std::string> ArchesIn(absl::string_view output) {
  absl::flat_hash_set<std::string> arches;
  for (size_t at = output.find("'sm_"); at != absl::string_view::npos; at = output.find("'sm_", at + 1)) {
    const absl::string_view rest = output.substr(at + 1);
    size_t end = 3 + Digits(rest.substr(3));
    if (end == 3) continue;
    if (end < rest.size() && (rest[end] == 'a' || rest[end] == 'f')) ++end;
    if (end < rest.size() && rest[end] == '\'') arches.insert(std::string(rest.substr(0, end)));
  }
  return arches;
}

// RunForAnswer runs `path` with one flag and checks that it answered at all.
absl::StatusOr<ProcessResult> RunForAnswer(const std::string& path, absl::string_view flag,
                                           std::chrono::milliseconds timeout) {
  absl::StatusOr<ProcessResult> run = RunProcess({path, std::string(flag)}, timeout);
  if (!run.ok()) return run.status();
  if (absl::Status ended = CheckCompilerRun(*run, absl::StrCat(path, " ", flag), {0}); !ended.ok()) return ended;
  return run;
}

// NotPtxas is the error for a program whose answer to `flag` is not
// ptxas's: the path given is not a ptxas, a problem with what the user gave.
absl::Status NotPtxas(const std::string& path, absl::string_view flag, absl::string_view expected,
                      const ProcessResult& run) {
  return absl::FailedPreconditionError(
      absl::StrCat(path, " ", flag, " printed no ", expected, ": '", QuotedOutput(run.standard_output), "'"));
}

// HasErrorMessage says whether `diagnostics` hold an error or fatal message
// in ptxas's format that says more than "aborted due to errors".
bool HasErrorMessage(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) {
    const bool error = diagnostic.severity == Diagnostic::Severity::kError ||
                       diagnostic.severity == Diagnostic::Severity::kFatal;
    if (error && !IsSummaryMessage(diagnostic.message)) return true;
  }
  return false;
}

// IsElf says whether `bytes` start as an ELF file (a cubin) does.
bool IsElf(absl::string_view bytes) { return absl::StartsWith(bytes, "\x7f" "ELF"); }

// ScratchDirectory is a temporary directory for one run's module files:
// `files` of them, 0.ptx to (files - 1).ptx, are there from earlier runs.
struct ScratchDirectory {
  std::string base;  // the TemporaryDirectory it was made in
  std::string path;
  size_t files = 0;
};

// ScratchDirectories lends each run a temporary directory that earlier runs
// wrote, and the run writes its module files over theirs: a cold support
// sweep writes tens of thousands of module files, and creating and removing
// each one cost ext4's inode allocator a tenth of the sweep's CPU. The
// directories are removed at exit. Threads may share it.
class ScratchDirectories {
 public:
  // Shared is the process's directories, removed at exit.
  static ScratchDirectories& Shared() {
    static ScratchDirectories* const shared = [] {
      auto* directories = new ScratchDirectories();
      std::atexit([] { Shared().RemoveAll(); });
      return directories;
    }();
    return *shared;
  }

  // Lend lends a directory under TemporaryDirectory(), made if none is free.
  absl::StatusOr<ScratchDirectory> Lend() {
    const std::string base = TemporaryDirectory();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto free = free_.begin(); free != free_.end(); ++free) {
        if (free->base != base) continue;
        ScratchDirectory lent = std::move(*free);
        free_.erase(free);
        return lent;
      }
    }
    std::string path = absl::StrCat(base, "/matload-XXXXXX");
    if (mkdtemp(path.data()) == nullptr) {
      return absl::InternalError(absl::StrCat("cannot create a temporary directory ", path));
    }
    return ScratchDirectory{.base = base, .path = std::move(path)};
  }
  // GiveBack takes `directory` back for a later run.
  void GiveBack(ScratchDirectory directory) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(directory));
  }

 private:
  // RemoveAll removes the directories not lent, with their files.
  void RemoveAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const ScratchDirectory& directory : free_) {
      for (size_t i = 0; i < directory.files; ++i) unlink(absl::StrCat(directory.path, "/", i, ".ptx").c_str());
      rmdir(directory.path.c_str());
    }
    free_.clear();
  }

  std::mutex mutex_;
  std::vector<ScratchDirectory> free_;  // guarded by mutex_
};

// ModuleFiles are modules written to files 0.ptx, 1.ptx, ... of a scratch
// directory (ScratchDirectories), given back when the ModuleFiles go, less
// the cubin, so that no run reads an earlier run's.
class ModuleFiles {
 public:
  static absl::StatusOr<ModuleFiles> Write(const std::vector<std::string>& modules) {
    absl::StatusOr<ScratchDirectory> directory = ScratchDirectories::Shared().Lend();
    if (!directory.ok()) return directory.status();
    ModuleFiles files(*std::move(directory));
    for (size_t i = 0; i < modules.size(); ++i) {
      files.inputs_.push_back(absl::StrCat(files.directory_.path, "/", i, ".ptx"));
      files.directory_.files = std::max(files.directory_.files, i + 1);
      std::ofstream stream(files.inputs_.back(), std::ios::binary | std::ios::trunc);
      stream << modules[i];
      if (!stream.flush()) return absl::InternalError(absl::StrCat("cannot write ", files.inputs_.back()));
    }
    return files;
  }
  ModuleFiles(ModuleFiles&& other) noexcept
      : directory_(std::exchange(other.directory_, {})), inputs_(std::move(other.inputs_)) {}
  ModuleFiles& operator=(ModuleFiles&&) = delete;
  ~ModuleFiles() {
    if (directory_.path.empty()) return;
    unlink(cubin().c_str());
    ScratchDirectories::Shared().GiveBack(std::move(directory_));
  }

  const std::vector<std::string>& inputs() const { return inputs_; }
  std::string cubin() const { return absl::StrCat(directory_.path, "/out.cubin"); }
  // IndexOf is the index of the module written to `file`, or -1.
  int IndexOf(absl::string_view file) const {
    absl::string_view name = file;
    if (!absl::ConsumePrefix(&name, directory_.path) || !absl::ConsumePrefix(&name, "/") ||
        !absl::ConsumeSuffix(&name, ".ptx")) {
      return -1;
    }
    int index = -1;
    if (!absl::SimpleAtoi(name, &index) || index < 0 || static_cast<size_t>(index) >= inputs_.size()) return -1;
    return index;
  }

 private:
  explicit ModuleFiles(ScratchDirectory directory) : directory_(std::move(directory)) {}

  ScratchDirectory directory_;
  std::vector<std::string> inputs_;
};

}  // namespace

std::string Ptxas::DefaultPath() {
  if (std::optional<std::string> path = Environment("MATLOAD_PTXAS")) return *path;
  return absl::StrCat(EnvironmentOr("CUDA_HOME", "/usr/local/cuda"), "/bin/ptxas");
}

absl::StatusOr<Ptxas> Ptxas::Open(std::string path, std::chrono::milliseconds timeout) {
  absl::StatusOr<ProcessResult> version = RunForAnswer(path, "--version", timeout);
  if (!version.ok()) return version.status();
  std::optional<std::string> release = ReleaseIn(version->standard_output);
  if (!release.has_value()) return NotPtxas(path, "--version", "ptxas release", *version);
  absl::StatusOr<ProcessResult> help = RunForAnswer(path, "--help", timeout);
  if (!help.ok()) return help.status();
  absl::flat_hash_set<std::string> arches = ArchesIn(help->standard_output);
  if (arches.empty()) return NotPtxas(path, "--help", "sm_ target", *help);
  return Ptxas(std::move(path), *std::move(release), std::move(arches), timeout);
}

Ptxas Ptxas::WithArguments(std::vector<std::string> arguments) const {
  Ptxas with = *this;
  with.arguments_ = std::move(arguments);
  return with;
}

absl::StatusOr<ProcessResult> Ptxas::Start(const std::vector<std::string>& inputs, const std::string& cubin_path,
                                           Target target) const {
  if (!Supports(target)) {
    return absl::UnimplementedError(absl::StrCat("ptxas ", version_, " cannot assemble for ", target.Name()));
  }
  std::vector<std::string> argv = {path_, absl::StrCat("-arch=", target.Name())};
  argv.insert(argv.end(), arguments_.begin(), arguments_.end());
  argv.insert(argv.end(), inputs.begin(), inputs.end());
  argv.insert(argv.end(), {"-o", cubin_path});
  return RunProcess(argv, timeout_);
}

absl::StatusOr<Ptxas::Compiled> Ptxas::Run(const std::vector<std::string>& inputs, const std::string& cubin_path,
                                           Target target) const {
  absl::StatusOr<ProcessResult> run = Start(inputs, cubin_path, target);
  if (!run.ok()) return run.status();
  const std::string what = absl::StrCat(path_, " (ptxas ", version_, ") -arch=", target.Name());
  if (absl::Status ended = CheckCompilerRun(*run, what, {0, kPtxasRejectionExitCode}); !ended.ok()) return ended;
  Compiled compiled{.assembled = {.accepted = run->exit_code == 0,
                                  .diagnostics = ParsePtxasDiagnostics(run->standard_error)}};
  if (!compiled.assembled.accepted) {
    if (HasErrorMessage(compiled.assembled.diagnostics)) return compiled;
    return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                               absl::StrCat(what, " rejected a module without an error message in ptxas's format: '",
                                            QuotedOutput(run->standard_error), "'"));
  }
  std::ifstream stream(cubin_path, std::ios::binary);
  compiled.cubin.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  if (!IsElf(compiled.cubin)) {
    return InfrastructureError(InfrastructureCause::kCompilerOutputNotUnderstood,
                               absl::StrCat(what, " accepted a module but wrote no ELF cubin (", compiled.cubin.size(),
                                            " bytes)"));
  }
  return compiled;
}

absl::StatusOr<Ptxas::Compiled> Ptxas::Compile(absl::string_view module_text, Target target) const {
  return WithModuleFile(module_text,
                        [&](const std::string& file, const std::string& cubin) { return Run({file}, cubin, target); });
}

absl::StatusOr<ProcessResult> Ptxas::Ask(absl::string_view module_text, Target target) const {
  return WithModuleFile(
      module_text, [&](const std::string& file, const std::string& cubin) { return Start({file}, cubin, target); });
}

absl::StatusOr<AssembleResult> Ptxas::AssembleModules(const std::vector<std::string>& modules, Target target) const {
  if (modules.empty() || modules.size() > kMaxModulesPerRun) {
    return absl::InvalidArgumentError(
        absl::StrCat("ptxas assembles 1 to ", kMaxModulesPerRun, " modules per run, not ", modules.size()));
  }
  absl::StatusOr<ModuleFiles> files = ModuleFiles::Write(modules);
  if (!files.ok()) return files.status();
  absl::StatusOr<Compiled> compiled = Run(files->inputs(), files->cubin(), target);
  if (!compiled.ok()) return compiled.status();
  for (Diagnostic& diagnostic : compiled->assembled.diagnostics) {
    diagnostic.module = files->IndexOf(diagnostic.file);
  }
  return std::move(compiled->assembled);
}

namespace {

// IsError says whether `diagnostic` is an error or a fatal error that says
// more than "aborted due to errors".
bool IsError(const Diagnostic& diagnostic) {
  return (diagnostic.severity == Diagnostic::Severity::kError || diagnostic.severity == Diagnostic::Severity::kFatal) &&
         !IsSummaryMessage(diagnostic.message);
}

// SharedRun is what one run of several modules (AssembleEach) said, module
// by module.
struct SharedRun {
  std::vector<std::vector<Diagnostic>> own;  // per module, those naming its file
  std::vector<Diagnostic> no_file;           // those naming no file
  // trusted: no fatal error, and no line names a file that is none of the
  // modules (ptxas's "<builtin>" helpers), so each module's errors are all
  // its own and no module's state reached another's.
  bool trusted = true;
};

SharedRun SplitByModule(std::vector<Diagnostic> diagnostics, size_t modules) {
  SharedRun run{.own = std::vector<std::vector<Diagnostic>>(modules)};
  for (Diagnostic& diagnostic : diagnostics) {
    if (IsError(diagnostic) && diagnostic.severity == Diagnostic::Severity::kFatal) run.trusted = false;
    if (diagnostic.module >= 0) {
      const size_t module = static_cast<size_t>(diagnostic.module);
      diagnostic.module = 0;  // as a run of the module alone names it
      run.own[module].push_back(std::move(diagnostic));
    } else if (diagnostic.file.empty()) {
      diagnostic.module = 0;
      run.no_file.push_back(std::move(diagnostic));
    } else {
      run.trusted = false;
    }
  }
  return run;
}

// HasError says whether `diagnostics` hold an error (IsError).
bool HasError(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), IsError);
}

}  // namespace

absl::StatusOr<std::vector<AssembleResult>> Ptxas::AssembleEach(const std::vector<std::string>& modules,
                                                                Target target) const {
  std::vector<AssembleResult> results(modules.size());
  using Indices = std::vector<size_t>;
  std::vector<Indices> runs;      // runs to make, each its modules' indices
  Indices again(modules.size());  // modules to deal into new runs once `runs` is done
  std::iota(again.begin(), again.end(), 0);
  while (!runs.empty() || !again.empty()) {
    if (runs.empty()) {
      for (size_t first = 0; first < again.size(); first += kModulesPerEachRun) {
        const auto begin = again.begin() + static_cast<long>(first);
        runs.emplace_back(begin, begin + static_cast<long>(std::min(kModulesPerEachRun, again.size() - first)));
      }
      again.clear();
    }
    const Indices run = std::move(runs.back());
    runs.pop_back();
    std::vector<std::string> texts;
    for (size_t index : run) texts.push_back(modules[index]);
    absl::StatusOr<AssembleResult> result = AssembleModules(texts, target);
    if (!result.ok()) return result.status();
    if (run.size() == 1) {  // Assemble's run of the module alone
      for (Diagnostic& diagnostic : result->diagnostics) diagnostic.module = 0;
      results[run[0]] = *std::move(result);
      continue;
    }
    SharedRun shared = SplitByModule(std::move(result->diagnostics), run.size());
    Indices with_errors;
    Indices clean;
    for (size_t position = 0; position < run.size(); ++position) {
      (HasError(shared.own[position]) ? with_errors : clean).push_back(position);
    }
    if (!shared.trusted) {
      // Again, the modules with errors (every module, if none has its own)
      // in two halves, and the others in other runs.
      Indices suspects;
      for (size_t position : with_errors.empty() ? clean : with_errors) suspects.push_back(run[position]);
      const auto middle = suspects.begin() + static_cast<long>(suspects.size() / 2);
      if (middle != suspects.begin()) runs.emplace_back(suspects.begin(), middle);
      runs.emplace_back(middle, suspects.end());
      if (!with_errors.empty()) {
        for (size_t position : clean) again.push_back(run[position]);
      }
      continue;
    }
    for (size_t position = 0; position < run.size(); ++position) {
      if (!result->accepted && !HasError(shared.own[position])) {
        again.push_back(run[position]);  // a later check of ptxas's may not have run on it
        continue;
      }
      AssembleResult& alone = results[run[position]];
      alone.accepted = result->accepted;
      alone.diagnostics = std::move(shared.own[position]);
      alone.diagnostics.insert(alone.diagnostics.end(), shared.no_file.begin(), shared.no_file.end());
    }
  }
  return results;
}

absl::StatusOr<AssembleResult> Ptxas::Assemble(absl::string_view module_text, Target target) const {
  absl::StatusOr<Compiled> compiled = Compile(module_text, target);
  if (!compiled.ok()) return compiled.status();
  return std::move(compiled->assembled);
}

absl::StatusOr<std::string> Ptxas::CompileToCubin(absl::string_view module_text, Target target) const {
  absl::StatusOr<Compiled> compiled = Compile(module_text, target);
  if (!compiled.ok()) return compiled.status();
  if (!compiled->assembled.accepted) {
    std::string messages;
    for (const Diagnostic& diagnostic : compiled->assembled.diagnostics) {
      absl::StrAppend(&messages, messages.empty() ? "" : "; ", diagnostic.message);
    }
    return absl::FailedPreconditionError(absl::StrCat("ptxas ", version_, " rejected the module: ", messages));
  }
  return std::move(compiled->cubin);
}

}  // namespace matload
