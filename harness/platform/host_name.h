// HostName: this machine's name, as a run records it (harness/runs/
// run_journal.h) and as a claim on a running run names its holder with
// its pid (harness/runs/results_store.h), so that a claim from another
// host is never taken for a dead process of this one.
#ifndef MATLOAD_HARNESS_PLATFORM_HOST_NAME_H_
#define MATLOAD_HARNESS_PLATFORM_HOST_NAME_H_

#include <string>

namespace matload {

// HostName is this machine's name (gethostname), or "unknown" where the
// system gives none.
std::string HostName();

}  // namespace matload

#endif  // MATLOAD_HARNESS_PLATFORM_HOST_NAME_H_
