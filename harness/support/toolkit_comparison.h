// Toolkit comparison: where several compilers' support sweeps differ, for
// users bisecting "what changed in this release".
#ifndef MATLOAD_HARNESS_SUPPORT_TOOLKIT_COMPARISON_H_
#define MATLOAD_HARNESS_SUPPORT_TOOLKIT_COMPARISON_H_

#include <string>
#include <vector>

#include "harness/support/support_sweep.h"

namespace matload {

// ToolkitComparisonMarkdown compares sweeps of the same PTX version and
// targets by different compilers: per-target counts side by side, each
// known discrepancy's count per compiler, and every matrix cell and
// near-miss form whose verdict differs between compilers. It prints
// `command` WithoutHome (harness/without_home.h).
std::string ToolkitComparisonMarkdown(const std::vector<SupportSweep>& sweeps, const std::string& command,
                                      const std::string& date);

}  // namespace matload

#endif  // MATLOAD_HARNESS_SUPPORT_TOOLKIT_COMPARISON_H_
