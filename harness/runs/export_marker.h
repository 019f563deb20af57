// ExportMarker: what every page and JUnit file matload writes about a run
// carries, naming its kind and the run (or, for a diff, the two runs) it
// is of, so that an export replaces only its own earlier self: never the
// results store, a run's results, another run's page or export (a
// published one under reports/ included), a support matrix, or another
// program's report that starts the same way (googletest writes the same
// XML declaration and <testsuites> as JUnit).
//
// A JUnit file carries it as an XML comment after its declaration; an HTML
// page (a run's report.html, `export --html`, `diff --html`) as a <meta
// name="matload-export"> in its head. A run's report.html and its
// `export --html` are one kind: the same page. A CSV export has no place
// for a marker that every CSV reader skips; it is known by its header
// alone (harness/cli/store_commands.cc).
#ifndef MATLOAD_HARNESS_RUNS_EXPORT_MARKER_H_
#define MATLOAD_HARNESS_RUNS_EXPORT_MARKER_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// ExportKind is what a marked file is.
enum class ExportKind {
  kJunit,      // `matload export --junit`
  kRunPage,    // a run's report.html, or `matload export --html`
  kDiffPage,   // `matload diff --html`
  kRunsIndex,  // `matload runs --html`: about a store, not a run
};

// ExportMarker is the marker of a file of `kind` about `runs` (a run's ID,
// for a diff page "A_ID B_ID", for a runs index the store's path), written as that kind of file writes it:
// "<!-- matload junit export of run conform-... -->" or
// "<meta name=\"matload-export\" content=\"run-page of run conform-...\">".
// A character of `runs` that XML or HTML would escape, or that would end
// an XML comment, is written '_': a run ID has none.
std::string ExportMarker(ExportKind kind, absl::string_view runs);

// CheckReplaceable says why a file of `kind` about `runs` may not be
// written to `path`: it exists, and is not a regular file whose first
// kilobytes hold that very marker (kAlreadyExists, naming the path). A
// path that does not exist is free.
absl::Status CheckReplaceable(const std::string& path, ExportKind kind, absl::string_view runs);

}  // namespace matload

#endif  // MATLOAD_HARNESS_RUNS_EXPORT_MARKER_H_
