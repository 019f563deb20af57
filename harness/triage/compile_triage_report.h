// CompileTriageReport: a support case's triage (compile_triage.h) as the
// same kind of document as a GPU finding's (triage_report.h), plus
// draft-entry.json when no registry entry explains the case.
#ifndef MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_REPORT_H_
#define MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_REPORT_H_

#include <filesystem>

#include "absl/status/status.h"
#include "harness/triage/compile_triage.h"
#include "harness/triage/triage_report.h"
#include "nlohmann/json.hpp"

namespace matload {

// DescribeCompileTriage writes the document of one support case's triage.
TriageDocument DescribeCompileTriage(const CompileTriage& triage);

// CompileTriageJson is its data.
nlohmann::json CompileTriageJson(const CompileTriage& triage);

// WriteCompileTriage writes the report into `directory` (new or empty) and
// draft-entry.json when the case disagrees and no entry explains it.
absl::Status WriteCompileTriage(const std::filesystem::path& directory, const CompileTriage& triage);

}  // namespace matload

#endif  // MATLOAD_HARNESS_TRIAGE_COMPILE_TRIAGE_REPORT_H_
