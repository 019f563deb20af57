// matload history CASE_ID: one case's outcome in every run of the results
// store (harness/triage/case_history.h): has it ever passed here, since
// when does it fail, on which GPU, driver and toolkits.
#ifndef MATLOAD_HARNESS_CLI_CASE_HISTORY_COMMAND_H_
#define MATLOAD_HARNESS_CLI_CASE_HISTORY_COMMAND_H_

#include <ostream>
#include <string>

namespace matload {

// RunCaseHistoryCommand prints `case_id`'s runs in the store --db names,
// oldest first, as a sentence and a table, or as JSON. A store that does
// not exist, or no run of the case in it, is exit 2.
int RunCaseHistoryCommand(const std::string& case_id, bool json, std::ostream& out, std::ostream& err);

}  // namespace matload

#endif  // MATLOAD_HARNESS_CLI_CASE_HISTORY_COMMAND_H_
