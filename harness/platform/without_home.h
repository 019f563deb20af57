// WithoutHome: paths and command lines as pages print them, without the
// machine's home directory.
#ifndef MATLOAD_HARNESS_WITHOUT_HOME_H_
#define MATLOAD_HARNESS_WITHOUT_HOME_H_

#include <string>

#include "absl/strings/string_view.h"

namespace matload {

// WithoutHome is `text` (a path, a command line) as the reports print it:
// each path under the home directory ($HOME) starts "~/" (a toolkit fetched
// into ~/.cache/matload, say), so that no report names the machine's home
// or user. The support reports (harness/support_report.h), the toolkit
// comparison and the run pages (harness/report/run_report.h) print so.
std::string WithoutHome(absl::string_view text);

}  // namespace matload

#endif  // MATLOAD_HARNESS_WITHOUT_HOME_H_
