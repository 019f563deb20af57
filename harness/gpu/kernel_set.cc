#include "harness/gpu/kernel_set.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace matload {

absl::StatusOr<KernelSet> CombineKernels(absl::Span<const TestProgram* const> programs, absl::string_view tag) {
  if (programs.empty()) return absl::InvalidArgumentError("no kernels to combine");
  KernelSet set;
  if (!tag.empty()) absl::StrAppend(&set.module, "// ", tag, "\n");
  absl::string_view shared_header;
  for (size_t i = 0; i < programs.size(); ++i) {
    const TestProgram& program = *programs[i];
    const absl::string_view kernel = program.kernel();
    const std::string opening = absl::StrCat(".visible .entry ", program.entry(), "(");
    const size_t at = kernel.find(opening);
    if (at == absl::string_view::npos || kernel.find(opening, at + 1) != absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(program.Label(), ": its kernel does not open entry ", program.entry(), " exactly once"));
    }
    const absl::string_view header = kernel.substr(0, at);
    if (i == 0) {
      shared_header = header;
      absl::StrAppend(&set.module, header);
    } else if (header != shared_header) {
      return absl::InvalidArgumentError(absl::StrCat(program.Label(), " has another module header than ",
                                                     programs[0]->Label(),
                                                     ": kernels of one target and PTX version only"));
    }
    set.entries.push_back(absl::StrCat(program.entry(), "_", i));
    absl::StrAppend(&set.module, ".visible .entry ", set.entries.back(), "(", kernel.substr(at + opening.size()), "\n");
  }
  return set;
}

}  // namespace matload
