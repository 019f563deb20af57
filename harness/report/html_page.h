// RenderPage: one HTML report page from a Mustache template of
// harness/report/templates/ and a view (the data the template names).
// Mustache escapes every {{value}} for HTML (& < > " '), so PTX text,
// toolchain messages and paths reach the page as text, never as markup;
// only the page's own CSS and JavaScript, from templates/, go in raw.
#ifndef MATLOAD_HARNESS_REPORT_HTML_PAGE_H_
#define MATLOAD_HARNESS_REPORT_HTML_PAGE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "kainjow/mustache.hpp"

namespace matload {

// RenderPage renders templates/`template_name` with `view`, to which it
// adds `style` (report.css) and `script` (report.js) for the template to
// inline, and the partials every page shares ({{>page_head}},
// {{>filter_bar}}, {{>legend_box}}, {{>matrix_legend_box}}). A template
// that does not parse is kInternal with Mustache's message: the templates
// are part of matload, not input.
absl::StatusOr<std::string> RenderPage(absl::string_view template_name, kainjow::mustache::data view);

}  // namespace matload

#endif  // MATLOAD_HARNESS_REPORT_HTML_PAGE_H_
