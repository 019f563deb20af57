#include "harness/platform/environment.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "absl/strings/str_split.h"

namespace matload {

const std::vector<EnvironmentVariable>& EnvironmentVariables() {
  static const auto* const kVariables = new std::vector<EnvironmentVariable>{
      {"MATLOAD_DB", "support conform fuzz runs diff baseline export merge",
       "the results store, when --db is not given", "matload-results.sqlite in the current directory"},
      {"MATLOAD_PTXAS", "support conform fuzz selftest", "the ptxas to run, when --ptxas is not given",
       "$CUDA_HOME/bin/ptxas"},
      {"CUDA_HOME", "support conform fuzz selftest", "the CUDA toolkit: its bin/ptxas and lib64/libnvJitLink.so",
       "/usr/local/cuda"},
      {"MATLOAD_CUOBJDUMP", "support", "the cuobjdump that gives the support report its SASS column",
       "the one beside ptxas, else $MATLOAD_CACHE/cuda-13.5.37/cuobjdump"},
      {"MATLOAD_CACHE", "support", "where scripts/fetch-cuda-tools.sh keeps the toolkits it fetches",
       "$HOME/.cache/matload"},
      {"MATLOAD_SOURCE_DIR", "all",
       "the matload source tree: the corpora and the fuzz seeds (the fuzz targets read its discrepancy registry; "
       "matload judges by the one built in, or --registry)",
       "the current directory"},
      {"SLURM_ARRAY_JOB_ID", "support conform fuzz",
       "with --shard, names the parent run (slurm<ID>) when --parent is not given",
       "the parent is named by a hash of the command and its options"},
      {"MATLOAD_LEGALITY_COMPILER", "fuzz", "the legality fuzz target's compiler: ptxas or nvjitlink", "nvjitlink"},
      {"MATLOAD_FINDINGS_DIR", "fuzz", "where a fuzz target writes each finding (matload fuzz sets it per target)",
       "findings are not written"},
      {"TMPDIR", "all", "where temporary files go", "/tmp"},
      {"HOME", "support", "the default $MATLOAD_CACHE's parent; paths under it are shown as ~/ in reports",
       "no cache, paths shown whole"},
      {"PATH", "all", "where programs named without a '/' are looked for", "none"},
  };
  return *kVariables;
}

std::optional<std::string> Environment(absl::string_view name) {
  const std::vector<EnvironmentVariable>& table = EnvironmentVariables();
  if (std::none_of(table.begin(), table.end(), [&](const EnvironmentVariable& v) { return v.name == name; })) {
    std::cerr << "matload: internal error: $" << name << " is not in harness/platform/environment.cc's table\n";
    std::abort();
  }
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::string EnvironmentOr(absl::string_view name, absl::string_view fallback) {
  return Environment(name).value_or(std::string(fallback));
}

std::string TemporaryDirectory() { return EnvironmentOr("TMPDIR", "/tmp"); }

bool ReadBy(const EnvironmentVariable& variable, absl::string_view command) {
  if (variable.readers == "all") return true;
  const std::vector<absl::string_view> readers = absl::StrSplit(variable.readers, ' ');
  return std::find(readers.begin(), readers.end(), command) != readers.end();
}

}  // namespace matload
