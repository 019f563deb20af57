#include "harness/runs/judged_nothing.h"

#include <iterator>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"

namespace matload {
namespace {

// CaseFilters are a command's case filters and the shape of its case IDs,
// as docs/case-ids.md gives it.
struct CaseFilters {
  absl::string_view command;
  absl::string_view flags;
  absl::string_view shape;
};
constexpr CaseFilters kCaseFilters[] = {
    {"support", "--cases, --include and --exclude",
     "TARGET.FORM, such as sm_90.ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64"},
    {"conform", "--cases, --include, --exclude and --forms",
     "FORM.PATH with no target, such as ldmatrix.sync.aligned.m8n8.x4.shared.b16.addr64.driver_jit"},
    {"soak", "--cases, --include, --exclude and --forms", "conform's, FORM.PATH with no target"},
};

}  // namespace

absl::Status JudgedNothing(absl::string_view command, bool filtered) {
  if (!filtered) {
    return absl::FailedPreconditionError(
        absl::StrCat("this ", command, " run judged no case, so it is not clean: nothing was tested"));
  }
  const auto* filters =
      absl::c_find_if(kCaseFilters, [command](const CaseFilters& entry) { return entry.command == command; });
  if (filters == std::end(kCaseFilters)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the shards of this ", command, " run took no case; a run that judged nothing is never clean"));
  }
  return absl::InvalidArgumentError(absl::StrCat(filters->flags, " take no case of this ", command,
                                                 " run (its case IDs are ", filters->shape,
                                                 "); a run that judged nothing is never clean (docs/case-ids.md)"));
}

}  // namespace matload
