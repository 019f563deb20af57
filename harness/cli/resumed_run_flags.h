// ResumedRunFlags: `--resume RUN` takes a run back with the options it was
// started with. A run stores those options, the ones that decide its cases
// and results, as a JSON object (RunStart::options); the flags the command
// line leaves out are set from it, so that a stopped run is resumed by its
// ID alone, as `matload merge` and `matload runs` say to. A flag given with
// another value than the run's is still refused, by name, when the run is
// taken back (RunJournal::Start).
#ifndef MATLOAD_HARNESS_CLI_RESUMED_RUN_FLAGS_H_
#define MATLOAD_HARNESS_CLI_RESUMED_RUN_FLAGS_H_

#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace matload {

// SetFlagsOfResumedRun: with --resume, sets each flag of `command`'s
// stored options that is not in `given` (CommandLine::given) to the value
// run --resume was started with, the case filter's --cases, --include and
// --exclude together; without --resume, or for a command that stores no
// options, it does nothing. An unknown run, or one of another command, is
// left for RunJournal::Start to refuse. Stored options that do not read
// back as flags are kDataLoss.
absl::Status SetFlagsOfResumedRun(absl::string_view command, const std::set<std::string>& given);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_RESUMED_RUN_FLAGS_H_
