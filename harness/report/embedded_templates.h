// EmbeddedTemplate: the files of harness/report/templates/ (Mustache
// templates, the reports' CSS and JavaScript), compiled into the binary by
// harness/report/CMakeLists.txt so that a report needs nothing beside it.
#ifndef MATLOAD_HARNESS_REPORT_EMBEDDED_TEMPLATES_H_
#define MATLOAD_HARNESS_REPORT_EMBEDDED_TEMPLATES_H_

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace matload {

// EmbeddedTemplate is the text of templates/`name` ("run_report.mustache"),
// or kNotFound naming it.
absl::StatusOr<absl::string_view> EmbeddedTemplate(absl::string_view name);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_EMBEDDED_TEMPLATES_H_
