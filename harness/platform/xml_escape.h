// XmlEscape: text from outside (a run ID, a status, a message, a path) as
// it may stand in markup that matload writes by hand rather than through a
// Mustache template, which escapes on its own: the JUnit documents
// (harness/runs/junit_export.h) and the SVG charts and notes of the HTML
// pages (harness/report/).
#ifndef MATLOAD_HARNESS_PLATFORM_XML_ESCAPE_H_
#define MATLOAD_HARNESS_PLATFORM_XML_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// XmlEscape makes `text` safe in an attribute or element of XML, SVG or
// HTML: markup characters (& < > " ') and the whitespace a parser would
// normalize in an attribute (tab, newline, carriage return) become
// references, and what XML 1.0 does not allow (invalid UTF-8, C0 controls)
// becomes U+FFFD. "x</title><script>" becomes "x&lt;/title&gt;&lt;script&gt;".
std::string XmlEscape(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_XML_ESCAPE_H_
