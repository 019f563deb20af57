#include "harness/ptxas.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

#include "absl/cleanup/cleanup.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/subprocess.h"

namespace matload {
namespace {

absl::StatusOr<std::string> WriteTemporaryFile(absl::string_view text) {
  const char* directory = std::getenv("TMPDIR");
  std::string path = absl::StrCat(directory != nullptr ? directory : "/tmp", "/matload-XXXXXX.ptx");
  int fd = mkstemps(path.data(), 4);
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

}  // namespace

std::string Ptxas::DefaultPath() {
  if (const char* path = std::getenv("MATLOAD_PTXAS"); path != nullptr && *path != '\0') return path;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    return absl::StrCat(home, "/bin/ptxas");
  }
  return "/usr/local/cuda/bin/ptxas";
}

absl::StatusOr<Ptxas> Ptxas::Open(std::string path) {
  absl::StatusOr<ProcessResult> version = RunProcess({path, "--version"}, std::chrono::seconds(30));
  if (!version.ok()) return version.status();
  static const std::regex kRelease(R"(, V(\d+\.\d+\.\d+))");
  std::smatch match;
  if (version->exit_code != 0 || !std::regex_search(version->standard_output, match, kRelease)) {
    return absl::FailedPreconditionError(absl::StrCat(path, " --version did not print a ptxas release"));
  }
  absl::StatusOr<ProcessResult> help = RunProcess({path, "--help"}, std::chrono::seconds(30));
  if (!help.ok()) return help.status();
  // The -arch values are listed as 'sm_90','sm_90a',... in --help.
  absl::flat_hash_set<std::string> arches;
  static const std::regex kArch(R"('(sm_\d+[af]?)')");
  for (std::sregex_iterator it(help->standard_output.begin(), help->standard_output.end(), kArch), end; it != end;
       ++it) {
    arches.insert((*it)[1].str());
  }
  if (arches.empty()) return absl::FailedPreconditionError(absl::StrCat(path, " --help lists no sm_ targets"));
  return Ptxas(std::move(path), match[1].str(), std::move(arches));
}

absl::StatusOr<AssembleResult> Ptxas::Assemble(absl::string_view module_text, Target target) const {
  if (!Supports(target)) {
    return absl::UnimplementedError(absl::StrCat("ptxas ", version_, " cannot assemble for ", target.Name()));
  }
  absl::StatusOr<std::string> file = WriteTemporaryFile(module_text);
  if (!file.ok()) return file.status();
  absl::Cleanup remove_file = [&file] { unlink(file->c_str()); };
  absl::StatusOr<ProcessResult> run =
      RunProcess({path_, absl::StrCat("-arch=", target.Name()), *file, "-o", "/dev/null"});
  if (!run.ok()) return run.status();
  if (run->timed_out) return absl::DeadlineExceededError(absl::StrCat("ptxas hung on ", target.Name()));
  if (run->exit_code != 0 && run->exit_code != 255) {
    return absl::InternalError(absl::StrCat("ptxas ended with status ", run->exit_code, ": ", run->standard_error));
  }
  AssembleResult result{.accepted = run->exit_code == 0, .diagnostics = ParsePtxasDiagnostics(run->standard_error)};
  return result;
}

absl::StatusOr<std::string> Ptxas::CompileToCubin(absl::string_view module_text, Target target) const {
  absl::StatusOr<std::string> file = WriteTemporaryFile(module_text);
  if (!file.ok()) return file.status();
  const std::string cubin = *file + ".cubin";
  absl::Cleanup remove_files = [&] {
    unlink(file->c_str());
    unlink(cubin.c_str());
  };
  absl::StatusOr<ProcessResult> run = RunProcess({path_, absl::StrCat("-arch=", target.Name()), *file, "-o", cubin});
  if (!run.ok()) return run.status();
  if (run->timed_out) return absl::DeadlineExceededError(absl::StrCat("ptxas hung on ", target.Name()));
  if (run->exit_code != 0) {
    return absl::FailedPreconditionError(absl::StrCat("ptxas ", version_, " rejected the module: ", run->standard_error));
  }
  std::ifstream stream(cubin, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  if (bytes.empty()) return absl::InternalError(absl::StrCat("ptxas wrote no cubin to ", cubin));
  return bytes;
}

}  // namespace matload
