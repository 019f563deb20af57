#include "harness/report/html_page.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/report/embedded_templates.h"

namespace matload {
namespace {

// kPartials are the pieces every page shares, each templates/<name>.mustache,
// which a page includes as {{>name}}.
constexpr const char* kPartials[] = {"page_head", "filter_bar", "legend_box", "matrix_legend_box"};

}  // namespace

absl::StatusOr<std::string> RenderPage(absl::string_view template_name, kainjow::mustache::data view) {
  absl::StatusOr<absl::string_view> page = EmbeddedTemplate(template_name);
  absl::StatusOr<absl::string_view> style = EmbeddedTemplate("report.css");
  absl::StatusOr<absl::string_view> script = EmbeddedTemplate("report.js");
  for (const absl::StatusOr<absl::string_view>* text : {&page, &style, &script}) {
    if (!text->ok()) return text->status();
  }
  kainjow::mustache::mustache compiled{std::string(*page)};
  if (!compiled.is_valid()) {
    return absl::InternalError(absl::StrCat("report template ", template_name, ": ", compiled.error_message()));
  }
  view.set("style", std::string(*style));
  view.set("script", std::string(*script));
  for (const char* name : kPartials) {
    absl::StatusOr<absl::string_view> text = EmbeddedTemplate(absl::StrCat(name, ".mustache"));
    if (!text.ok()) return text.status();
    view.set(name, kainjow::mustache::partial([text = std::string(*text)] { return text; }));
  }
  std::string html = compiled.render(view);
  if (!compiled.is_valid()) {
    return absl::InternalError(absl::StrCat("report template ", template_name, ": ", compiled.error_message()));
  }
  return html;
}

}  // namespace matload
